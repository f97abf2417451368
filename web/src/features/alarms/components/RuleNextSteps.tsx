import type { AlarmRule } from '@kilowatch/contract';
import { Button, Modal, Space, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetAlarmRuleState } from '../../../api/alarms.ts';
import { notify } from '../../../lib/notify.ts';
import { ApplyMonitorsDialog } from './ApplyMonitorsDialog.tsx';

/**
 * What follows a new rule: it is saved disabled and watches nothing, so "创建成功" alone leaves
 * it inert. This guide walks create → apply to monitors → enable, each step a button, and
 * says what is still missing when it is closed early.
 */
export function RuleNextSteps({ rule, onClose }: { rule: AlarmRule; onClose: () => void }) {
  const { t } = useTranslation();
  const [applied, setApplied] = useState(rule.things > 0);
  const [enabled, setEnabled] = useState(rule.enabled);
  const [applying, setApplying] = useState(false);
  const setState = useSetAlarmRuleState();
  const current = !applied ? 1 : !enabled ? 2 : 3;

  const enable = () =>
    setState.mutate(
      { id: rule.id, enabled: true },
      {
        onSuccess: () => {
          setEnabled(true);
          notify.success(t('alarms.rule.enabledToast'));
        },
      },
    );

  return (
    <>
      <Modal
        open={!applying}
        title={t('alarms.guide.title', { name: rule.name })}
        onCancel={onClose}
        footer={
          <Space>
            <Button onClick={onClose} data-testid="rule-guide-close">
              {current === 3 ? t('alarms.guide.done') : t('alarms.guide.later')}
            </Button>
            {!applied && (
              <Button type="primary" onClick={() => setApplying(true)} data-testid="rule-guide-apply">
                {t('alarms.monitor.apply')}
              </Button>
            )}
            {applied && !enabled && (
              <Button
                type="primary"
                loading={setState.isPending}
                onClick={enable}
                data-testid="rule-guide-enable"
              >
                {t('alarms.guide.enable')}
              </Button>
            )}
          </Space>
        }
        data-testid="rule-guide"
      >
        <Steps
          orientation="vertical"
          size="small"
          current={current}
          items={[
            { title: t('alarms.guide.created'), description: t('alarms.guide.createdHelp') },
            { title: t('alarms.monitor.apply'), description: t('alarms.guide.applyHelp') },
            { title: t('alarms.guide.enable'), description: t('alarms.guide.enableHelp') },
          ]}
        />
        {current < 3 && (
          <Typography.Paragraph type="warning" style={{ marginBottom: 0 }}>
            {t('alarms.guide.inert')}
          </Typography.Paragraph>
        )}
      </Modal>
      <ApplyMonitorsDialog
        applied={
          applying ? { type: 'rule', id: rule.id, name: rule.name, categoryId: rule.categoryId } : null
        }
        onApplied={() => setApplied(true)}
        onClose={() => setApplying(false)}
      />
    </>
  );
}
