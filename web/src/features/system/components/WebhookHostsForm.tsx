import { type SysConfig, WEBHOOK_ALLOWED_HOSTS_IDENTIFIER } from '@kilowatch/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { createSysConfig, updateSysConfig, useSysConfigByIdentifier } from '../../../api/system.ts';
import { notify } from '../../../lib/notify.ts';
import { ConfigSaveButtons } from './ConfigSaveButtons.tsx';

/**
 * `webhookAllowedHosts`: the plant's internal hosts alarm webhooks may reach. Loopback, link-local
 * and private addresses are refused unless listed here; the server checks each entry on save.
 */
export function WebhookHostsForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useSysConfigByIdentifier(WEBHOOK_ALLOWED_HOSTS_IDENTIFIER);
  // The edit over what is saved; null means "as saved".
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? config.data?.value ?? '';

  const save = useMutation({
    mutationFn: (existing: SysConfig | null) => {
      const input = {
        identifier: WEBHOOK_ALLOWED_HOSTS_IDENTIFIER,
        name: existing?.name || t('system.webhookHosts.configName'),
        value: value.trim(),
        description: existing?.description ?? '',
      };
      return existing ? updateSysConfig(existing.id, input) : createSysConfig(input);
    },
    onSuccess: async () => {
      setDraft(null);
      notify.success(t('toast.updated'));
      await queryClient.invalidateQueries({ queryKey: keys.sysconfigs.all });
    },
  });

  return (
    <Card title={t('system.webhookHosts.title')} data-testid="webhook-hosts-form">
      <Form layout="vertical" style={{ maxWidth: 560 }}>
        <Form.Item label={t('system.webhookHosts.label')} extra={t('system.webhookHosts.hint')}>
          <Input.TextArea
            rows={3}
            value={value}
            onChange={(e) => setDraft(e.target.value)}
            placeholder="scada.plant.local, 10.20.0.0/16"
            aria-label={t('system.webhookHosts.label')}
            data-testid="webhook-hosts"
          />
        </Form.Item>
        <ConfigSaveButtons
          config={config}
          saving={save.isPending}
          onSave={() => save.mutate(config.data ?? null)}
          testId="webhook-hosts-save"
        />
      </Form>
    </Card>
  );
}
