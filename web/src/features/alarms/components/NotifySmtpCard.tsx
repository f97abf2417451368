import { SendOutlined } from '@ant-design/icons';
import { SMTP_SECURITY } from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Radio,
  Result,
  Space,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotifySmtp, useSaveNotifySmtp, useTestNotifySmtp } from '../../../api/alarms.ts';
import { validValues } from '../../../lib/form.ts';
import { notify } from '../../../lib/notify.ts';
import { EMAIL } from './notify-email.ts';

// ---- SMTP ---------------------------------------------------------------------------------------

interface SmtpValues {
  host: string;
  port: number;
  security: (typeof SMTP_SECURITY)[number];
  username: string;
  password: string;
  clearPassword: boolean;
  from: string;
}

export function NotifySmtpCard() {
  const { t } = useTranslation();
  const smtp = useNotifySmtp();
  const save = useSaveNotifySmtp();
  const test = useTestNotifySmtp();
  const [form] = Form.useForm<SmtpValues>();
  const [to, setTo] = useState('');
  const [result, setResult] = useState<{ ok: boolean; error: string | null } | null>(null);

  useEffect(() => {
    if (!smtp.data) return;
    const { passwordSet: _, ...rest } = smtp.data;
    form.setFieldsValue({ ...rest, password: '', clearPassword: false });
  }, [smtp.data, form]);

  async function submit() {
    const values = await validValues(form);
    if (!values) return;
    const { password, clearPassword, ...rest } = values;
    await save
      .mutateAsync({
        ...rest,
        host: rest.host.trim(),
        from: rest.from.trim(),
        // Left out keeps the stored password, an empty string clears it (write-only).
        ...(clearPassword ? { password: '' } : password ? { password } : {}),
      })
      .then(() => notify.success(t('toast.updated')))
      .catch(() => save.reset());
  }

  function sendTest() {
    setResult(null);
    test.mutate(to.trim(), { onSuccess: setResult });
  }

  if (smtp.isError && !smtp.data) {
    return (
      <Card title={t('alarms.notify.smtp.title')}>
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={smtp.error.message}
          extra={<Button onClick={() => smtp.refetch()}>{t('common.retry')}</Button>}
        />
      </Card>
    );
  }

  const passwordSet = smtp.data?.passwordSet ?? false;
  const toValid = EMAIL.test(to.trim());
  return (
    <Card title={t('alarms.notify.smtp.title')} loading={smtp.isPending} data-testid="notify-smtp">
      <Form form={form} layout="vertical" style={{ maxWidth: 640 }}>
        <Space.Compact block>
          <Form.Item
            name="host"
            label={t('alarms.notify.smtp.host')}
            style={{ flex: 1 }}
            extra={t('alarms.notify.smtp.hostHint')}
            rules={[{ max: 253, message: t('alarms.notify.tooLong', { max: 253 }) }]}
          >
            <Input placeholder="smtp.example.com" />
          </Form.Item>
          <Form.Item
            name="port"
            label={t('alarms.notify.smtp.port')}
            style={{ width: 140, marginLeft: 12 }}
            rules={[{ required: true, message: t('alarms.notify.smtp.portRequired') }]}
          >
            <InputNumber min={1} max={65_535} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="security" label={t('alarms.notify.smtp.security')}>
          <Radio.Group
            optionType="button"
            options={SMTP_SECURITY.map((s) => ({ value: s, label: t(`alarms.notify.smtp.securities.${s}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="from"
          label={t('alarms.notify.smtp.from')}
          rules={[
            {
              validator: async (_, v: string) => {
                if (v?.trim() && !EMAIL.test(v.trim())) throw new Error(t('alarms.notify.emailInvalid'));
              },
            },
          ]}
        >
          <Input placeholder="kilowatch@example.com" />
        </Form.Item>
        <Space.Compact block>
          <Form.Item name="username" label={t('alarms.notify.smtp.username')} style={{ flex: 1 }}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('alarms.notify.smtp.password')}
            style={{ flex: 1, marginLeft: 12 }}
            extra={passwordSet ? t('alarms.notify.secretKept') : undefined}
          >
            <Input.Password
              autoComplete="new-password"
              placeholder={passwordSet ? t('alarms.notify.secretSetPlaceholder') : undefined}
            />
          </Form.Item>
        </Space.Compact>
        {passwordSet && (
          <Form.Item name="clearPassword" valuePropName="checked">
            <Checkbox>{t('alarms.notify.smtp.clearPassword')}</Checkbox>
          </Form.Item>
        )}
        <Button type="primary" onClick={() => void submit()} loading={save.isPending} data-testid="smtp-save">
          {t('alarms.notify.save')}
        </Button>
      </Form>
      {/* Not a heading: the card titles above are not headings either, so an h5 would skip levels. */}
      <Typography.Text strong style={{ display: 'block', margin: '24px 0 8px' }}>
        {t('alarms.notify.smtp.testTitle')}
      </Typography.Text>
      <Space.Compact style={{ maxWidth: 640, width: '100%' }}>
        <Input
          value={to}
          onChange={(e) => setTo(e.target.value)}
          placeholder={t('alarms.notify.smtp.testTo')}
          aria-label={t('alarms.notify.smtp.testTo')}
          status={to.trim() && !toValid ? 'error' : undefined}
          data-testid="smtp-test-to"
        />
        <Button
          icon={<SendOutlined />}
          onClick={sendTest}
          loading={test.isPending}
          disabled={!toValid}
          data-testid="smtp-test"
        >
          {t('alarms.notify.sendTest')}
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('alarms.notify.smtp.testHint')}
      </Typography.Paragraph>
      {result && <TestResult result={result} />}
    </Card>
  );
}

function TestResult({ result }: { result: { ok: boolean; error: string | null } }) {
  const { t } = useTranslation();
  return (
    <Alert
      type={result.ok ? 'success' : 'error'}
      showIcon
      title={result.ok ? t('alarms.notify.testOk') : t('alarms.notify.testFailed')}
      description={result.error ?? undefined}
      data-testid="notify-test-result"
    />
  );
}
