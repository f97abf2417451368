import { ApartmentOutlined, DesktopOutlined, InboxOutlined } from '@ant-design/icons';
import type { RegionNode } from '@kilowatch/contract';
import { Card, Empty, Input, Select, Skeleton, Tree, type TreeDataNode } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCategories } from '../../../api/things.ts';
import {
  filterTree,
  isUnassignedGroup,
  matchesSelection,
  nodeKey,
  nodeSelection,
  walk,
} from '../lib/tree.ts';
import type { MonitorContext } from './use-monitor.ts';

const toTreeData = (nodes: readonly RegionNode[]): TreeDataNode[] =>
  nodes.map((n) => ({
    key: nodeKey(n),
    title: n.name,
    icon:
      n.resourceType === 'thing' ? (
        <DesktopOutlined />
      ) : isUnassignedGroup(n) ? (
        <InboxOutlined />
      ) : (
        <ApartmentOutlined />
      ),
    isLeaf: n.resourceType === 'thing',
    selectable: n.isClick !== false,
    children: toTreeData(n.children ?? []),
  }));

/** Keys of the ancestors of the selected node, so it shows when the tree opens. */
function ancestorKeys(roots: readonly RegionNode[], ctx: MonitorContext): string[] {
  const selected = ctx.node;
  if (!selected) return [];
  const byId = new Map([...walk(roots)].filter((n) => n.resourceType === 'region').map((n) => [n.id, n]));
  const keys: string[] = [];
  for (let id = selected.parentId; id !== null; ) {
    const parent = byId.get(id);
    if (!parent) break;
    keys.push(nodeKey(parent));
    id = parent.parentId;
  }
  return keys;
}

/** Why the tree shows nothing: it failed to load, the search matches nothing, or nothing exists. */
function emptyText(ctx: MonitorContext, search: string, t: TFunction): string {
  if (ctx.tree.isError || ctx.unbound.isError) return t('monitoring.tree.loadFailed');
  if (search.trim() && ctx.roots.length) return t('monitoring.tree.noMatch', { search: search.trim() });
  // No region and no unassigned device: there is no device at all (of the chosen category).
  return ctx.categoryId === null ? t('monitoring.tree.empty') : t('monitoring.tree.emptyCategory');
}

/**
 * The shared left panel: category filter, search, and the region tree with things as leaves.
 * Selecting a region or a thing puts it in the address.
 */
export function ResourcePanel({
  ctx,
  categoryFilter = true,
}: {
  ctx: MonitorContext;
  categoryFilter?: boolean;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const categories = useCategories(categoryFilter);
  const filtered = useMemo(() => filterTree(ctx.roots, search), [ctx.roots, search]);
  const treeData = useMemo(() => toTreeData(filtered.nodes), [filtered.nodes]);
  const byKey = useMemo(
    () => new Map([...walk(filtered.nodes)].map((n) => [nodeKey(n), n])),
    [filtered.nodes],
  );
  const selectedKeys =
    ctx.node && ctx.selection && matchesSelection(ctx.node, ctx.selection) ? [nodeKey(ctx.node)] : [];
  const expandedKeys = search.trim()
    ? filtered.expandedKeys
    : (expanded ?? [...ctx.roots.map(nodeKey), ...ancestorKeys(ctx.roots, ctx)]);

  return (
    <Card size="small" title={t('monitoring.tree.title')} styles={{ body: { padding: 12 } }}>
      {categoryFilter && (
        <Select
          allowClear
          style={{ width: '100%', marginBottom: 8 }}
          placeholder={t('monitoring.tree.allCategories')}
          aria-label={t('monitoring.tree.category')}
          loading={categories.isPending}
          value={ctx.categoryId ?? undefined}
          onChange={(v: number | undefined) => ctx.setCategory(v ?? null)}
          options={(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
      )}
      <Input.Search
        allowClear
        placeholder={t('monitoring.tree.search')}
        aria-label={t('monitoring.tree.search')}
        style={{ marginBottom: 8 }}
        onChange={(e) => setSearch(e.target.value)}
      />
      {ctx.tree.isPending || ctx.unbound.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : treeData.length ? (
        <Tree
          showIcon
          blockNode
          treeData={treeData}
          selectedKeys={selectedKeys}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys.map(String))}
          onSelect={(_, info) => {
            const node = byKey.get(String(info.node.key));
            if (node) ctx.select(nodeSelection(node));
          }}
          style={{ maxHeight: 'calc(100vh - 300px)', overflow: 'auto' }}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText(ctx, search, t)} />
      )}
    </Card>
  );
}
