import { type Resource, ROLE_ADMIN } from '@kilowatch/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { resourcesQuery, useResources } from '../../../api/system.ts';
import { CrudPage } from '../../../components/crud/CrudPage.tsx';
import { buildResourceTree, filterResourceTree, type ResourceNode } from '../lib/resource-tree.ts';

const parentIds = (nodes: readonly ResourceNode[]): number[] =>
  nodes.flatMap((n) => (n.children ? [n.id, ...parentIds(n.children)] : []));

/** /sys_management/route (资源管理): the console routes roles can grant, read-only. */
export function ResourcesScreen() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const resources = useResources();
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const expanded = useMemo(
    () => parentIds(buildResourceTree(resources.data ?? [])).filter((id) => !collapsed.has(id)),
    [resources.data, collapsed],
  );

  return (
    <CrudPage<ResourceNode, never>
      queryKey={keys.resources.all}
      title={t('system.resource.title')}
      searchPlaceholder={t('system.resource.searchPlaceholder')}
      toolbar={<Typography.Text type="secondary">{t('system.resource.subtitle')}</Typography.Text>}
      fetchPage={async ({ page, pageSize, name }) => {
        const all = await queryClient.fetchQuery(resourcesQuery());
        const roots = filterResourceTree(buildResourceTree(all), name, (n) => t(n.titleKey));
        return {
          list: roots.slice((page - 1) * pageSize, page * pageSize),
          total: roots.length,
          page,
          pageSize,
        };
      }}
      expandable={{
        expandedRowKeys: expanded,
        onExpand: (open, row) =>
          setCollapsed((prev) => {
            const next = new Set(prev);
            if (open) next.delete(row.id);
            else next.add(row.id);
            return next;
          }),
      }}
      columns={[
        { title: t('system.resource.fields.title'), key: 'title', render: (_, r: Resource) => t(r.titleKey) },
        {
          title: t('system.resource.fields.path'),
          dataIndex: 'path',
          render: (p: string) => <code>{p}</code>,
        },
        { title: t('system.resource.fields.name'), dataIndex: 'name' },
        {
          title: t('system.resource.fields.access'),
          dataIndex: 'adminOnly',
          render: (adminOnly: boolean) =>
            adminOnly ? (
              <Tag color="gold" title={ROLE_ADMIN}>
                {t('system.resource.adminOnly')}
              </Tag>
            ) : (
              <Tag color="green">{t('system.resource.everyone')}</Tag>
            ),
        },
      ]}
    />
  );
}
