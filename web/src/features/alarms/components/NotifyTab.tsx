import { DeleteOutlined, EditOutlined, PlusOutlined, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import {
  NOTIFY_CHANNELS,
  NOTIFY_EVENTS,
  type NotifyOutboxItem,
  type NotifyRoute,
  OUTBOX_STATUSES,
  SEVERITIES,
  SMTP_SECURITY,
} from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Result,
  Segmented,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useDeleteNotifyRoute,
  useNotifyOutbox,
  useNotifyRoutes,
  useNotifySmtp,
  useSaveNotifyRoute,
  useSaveNotifySmtp,
  useTestNotifyRoute,
  useTestNotifySmtp,
} from '../../../api/alarms.ts';
import { useConfirmDelete } from '../../../components/crud/confirm-delete.tsx';
import { validValues } from '../../../lib/form.ts';
import { notify } from '../../../lib/notify.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { isAdmin, useSession } from '../../../lib/session.ts';
import { HISTORY_PATH, useAlarmAbilities } from '../abilities.ts';
import { SeverityTag } from './tags.tsx';

/** The address check of the contract (SmtpSettings.from, NotifyRouteInput.recipients). */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Notification settings (docs/alarms.md, Notifications): the SMTP server, the routes sending
 * alarms of chosen severities and events to a webhook or by e-mail, and the outbox of what was,
 * is being, or could not be delivered. All of it needs the alarm_rule grant, reads included; the
 * SMTP server only admins set and test (the server refuses others: a test connects where told).
 */
export function NotifyTab() {
  const { t } = useTranslation();
  const { canEditRules } = useAlarmAbilities();
  const admin = useSession((s) => isAdmin(s.roles));
  if (!canEditRules) return <Result status="403" subTitle={t('alarms.notify.forbidden')} />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <RoutesCard />
      <OutboxCard />
      {admin && <SmtpCard />}
    </Space>
  );
}

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

