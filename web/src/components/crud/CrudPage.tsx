import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { PageResult } from '@kilowatch/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Form,
  type FormInstance,
  Input,
  Modal,
  Result,
  Space,
  Table,
  type TableColumnsType,
} from 'antd';
import { type ReactNode, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../lib/notify.ts';
import { type TableParams, useTableParams } from '../../lib/table-params.ts';
import { useConfirmDelete } from './confirm-delete.tsx';
import { IconAction } from './IconAction.tsx';

export interface CrudPageProps<Row extends { id: number }, Values> {
  /** Query-key root, e.g. ['thing', 'categories']; mutations invalidate everything under it. */
  queryKey: readonly unknown[];
  title: ReactNode;
  fetchPage(params: TableParams): Promise<PageResult<Row>>;
  columns: TableColumnsType<Row>;
  /** Form items of the create/edit dialog; omit to make the page read-only. */
  renderForm?(form: FormInstance<Values>, editing: Row | null): ReactNode;
  toFormValues?(row: Row): Partial<Values>;
  create?(values: Values): Promise<unknown>;
  update?(id: number, values: Values): Promise<unknown>;
  remove?(row: Row): Promise<unknown>;
  /** Extra buttons per row, before edit/delete. */
  rowActions?(row: Row): ReactNode;
  /** Edit and delete as icons with their names on hover (IconAction), for a table with many actions. */
  iconActions?: boolean;
  toolbar?: ReactNode;
  searchPlaceholder?: string;
  /** Width of the create/edit dialog. */
  dialogWidth?: number;
  describeRow?(row: Row): string;
  expandable?: Parameters<typeof Table<Row>>[0]['expandable'];
}

/**
 * A management table: name search and paging in the address, create/edit in a dialog with
 * validation, delete after confirmation, the spec's success toasts, empty and error states.
 */
export function CrudPage<Row extends { id: number }, Values>(props: CrudPageProps<Row, Values>) {
  const { t } = useTranslation();
  const askDelete = useConfirmDelete();
  const queryClient = useQueryClient();
  const [params, setParams] = useTableParams();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<Row | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [searchText, setSearchText] = useState(params.name);
  // The row's values, set once the reset below has been rendered (see openDialog).
  const [pendingValues, setPendingValues] = useState<Partial<Values> | null>(null);

  const query = useQuery({
    queryKey: [...props.queryKey, 'page', params],
    queryFn: () => props.fetchPage(params),
    placeholderData: keepPreviousData,
  });

  const invalidate = () => queryClient.invalidateQueries({ queryKey: props.queryKey });

  const save = useMutation({
    mutationFn: (values: Values) => (editing ? props.update!(editing.id, values) : props.create!(values)),
    onSuccess: async () => {
      notify.success(t(editing ? 'toast.updated' : 'toast.created'));
      setDialogOpen(false);
      await invalidate();
    },
  });

  const remove = useMutation({
    mutationFn: (row: Row) => props.remove!(row),
    onSuccess: async () => {
      // Stepping back a page when its last row was deleted, so the table is not left empty.
      if (query.data && query.data.list.length === 1 && params.page > 1) setParams({ page: params.page - 1 });
      await invalidate();
    },
  });

  function openDialog(row: Row | null) {
    setEditing(row);
    form.resetFields();
    // Not set here: the reset remounts the rows of a Form.List (the thing's attributes) in the
    // next render, and with `preserve={false}` the unmounting rows clear the values just set, so
    // a second edit showed empty attribute rows.
    setPendingValues(row && props.toFormValues ? props.toFormValues(row) : null);
    setDialogOpen(true);
  }

  useLayoutEffect(() => {
    if (!pendingValues) return;
    form.setFieldsValue(pendingValues as never);
    setPendingValues(null);
  }, [pendingValues, form]);

  function confirmDelete(row: Row) {
    askDelete({
      content: t('crud.deleteConfirm', { name: props.describeRow?.(row) ?? `#${row.id}` }),
      onDelete: () => remove.mutateAsync(row),
    });
  }

  const actionsColumn: TableColumnsType<Row> =
    props.update || props.remove || props.rowActions
      ? [
          {
            title: t('crud.actions'),
            key: 'actions',
            fixed: 'right',
            // Keeps the header on one line even when the table is empty.
            onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
            render: (_, row) => (
              <Space size={4} wrap={false}>
                {props.rowActions?.(row)}
                {props.update &&
                  props.renderForm &&
                  (props.iconActions ? (
                    <IconAction
                      label={t('crud.edit')}
                      icon={<EditOutlined />}
                      onClick={() => openDialog(row)}
                    />
                  ) : (
                    <Button size="small" type="link" icon={<EditOutlined />} onClick={() => openDialog(row)}>
                      {t('crud.edit')}
                    </Button>
                  ))}
                {props.remove &&
                  (props.iconActions ? (
                    <IconAction
                      label={t('crud.delete')}
                      icon={<DeleteOutlined />}
                      danger
                      onClick={() => confirmDelete(row)}
                    />
                  ) : (
                    <Button
                      size="small"
                      type="link"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => confirmDelete(row)}
                    >
                      {t('crud.delete')}
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]
      : [];

  if (query.isError && !query.data) {
    return (
      <Card>
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={query.error.message}
          extra={<Button onClick={() => query.refetch()}>{t('common.retry')}</Button>}
        />
      </Card>
    );
  }

  return (
    <Card title={props.title}>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          placeholder={props.searchPlaceholder ?? t('crud.searchByName')}
          onSearch={(value) => setParams({ name: value.trim(), page: 1 })}
          style={{ width: 260 }}
          data-testid="crud-search"
        />
        {props.create && props.renderForm && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => openDialog(null)}
            data-testid="crud-create"
          >
            {t('crud.create')}
          </Button>
        )}
        <Button icon={<ReloadOutlined />} onClick={() => query.refetch()} aria-label={t('tabs.refresh')} />
        {props.toolbar}
      </Space>
      <Table<Row>
        rowKey="id"
        loading={query.isFetching}
        dataSource={query.data?.list ?? []}
        columns={[...props.columns, ...actionsColumn]}
        expandable={props.expandable}
        // As wide as the card, its cells wrapping first (auto layout, not max-content, which keeps
        // every cell on one line): the table scrolls only when its columns cannot narrow further,
        // so no column starts hidden under the fixed actions column.
        scroll={{ x: true }}
        tableLayout="auto"
        pagination={{
          current: params.page,
          pageSize: params.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('crud.total', { total }),
          onChange: (page, pageSize) =>
            setParams({ page: pageSize === params.pageSize ? page : 1, pageSize }),
        }}
      />
      {props.renderForm && (
        <Modal
          title={editing ? t('crud.editTitle') : t('crud.createTitle')}
          open={dialogOpen}
          width={props.dialogWidth ?? 560}
          onCancel={() => setDialogOpen(false)}
          onOk={() => form.submit()}
          okText={t('common.confirm')}
          cancelText={t('common.cancel')}
          confirmLoading={save.isPending}
          destroyOnHidden
          forceRender
        >
          <Form<Values>
            form={form}
            layout="vertical"
            onFinish={(values) => save.mutate(values)}
            preserve={false}
          >
            {props.renderForm(form, editing)}
          </Form>
        </Modal>
      )}
    </Card>
  );
}
