import { NOTIFY_CHANNELS, NOTIFY_EVENTS, type NotifyRoute, SEVERITIES } from '@kilowatch/contract';
import { Checkbox, Form, Input, InputNumber, Modal, Radio, Select, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveNotifyRoute } from '../../../api/alarms.ts';
import { validValues } from '../../../lib/form.ts';
import { notify } from '../../../lib/notify.ts';
import { EMAIL } from './notify-email.ts';

interface RouteValues {
  name: string;
  channel: NotifyRoute['channel'];
  severities: NotifyRoute['severities'];
  events: NotifyRoute['events'];
  url: string;
  secret: string;
  clearSecret: boolean;
  timeoutS: number;
  recipients: string[];
  enabled: boolean;
}

const DEFAULT_TIMEOUT_S = 10;

export function NotifyRouteDialog({
  editing,
  onClose,
}: {
  editing: { route: NotifyRoute | null } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveNotifyRoute();
  const [form] = Form.useForm<RouteValues>();
  const channel = Form.useWatch('channel', form);
  const route = editing?.route ?? null;

  const initial = (): RouteValues => ({
    name: route?.name ?? '',
    channel: route?.channel ?? 'webhook',
    severities: route?.severities ?? [...SEVERITIES],
    events: route?.events ?? ['raise'],
    url: route?.url ?? '',
    secret: '',
    clearSecret: false,
    timeoutS: route ? route.timeoutMs / 1000 : DEFAULT_TIMEOUT_S,
    recipients: route?.recipients ?? [],
    enabled: route?.enabled ?? true,
  });

  async function submit() {
    // Only the shown channel's fields: a webhook URL left empty must not stop an e-mail channel.
    const webhook = form.getFieldValue('channel') === 'webhook';
    const fields: (keyof RouteValues)[] = webhook
      ? ['name', 'url', 'secret', 'timeoutS', 'severities', 'events']
      : ['name', 'recipients', 'severities', 'events'];
    if (!(await validValues(form, fields))) return;
    const v: RouteValues = { ...initial(), ...form.getFieldsValue(true) };
    await save
      .mutateAsync({
        id: route?.id ?? null,
        input: {
          name: v.name.trim(),
          channel: v.channel,
          severities: v.severities,
          events: v.events,
          enabled: v.enabled,
          ...(webhook
            ? {
                url: v.url.trim(),
                timeoutMs: Math.round(v.timeoutS * 1000),
                // Left out keeps the stored secret, an empty string clears it (write-only).
                ...(v.clearSecret ? { secret: '' } : v.secret ? { secret: v.secret } : {}),
              }
            : { recipients: v.recipients.map((r) => r.trim()) }),
        },
      })
      .then(() => {
        notify.success(t(route ? 'toast.updated' : 'toast.created'));
        onClose();
      })
      .catch(() => save.reset());
  }

  return (
    <Modal
      open={editing !== null}
      title={t(route ? 'alarms.notify.route.editTitle' : 'alarms.notify.route.addTitle')}
      okText={t('alarms.notify.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      width={600}
    >
      <Form form={form} layout="vertical" initialValues={initial()} preserve={false}>
        <Form.Item
          name="name"
          label={t('alarms.notify.route.name')}
          rules={[
            { required: true, whitespace: true, message: t('alarms.notify.route.nameRequired') },
            { max: 64, message: t('alarms.notify.tooLong', { max: 64 }) },
          ]}
        >
          <Input data-testid="notify-route-name" />
        </Form.Item>
        <Form.Item name="channel" label={t('alarms.notify.route.channel')}>
          <Radio.Group
            optionType="button"
            options={NOTIFY_CHANNELS.map((c) => ({ value: c, label: t(`alarms.notify.channels.${c}`) }))}
          />
        </Form.Item>
        {/* Both channels' fields stay mounted (hidden), so a switch never leaves a stale field behind. */}
        <div hidden={channel === 'email'}>
          <Form.Item
            name="url"
            label={t('alarms.notify.route.url')}
            rules={[
              { required: true, whitespace: true, message: t('alarms.notify.route.urlRequired') },
              { pattern: /^https?:\/\//, message: t('alarms.notify.route.urlInvalid') },
              { max: 2048, message: t('alarms.notify.tooLong', { max: 2048 }) },
            ]}
          >
            <Input placeholder="https://" data-testid="notify-route-url" />
          </Form.Item>
          <Space.Compact block>
            <Form.Item
              name="secret"
              label={t('alarms.notify.route.secret')}
              style={{ flex: 1 }}
              extra={route?.secretSet ? t('alarms.notify.secretKept') : t('alarms.notify.route.secretHint')}
              rules={[{ max: 256, message: t('alarms.notify.tooLong', { max: 256 }) }]}
            >
              <Input.Password
                autoComplete="new-password"
                placeholder={route?.secretSet ? t('alarms.notify.secretSetPlaceholder') : undefined}
              />
            </Form.Item>
            <Form.Item
              name="timeoutS"
              label={t('alarms.notify.route.timeout')}
              style={{ width: 160, marginLeft: 12 }}
              rules={[{ required: true, message: t('alarms.notify.route.timeoutRange') }]}
            >
              <InputNumber min={0.5} max={60} step={0.5} style={{ width: '100%' }} />
            </Form.Item>
          </Space.Compact>
          {route?.secretSet && (
            <Form.Item name="clearSecret" valuePropName="checked">
              <Checkbox>{t('alarms.notify.route.clearSecret')}</Checkbox>
            </Form.Item>
          )}
        </div>
        <div hidden={channel !== 'email'}>
          <Form.Item
            name="recipients"
            label={t('alarms.notify.route.recipients')}
            extra={t('alarms.notify.route.recipientsHint')}
            rules={[
              {
                required: true,
                validator: async (_, list: string[] = []) => {
                  if (list.length === 0) throw new Error(t('alarms.notify.route.recipientsRequired'));
                  const bad = list.find((r) => !EMAIL.test(r.trim()));
                  if (bad) throw new Error(t('alarms.notify.emailInvalidOne', { address: bad }));
                  if (list.length > 50) throw new Error(t('alarms.notify.route.recipientsMax', { max: 50 }));
                },
              },
            ]}
          >
            <Select mode="tags" open={false} tokenSeparators={[',', ';', ' ']} suffixIcon={null} />
          </Form.Item>
        </div>
        <Form.Item
          name="severities"
          label={t('alarms.notify.route.severities')}
          rules={[
            { required: true, type: 'array', min: 1, message: t('alarms.notify.route.severitiesRequired') },
          ]}
        >
          <Checkbox.Group options={SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severity.${s}`) }))} />
        </Form.Item>
        <Form.Item
          name="events"
          label={t('alarms.notify.route.events')}
          rules={[
            { required: true, type: 'array', min: 1, message: t('alarms.notify.route.eventsRequired') },
          ]}
        >
          <Checkbox.Group
            options={NOTIFY_EVENTS.map((e) => ({ value: e, label: t(`alarms.notify.events.${e}`) }))}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('alarms.notify.route.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