function SmtpCard() {
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

// ---- routes -------------------------------------------------------------------------------------

function RoutesCard() {
  const { t } = useTranslation();
  const routes = useNotifyRoutes();
  const remove = useDeleteNotifyRoute();
  const test = useTestNotifyRoute();
  const confirmDelete = useConfirmDelete();
  const [editing, setEditing] = useState<{ route: NotifyRoute | null } | null>(null);
  const [tested, setTested] = useState<{ name: string; ok: boolean; error: string | null } | null>(null);

  const runTest = (r: NotifyRoute) =>
    test.mutate(r.id, { onSuccess: (result) => setTested({ name: r.name, ...result }) });

  const columns: TableColumnsType<NotifyRoute> = [
    { title: t('alarms.notify.route.name'), dataIndex: 'name' },
    {
      title: t('alarms.notify.route.channel'),
      dataIndex: 'channel',
      render: (c: NotifyRoute['channel']) => <Tag>{t(`alarms.notify.channels.${c}`)}</Tag>,
    },
    {
      title: t('alarms.notify.route.destination'),
      key: 'destination',
      render: (_, r) => (
        <Typography.Text style={{ maxWidth: 320 }} ellipsis={{ tooltip: true }}>
          {r.channel === 'webhook' ? r.url : r.recipients.join(', ')}
        </Typography.Text>
      ),
    },
    {
      title: t('alarms.notify.route.severities'),
      dataIndex: 'severities',
      render: (list: NotifyRoute['severities']) => (
        <Space size={2} wrap>
          {list.map((s) => (
            <SeverityTag key={s} severity={s} />
          ))}
        </Space>
      ),
    },
    {
      title: t('alarms.notify.route.events'),
      dataIndex: 'events',
      render: (list: NotifyRoute['events']) => list.map((e) => t(`alarms.notify.events.${e}`)).join(' · '),
    },
    {
      title: t('alarms.notify.route.enabled'),
      dataIndex: 'enabled',
      render: (on: boolean) => (
        <Tag color={on ? 'green' : 'default'}>{t(on ? 'alarms.notify.on' : 'alarms.notify.off')}</Tag>
      ),
    },
    {
      title: t('crud.actions'),
      key: 'actions',
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (_, r) => (
        <Space size={4} wrap={false}>
          <Button
            size="small"
            type="link"
            icon={<SendOutlined />}
            loading={test.isPending && test.variables === r.id}
            onClick={() => runTest(r)}
          >
            {t('alarms.notify.sendTest')}
          </Button>
          <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setEditing({ route: r })}>
            {t('crud.edit')}
          </Button>
          <Button
            size="small"
            type="link"
            danger
            icon={<DeleteOutlined />}
            onClick={() =>
              confirmDelete({
                content: t('alarms.notify.route.deleteConfirm', { name: r.name }),
                onDelete: () => remove.mutateAsync(r.id),
              })
            }
          >
            {t('crud.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={t('alarms.notify.route.title')}
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing({ route: null })}
          data-testid="notify-route-create"
        >
          {t('alarms.notify.route.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('alarms.notify.route.hint')}</Typography.Paragraph>
      {tested && (
        <div style={{ marginBottom: 16 }}>
          <Alert
            type={tested.ok ? 'success' : 'error'}
            showIcon
            closable={{ onClose: () => setTested(null) }}
            title={t(tested.ok ? 'alarms.notify.route.testOk' : 'alarms.notify.route.testFailed', {
              name: tested.name,
            })}
            description={tested.error ?? undefined}
            data-testid="notify-test-result"
          />
        </div>
      )}
      {routes.isError && !routes.data ? (
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={routes.error.message}
          extra={<Button onClick={() => routes.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<NotifyRoute>
          rowKey="id"
          loading={routes.isFetching}
          dataSource={routes.data ?? []}
          columns={columns}
          pagination={false}
          scroll={{ x: 'max-content' }}
          data-testid="notify-routes"
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.notify.route.empty')} />
            ),
          }}
        />
      )}
      <RouteDialog editing={editing} onClose={() => setEditing(null)} />
    </Card>
  );
}

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

function RouteDialog({
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

// ---- outbox -------------------------------------------------------------------------------------

function OutboxCard() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [status, setStatus] = useState<NotifyOutboxItem['status'] | 'all'>('all');
  const [page, setPage] = useState({ page: 1, pageSize: 10 });
  const outbox = useNotifyOutbox({ ...page, status: status === 'all' ? undefined : status });
  const routes = useNotifyRoutes();
  const time = (iso: string | null) => (iso ? calendar.format(Date.parse(iso), 'YYYY-MM-DD HH:mm:ss') : '—');
  const routeName = (id: number) => routes.data?.find((r) => r.id === id)?.name ?? `#${id}`;
  const STATUS_COLOR = { pending: 'blue', sent: 'green', failed: 'red' } as const;

  const columns: TableColumnsType<NotifyOutboxItem> = [
    { title: t('alarms.notify.outbox.createdAt'), dataIndex: 'createdAt', render: time },
    {
      title: t('alarms.notify.outbox.alarm'),
      dataIndex: 'alarmId',
      render: (id: number) => <Link to={`${HISTORY_PATH}?id=${id}`}>#{id}</Link>,
    },
    { title: t('alarms.notify.outbox.route'), dataIndex: 'routeId', render: routeName },
    {
      title: t('alarms.notify.route.events'),
      dataIndex: 'event',
      render: (e: NotifyOutboxItem['event']) => t(`alarms.notify.events.${e}`),
    },
    {
      title: t('alarms.notify.outbox.status'),
      dataIndex: 'status',
      render: (s: NotifyOutboxItem['status']) => (
        <Tag color={STATUS_COLOR[s]}>{t(`alarms.notify.outbox.statuses.${s}`)}</Tag>
      ),
    },
    { title: t('alarms.notify.outbox.attempts'), dataIndex: 'attempts' },
    {
      title: t('alarms.notify.outbox.next'),
      key: 'next',
      render: (_, o) => (o.status === 'pending' ? time(o.nextAttemptAt) : '—'),
    },
    { title: t('alarms.notify.outbox.sentAt'), dataIndex: 'sentAt', render: time },
    {
      title: t('alarms.notify.outbox.lastError'),
      dataIndex: 'lastError',
      render: (e: string) =>
        e ? (
          <Typography.Text type="danger" style={{ maxWidth: 360 }} ellipsis={{ tooltip: e }}>
            {e}
          </Typography.Text>
        ) : (
          '—'
        ),
    },
  ];

  return (
    <Card
      title={t('alarms.notify.outbox.title')}
      extra={
        <Space>
          <Segmented<NotifyOutboxItem['status'] | 'all'>
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage((p) => ({ ...p, page: 1 }));
            }}
            options={[
              { value: 'all', label: t('alarms.notify.outbox.all') },
              ...OUTBOX_STATUSES.map((s) => ({ value: s, label: t(`alarms.notify.outbox.statuses.${s}`) })),
            ]}
          />
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('alarms.history.refresh')}
            onClick={() => outbox.refetch()}
          />
        </Space>
      }
    >
      {outbox.isError && !outbox.data ? (
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={outbox.error.message}
          extra={<Button onClick={() => outbox.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<NotifyOutboxItem>
          rowKey="id"
          loading={outbox.isFetching}
          dataSource={outbox.data?.list ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          data-testid="notify-outbox"
          locale={{
            emptyText: (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.notify.outbox.empty')} />
            ),
          }}
          pagination={{
            current: page.page,
            pageSize: page.pageSize,
            total: outbox.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('crud.total', { total }),
            onChange: (p, pageSize) => setPage({ page: pageSize === page.pageSize ? p : 1, pageSize }),
          }}
        />
      )}
    </Card>
  );
}
