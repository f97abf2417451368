import { Alert, Button, Skeleton, Tree, type TreeDataNode } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useResources } from '../../../api/system.ts';
import { buildResourceTree, type ResourceNode } from '../lib/resource-tree.ts';

export interface GrantTreeProps {
  /** Granted resource paths. */
  value?: string[];
  onChange?(paths: string[]): void;
}

/**
 * The console routes a role grants, as a checkbox tree (a form control). Checking a parent checks
 * all its children; the value holds every checked path, parents included when all children are.
 */
export function GrantTree({ value, onChange }: GrantTreeProps) {
  const { t } = useTranslation();
  const resources = useResources();
  const treeData = useMemo(() => {
    const toNode = (r: ResourceNode): TreeDataNode => ({
      key: r.path,
      title: t(r.titleKey),
      children: r.children?.map(toNode),
    });
    return buildResourceTree(resources.data ?? []).map(toNode);
  }, [resources.data, t]);

  if (resources.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('system.role.resourcesFailed')}
        action={
          <Button size="small" onClick={() => resources.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  if (resources.isLoading) return <Skeleton active paragraph={{ rows: 4 }} />;
  return (
    <Tree
      checkable
      selectable={false}
      defaultExpandAll
      treeData={treeData}
      checkedKeys={value ?? []}
      onCheck={(checked) => {
        const keys = Array.isArray(checked) ? checked : checked.checked;
        onChange?.(keys.map(String));
      }}
      style={{ maxHeight: 320, overflow: 'auto' }}
      data-testid="grant-tree"
    />
  );
}
