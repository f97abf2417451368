import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Form, Input, Modal, Radio, Select, Space, Spin, Tag, Tree } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmRules, useAlarmTemplates, useApplyMonitors } from '../../../api/alarms.ts';
import { regionTreeQuery, unboundThingsQuery } from '../../../api/regions.ts';
import { notify } from '../../../lib/notify.ts';
import {
  filterTargetNodes,
  indexTargets,
  type Target,
  type TargetNode,
  targetNodes,
  targetsOf,
} from '../lib/targets.ts';

/** What is applied: a rule or a template (its category narrows the tree to its devices). */
export interface Applied {
  type: 'rule' | 'template';
  id: number;
  name: string;
  categoryId: number | null;
}

/**
 * The apply-to-monitors dialog (spec §7): the rule or template, and the devices and regions it
 * watches, picked in the tree dialog; a region covers its descendants, devices added later too.
 * `applied` null with `open` lets the user choose the rule or template here.
 */
export function ApplyMonitorsDialog({
  applied,
  open = applied !== null,
  onClose,
}: {
  applied: Applied | null;
  open?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const apply = useApplyMonitors();
  const [type, setType] = useState<Applied['type']>('rule');
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [targets, setTargets] = useState<Target[]>([]);
  const [picking, setPicking] = useState(false);
  const rules = useAlarmRules({ page: 1, pageSize: 1000 });
  const templates = useAlarmTemplates({ page: 1, pageSize: 1000 });

  useEffect(() => {
    if (!open) return;
    setTargets([]);
    setType(applied?.type ?? 'rule');
    setChosenId(applied?.id ?? null);
  }, [open, applied]);

  const choices =
    type === 'rule'
      ? (rules.data?.list ?? []).map((r) => ({ value: r.id, label: r.name, categoryId: r.categoryId }))
      : (templates.data?.list ?? []).map((tpl) => ({
          value: tpl.id,
          label: tpl.name,
          categoryId: tpl.categoryId,
        }));
  const chosen = choices.find((c) => c.value === chosenId);
  const categoryId = applied?.categoryId ?? chosen?.categoryId ?? null;

  function submit() {
    if (chosenId === null || targets.length === 0) return;
    apply.mutate(
      {
        appliedType: type,
        appliedId: chosenId,
        targets: targets.map(({ type: tt, id }) => ({ type: tt, id })),
      },
      {
        onSuccess: ({ created }) => {
          notify.success(t('alarms.monitor.appliedToast', { count: created }));
          onClose();
        },
      },
    );
  }

  return (
    <Modal
      open={open}
      title={
        applied ? t('alarms.monitor.applyTitleOf', { name: applied.name }) : t('alarms.monitor.applyTitle')
      }
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: chosenId === null || targets.length === 0 }}
      confirmLoading={apply.isPending}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical">
        {!applied && (
          <>
            <Form.Item label={t('alarms.monitor.appliedType')}>
              <Radio.Group
                optionType="button"
                value={type}
                onChange={(e) => {
                  setType(e.target.value);
                  setChosenId(null);
                  setTargets([]);
                }}
                options={[
                  { value: 'rule', label: t('alarms.monitor.type.rule') },
                  { value: 'template', label: t('alarms.monitor.type.template') },
                ]}
              />
            </Form.Item>
            <Form.Item label={t(`alarms.monitor.type.${type}`)} required>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                value={chosenId}
                onChange={(v) => {
                  setChosenId(v);
                  setTargets([]);
                }}
                options={choices}
                aria-label={t(`alarms.monitor.type.${type}`)}
                data-testid="apply-choice"
              />
            </Form.Item>
          </>
        )}
        <Form.Item label={t('alarms.monitor.targets')} required>
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Button onClick={() => setPicking(true)} disabled={chosenId === null} data-testid="apply-pick">
              {t('alarms.monitor.pick')}
            </Button>
            {targets.length === 0 ? (
              <span style={{ color: 'rgba(0,0,0,0.6)' }}>{t('alarms.monitor.noTargets')}</span>
            ) : (
              <Space wrap size={4} data-testid="apply-targets">
                {targets.map((tg) => (
                  <Tag
                    key={`${tg.type}:${tg.id}`}
                    closable
                    onClose={() => setTargets((list) => list.filter((x) => x !== tg))}
                  >
                    {t(`alarms.resourceType.${tg.type}`)} · {tg.name}
                  </Tag>
                ))}
              </Space>
            )}
          </Space>
        </Form.Item>
        <Alert type="info" showIcon title={t('alarms.monitor.regionHint')} />
      </Form>
      <TargetTreeDialog
        open={picking}
        categoryId={categoryId}
        initial={targets}
        onClose={() => setPicking(false)}
        onPick={(picked) => {
          setTargets(picked);
          setPicking(false);
        }}
      />
    </Modal>
  );
}

const UNBOUND_KEY = 'unbound';

/** The tree dialog: regions with their devices of the category, plus devices in no region. */
export function TargetTreeDialog({
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
