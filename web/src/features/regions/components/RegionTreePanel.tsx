import { DeleteOutlined, EditOutlined, MoreOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { REGION_MAX_DEPTH, type RegionNode } from '@kilowatch/contract';
import {
  Button,
  Card,
  Dropdown,
  Empty,
  Flex,
  Result,
  Skeleton,
  Tooltip,
  Tree,
  type TreeDataNode,
  type TreeProps,
  Typography,
} from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteRegion, useRegionTree, useReorderRegions } from '../../../api/regions.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { notify } from '../../../lib/notify.ts';
import { useAbilities } from '../abilities.ts';
import { computeRegionOrder, type DropPlacement, placementFromAntd } from '../lib/tree-drop.ts';
import { type RegionDialog, RegionFormModal } from './RegionFormModal.tsx';

interface RegionTreeNode extends TreeDataNode {
  region: RegionNode;
  children?: RegionTreeNode[];
}

const toTreeData = (nodes: RegionNode[]): RegionTreeNode[] =>
  nodes.map((n) => ({
    key: n.id,
    title: n.name,
    region: n,
    children: n.children.length ? toTreeData(n.children) : undefined,
  }));

const parentIds = (nodes: RegionNode[]): number[] =>
  nodes.flatMap((n) => (n.children.length ? [n.id, ...parentIds(n.children)] : []));

/** antd's allowDrop position: -1 before, 0 inside, 1 after. */
const PLACEMENTS: Record<number, DropPlacement> = { [-1]: 'before', 0: 'inside', 1: 'after' };

/** The region tree; editors also add, rename, delete and drag regions. */
export function RegionTreePanel({
  selectedId,
  onSelect,
}: {
  selectedId: number | null;
  onSelect(region: RegionNode | null): void;
}) {
  const { t } = useTranslation();
  const askDelete = useConfirmDelete();
  const { canEditRegions } = useAbilities();
  const tree = useRegionTree();
  const reorder = useReorderRegions();
  const remove = useDeleteRegion();
  const [dialog, setDialog] = useState<RegionDialog | null>(null);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());

  const nodes = tree.data ?? [];
  const treeData = useMemo(() => toTreeData(tree.data ?? []), [tree.data]);
  const expandedKeys = useMemo(
    () => parentIds(tree.data ?? []).filter((id) => !collapsed.has(id)),
    [tree.data, collapsed],
  );

  const expand = (id: number | null) =>
    id != null &&
    setCollapsed((prev) => {
      const next = new Set(prev);
      next.delete(id);
      return next;
    });

  const confirmDelete = (region: RegionNode) =>
    askDelete({
      content: t('regions.tree.deleteConfirm', { name: region.name }),
      onDelete: () =>
        remove.mutateAsync(region.id).then(() => {
          if (region.id === selectedId) onSelect(null);
        }),
    });

  const onDrop: TreeProps<RegionTreeNode>['onDrop'] = (info) => {
    const result = computeRegionOrder(
      nodes,
      Number(info.dragNode.key),
      Number(info.node.key),
      placementFromAntd({ dropToGap: info.dropToGap, dropPosition: info.dropPosition, pos: info.node.pos }),
    );
    if (!result.ok) {
      if (result.reason !== 'unchanged') {
        notify.warning(t(`regions.tree.refused.${result.reason}`, { max: REGION_MAX_DEPTH }));
      }
      return;
    }
    expand(result.parentId);
    reorder.mutate(result.order, { onSuccess: () => notify.success(t('toast.done')) });
  };

  const allowDrop: TreeProps<RegionTreeNode>['allowDrop'] = ({ dragNode, dropNode, dropPosition }) => {
    const placement = PLACEMENTS[dropPosition];
    if (!placement) return false;
    const result = computeRegionOrder(nodes, Number(dragNode.key), Number(dropNode.key), placement);
    return result.ok || result.reason === 'unchanged';
  };

  const nodeActions = (region: RegionNode) => (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'add', icon: <PlusOutlined />, label: t('regions.tree.addChild') },
          { key: 'rename', icon: <EditOutlined />, label: t('regions.tree.rename') },
          { key: 'delete', icon: <DeleteOutlined />, label: t('regions.tree.delete'), danger: true },
        ],
        onClick: ({ key, domEvent }) => {
          domEvent.stopPropagation();
          if (key === 'add') setDialog({ mode: 'create', parent: region });
          else if (key === 'rename') setDialog({ mode: 'edit', node: region });
          else confirmDelete(region);
        },
      }}
    >
      <Button
        size="small"
        type="text"
        icon={<MoreOutlined />}
        aria-label={t('regions.tree.more')}
        data-testid={`region-actions-${region.id}`}
        onClick={(e) => e.stopPropagation()}
      />
    </Dropdown>
  );

  let body: ReactNode;
  if (tree.isLoading) body = <Skeleton active />;
  else if (tree.isError && !tree.data) {
    body = (
      <Result
        status="error"
        title={t('regions.tree.loadFailed')}
        subTitle={tree.error.message}
        extra={<Button onClick={() => tree.refetch()}>{t('common.retry')}</Button>}
      />
    );
  } else if (nodes.length === 0) {
    body = (
      <Empty description={t(canEditRegions ? 'regions.tree.empty' : 'regions.tree.emptyReadOnly')}>
        {canEditRegions && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setDialog({ mode: 'create', parent: null })}
          >
            {t('regions.tree.addFirst')}
          </Button>
        )}
      </Empty>
    );
  } else {
    body = (
      <>
        {canEditRegions && (
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {t('regions.tree.dragHint')}
          </Typography.Paragraph>
        )}
        <Tree<RegionTreeNode>
          blockNode
          showLine
          treeData={treeData}
          expandedKeys={expandedKeys}
          onExpand={(_keys, { expanded, node }) =>
            setCollapsed((prev) => {
              const next = new Set(prev);
              if (expanded) next.delete(Number(node.key));
              else next.add(Number(node.key));
              return next;
            })
          }
          selectedKeys={selectedId == null ? [] : [selectedId]}
          onSelect={(_keys, { node, selected }) => onSelect(selected ? node.region : null)}
          draggable={canEditRegions ? { icon: false } : false}
          allowDrop={allowDrop}
          onDrop={onDrop}
          titleRender={(node) => (
            <Flex
              align="center"
              justify="space-between"
              gap={4}
              data-testid={`region-node-${node.region.id}`}
            >
              <Typography.Text ellipsis>{node.region.name}</Typography.Text>
              {canEditRegions && nodeActions(node.region)}
            </Flex>
          )}
          data-testid="region-tree"
        />
      </>
    );
  }

  return (
    <Card
      title={t('regions.tree.title')}
      extra={
        <Flex gap={4}>
          {canEditRegions && (
            <Tooltip title={t('regions.tree.addRoot')}>
              <Button
                size="small"
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ mode: 'create', parent: null })}
                data-testid="region-add-root"
              >
                {t('regions.tree.addRoot')}
              </Button>
            </Tooltip>
          )}
          <Button
            size="small"
            icon={<ReloadOutlined />}
            aria-label={t('tabs.refresh')}
            onClick={() => tree.refetch()}
          />
        </Flex>
      }
      style={{ height: '100%' }}
    >
      {body}
      <RegionFormModal dialog={dialog} onClose={() => setDialog(null)} onCreated={expand} />
    </Card>
  );
}
