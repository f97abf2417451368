import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Input, Modal, Space, Spin, Tag, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { regionTreeQuery, unboundThingsQuery } from '../../../api/regions.ts';
import {
  filterTargetNodes,
  indexTargets,
  type Target,
  type TargetNode,
  targetNodes,
  targetsOf,
} from '../lib/targets.ts';

/**
 * The chosen devices and regions as closable tags, with the button that opens the tree dialog to
 * pick them: what applying monitors and planning maintenance both ask for.
 */
export function TargetPicker({
  targets,
  onChange,
  categoryId,
  disabled,
  testId,
}: {
  targets: readonly Target[];
  onChange: (targets: Target[]) => void;
  /** Only the devices of this category are offered; null offers all. */
  categoryId: number | null;
  disabled?: boolean;
  /** Prefix of the button's (`-pick`) and the tags' (`-targets`) test ids. */
  testId: string;
}) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Button onClick={() => setPicking(true)} disabled={disabled} data-testid={`${testId}-pick`}>
        {t('alarms.monitor.pick')}
      </Button>
      {targets.length === 0 ? (
        <span style={{ opacity: 0.65 }}>{t('alarms.monitor.noTargets')}</span>
      ) : (
        <Space wrap size={4} data-testid={`${testId}-targets`}>
          {targets.map((tg) => (
            <Tag
              key={`${tg.type}:${tg.id}`}
              closable
              onClose={() => onChange(targets.filter((x) => x !== tg))}
            >
              {t(`alarms.resourceType.${tg.type}`)} · {tg.name}
            </Tag>
          ))}
        </Space>
      )}
      <TargetTreeDialog
        open={picking}
        categoryId={categoryId}
        initial={targets}
        onClose={() => setPicking(false)}
        onPick={(picked) => {
          onChange(picked);
          setPicking(false);
        }}
      />
    </Space>
  );
}

const UNBOUND_KEY = 'unbound';

/** The tree dialog: regions with their devices of the category, plus devices in no region. */
function TargetTreeDialog({
  open,
  categoryId,
  initial,
  onClose,
  onPick,
}: {
  open: boolean;
  categoryId: number | null;
  initial: readonly Target[];
  onClose: () => void;
  onPick: (targets: Target[]) => void;
}) {
  const { t } = useTranslation();
  const tree = useQuery({ ...regionTreeQuery({ withThings: true, categoryId }), enabled: open });
  const unbound = useQuery({ ...unboundThingsQuery(categoryId), enabled: open });
  const nodes = useMemo<TargetNode[]>(() => {
    const regions = targetNodes(tree.data ?? []);
    const loose = (unbound.data ?? []).map(
      (th): TargetNode => ({
        key: `unbound:${th.id}`,
        title: th.name,
        target: { type: 'thing', id: th.id, name: th.name },
      }),
    );
    return loose.length
      ? [
          ...regions,
          {
            key: UNBOUND_KEY,
            title: t('alarms.monitor.unbound'),
            target: { type: 'region', id: 0, name: '' },
            children: loose,
          },
        ]
      : regions;
  }, [tree.data, unbound.data, t]);
  const byKey = useMemo(() => {
    const map = indexTargets(nodes);
    map.delete(UNBOUND_KEY);
    return map;
  }, [nodes]);
  const [checked, setChecked] = useState<string[]>([]);
  // A plant holds hundreds of devices: the search narrows the tree, checks made before stay.
  const [search, setSearch] = useState('');
  const shown = useMemo(() => filterTargetNodes(nodes, search), [nodes, search]);
  const shownKeys = useMemo(() => new Set(indexTargets(shown).keys()), [shown]);

  useEffect(() => {
    if (!open) return;
    setSearch('');
    const wanted = new Set(initial.map((tg) => `${tg.type}:${tg.id}`));
    setChecked([...byKey].filter(([, tg]) => wanted.has(`${tg.type}:${tg.id}`)).map(([key]) => key));
  }, [open, initial, byKey]);

  return (
    <Modal
      open={open}
      title={t('alarms.monitor.treeTitle')}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      onOk={() => onPick(targetsOf(checked, byKey))}
      onCancel={onClose}
      destroyOnHidden
    >
      {tree.isPending || unbound.isPending ? (
        <Spin style={{ display: 'block', margin: '32px auto' }} />
      ) : nodes.length === 0 ? (
        <Empty description={t('alarms.monitor.treeEmpty')} />
      ) : (
        <>
          <Input.Search
            allowClear
            placeholder={t('alarms.monitor.treeSearch')}
            aria-label={t('alarms.monitor.treeSearch')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            style={{ marginBottom: 12 }}
            data-testid="target-tree-search"
          />
          {shown.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.monitor.treeNoMatch')} />
          ) : (
            <Tree
              key={search}
              checkable
              checkStrictly
              defaultExpandAll
              height={400}
              treeData={
                shown.map(function strip(n): {
                  key: string;
                  title: string;
                  checkable?: boolean;
                  children?: unknown[];
                } {
                  return {
                    key: n.key,
                    title: n.title,
                    checkable: n.key !== UNBOUND_KEY,
                    children: n.children?.map(strip),
                  };
                }) as never
              }
              checkedKeys={checked}
              onCheck={(keys) => {
                const now = (Array.isArray(keys) ? keys : keys.checked).map(String);
                setChecked((before) => [...before.filter((k) => !shownKeys.has(k)), ...now]);
              }}
              data-testid="target-tree"
            />
          )}
        </>
      )}
    </Modal>
  );
}
