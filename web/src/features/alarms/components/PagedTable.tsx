import { Empty, Table, type TableColumnsType } from 'antd';
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';

export interface PageState {
  page: number;
  pageSize: number;
}

/**
 * A page of a server list as the alarm centre shows one (maintenance windows, the notification
 * outbox): its rows, an empty text, and paging that returns to the first page when the size changes.
 */
export function PagedTable<T extends { id: number }>({
  query,
  columns,
  empty,
  page,
  setPage,
  testId,
}: {
  query: { isFetching: boolean; data?: { list: T[]; total: number } };
  columns: TableColumnsType<T>;
  empty: string;
  page: PageState;
  setPage: Dispatch<SetStateAction<PageState>>;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Table<T>
      rowKey="id"
      loading={query.isFetching}
      dataSource={query.data?.list ?? []}
      columns={columns}
      scroll={{ x: 'max-content' }}
      data-testid={testId}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      pagination={{
        current: page.page,
        pageSize: page.pageSize,
        total: query.data?.total ?? 0,
        showSizeChanger: true,
        showTotal: (total) => t('crud.total', { total }),
        onChange: (p, pageSize) => setPage({ page: pageSize === page.pageSize ? p : 1, pageSize }),
      }}
    />
  );
}
