import { Alert, Form, Modal, Radio, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlarmRules, useAlarmTemplates, useApplyMonitors } from '../../../api/alarms.ts';
import { notify } from '../../../lib/notify.ts';
import type { Target } from '../lib/targets.ts';
import { TargetPicker } from './TargetPicker.tsx';

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
  onApplied,
  onClose,
}: {
  applied: Applied | null;
  open?: boolean;
  /** After a successful apply, before onClose. */
  onApplied?: (created: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const apply = useApplyMonitors();
  const [type, setType] = useState<Applied['type']>('rule');
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [targets, setTargets] = useState<Target[]>([]);
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
          onApplied?.(created);
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
          <TargetPicker
            targets={targets}
            onChange={setTargets}
            categoryId={categoryId}
            disabled={chosenId === null}
            testId="apply"
          />
        </Form.Item>
        <Alert type="info" showIcon title={t('alarms.monitor.regionHint')} />
      </Form>
    </Modal>
  );
}
