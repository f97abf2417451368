import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { ALARM_STATE, type AlarmHistoryItem, type AlarmStateCode, SEVERITIES } from '@kilowatch/contract';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Form,
  Input,
  InputNumber,
  Result,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAlarmHistory, useAlarmHistory } from '../../../api/alarms.ts';
import { useExport } from '../../../components/charts/export/ExportMenu.tsx';
import type { Sheet } from '../../../components/charts/export/sheet.ts';
import { alarmValueText } from '../../../lib/alarm-value.ts';
import {
  formatPlantTime as formatTime,
  fromPicker,
  toPicker,
  usePlantCalendar,
} from '../../../lib/plant-calendar.ts';
import { useSearchPatch } from '../../../lib/search-patch.ts';
import { HISTORY_PAGE_SIZE, historyQueryOf } from '../lib/history-params.ts';
import { AlarmDetailDrawer } from './AlarmDetailDrawer.tsx';
import { SeverityTag, STATE_NAMES, StateTag } from './tags.tsx';

interface FilterValues {
  name?: string;
  templateName?: string;
  alarmId?: number | null;
  ruleId?: number | null;
  state?: number;
  severity?: string;
  range?: [Dayjs, Dayjs] | null;
}

/** More rows than an operator reads; the filters narrow a larger export. */
const EXPORT_MAX = 10_000;

type T = (key: string, options?: Record<string, unknown>) => string;

const ms = (iso: string | null) => (iso ? Date.parse(iso) : null);

/** The filtered alarms as an export sheet: labels in the user's language, times as instants. */
export function historySheet(rows: readonly AlarmHistoryItem[], t: T): Sheet {
  const text = (header: string) => ({ header: t(header), kind: 'text' as const });
  const time = (header: string) => ({ header: t(header), kind: 'time' as const });
  return {
    title: t('alarms.history.title'),
    columns: [
      { header: t('alarms.history.id'), kind: 'number' },
      text('alarms.history.resource'),
      text('alarms.detail.thing'),
      text('alarms.history.rule'),
      text('alarms.history.template'),
      text('alarms.history.severity'),
      text('alarms.history.state'),
      text('alarms.history.value'),
      text('alarms.detail.message'),
      time('alarms.history.alarmAt'),
      time('alarms.history.returnedAt'),
    ],
    rows: rows.map((a) => [
      a.id,
      `${t(`alarms.resourceType.${a.resourceType}`)} · ${a.resourceName}`,
      a.thingName,
      a.ruleName,
      a.templateName,
      t(`alarms.severity.${a.severity}`),
      t(`alarms.state.${STATE_NAMES[a.state as AlarmStateCode] ?? 'normal'}`),
      alarmValueText(a),
      a.message,
      ms(a.alarmAt),
      ms(a.returnedAt),
    ]),
  };
}

/** The alarm history (spec §3, §7): filters in the address, `?id=` opens one alarm's detail. */
export function AlarmHistoryScreen() {
  const { t } = useTranslation();
  const [search, patchSearch] = useSearchPatch();
  const query = historyQueryOf(search);
  const history = useAlarmHistory(query);
  const [form] = Form.useForm<FilterValues>();
  const openId = Number(search.get('id')) || null;
  const exported = useRef<Sheet | null>(null);
  const [exporting, setExporting] = useState(false);
  const runExport = useExport({ title: t('alarms.history.title'), sheet: () => exported.current! });

  /** Every alarm the filters match (pages of 1000, at most EXPORT_MAX), as an xlsx file. */
  async function exportXlsx() {
    setExporting(true);
    try {
      const rows: AlarmHistoryItem[] = [];
      for (let page = 1; rows.length < EXPORT_MAX; page++) {
        const answer = await getAlarmHistory({ ...query, page, pageSize: 1000 }, false);
        rows.push(...answer.list);
        if (!answer.hasNextPage) break;
      }
      exported.current = historySheet(rows, t);
      await runExport('xlsx');
    } finally {
      setExporting(false);
    }
  }

  const update = patchSearch;

  // The form shows what the address says (a bell link, back and forward).
  const calendar = usePlantCalendar();
  const searchKey = search.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address is the trigger
  useEffect(() => {
    form.setFieldsValue({
      name: query.name,
      templateName: query.templateName,
      alarmId: query.id ?? null,
      ruleId: query.ruleId ?? null,
      state: query.state,
      severity: query.severity,
      range:
        query.start && query.end ? [toPicker(calendar, query.start), toPicker(calendar, query.end)] : null,
    });
  }, [searchKey]);

  const apply = (v: FilterValues) =>
    update({
      name: v.name?.trim(),
      templateName: v.templateName?.trim(),
      alarmId: v.alarmId,
      ruleId: v.ruleId,
      state: v.state,
      severity: v.severity,
      start: v.range?.[0] ? fromPicker(calendar, v.range[0]) : undefined,
      end: v.range?.[1] ? fromPicker(calendar, v.range[1]) : undefined,
      page: 1,
    });

  const columns: TableColumnsType<AlarmHistoryItem> = [
    { title: t('alarms.history.id'), dataIndex: 'id', width: 80 },
    {
      title: t('alarms.history.resource'),
      key: 'resource',
      render: (_, a) => (
        <Space size={4}>
          <Tag>{t(`alarms.resourceType.${a.resourceType}`)}</Tag>
          {a.resourceName}
          {a.resourceType === 'region' && a.thingName && (
            <span style={{ color: 'rgba(0,0,0,0.6)' }}>/ {a.thingName}</span>
          )}
        </Space>
      ),
    },
    { title: t('alarms.history.rule'), dataIndex: 'ruleName' },
    { title: t('alarms.history.template'), dataIndex: 'templateName', render: (v: string) => v || '—' },
    {
      title: t('alarms.history.severity'),
      dataIndex: 'severity',
      render: (s) => <SeverityTag severity={s} />,
    },
    {
      title: t('alarms.history.state'),
      key: 'state',
      render: (_, a) => (
        <Space size={2}>
          <StateTag state={a.state} />
          {a.chattering && (
            <Tooltip title={t('alarms.history.chatteringHint', { count: a.occurrences })}>
              <Tag color="magenta">{t('alarms.history.chattering')}</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: t('alarms.history.value'), key: 'value', render: (_, a) => alarmValueText(a) },
    { title: t('alarms.history.alarmAt'), dataIndex: 'alarmAt', render: formatTime },
    { title: t('alarms.history.returnedAt'), dataIndex: 'returnedAt', render: (v) => formatTime(v) || '—' },
    {
      title: t('alarms.history.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, a) => (
        <Button size="small" type="link" onClick={() => update({ id: a.id })} data-testid="alarm-open">
          {t('alarms.history.detail')}
        </Button>
      ),
    },
  ];

  return (
    <Card title={t('alarms.history.title')}>
      <Form<FilterValues> form={form} layout="inline" onFinish={apply} style={{ rowGap: 12 }}>
        <Form.Item name="name" label={t('alarms.history.name')}>
          <Input allowClear placeholder={t('alarms.history.namePlaceholder')} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="templateName" label={t('alarms.history.template')}>
          <Input allowClear style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="alarmId" label={t('alarms.history.id')}>
          <InputNumber min={1} precision={0} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="ruleId" label={t('alarms.history.ruleId')}>
          <InputNumber min={1} precision={0} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="state" label={t('alarms.history.state')}>
          <Select
            allowClear
            style={{ width: 170 }}
            data-testid="alarm-state-filter"
            options={Object.entries(ALARM_STATE).map(([name, code]) => ({
              value: code,
              label: t(`alarms.state.${name}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="severity" label={t('alarms.history.severity')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={SEVERITIES.map((s) => ({ value: s, label: t(`alarms.severity.${s}`) }))}
          />
        </Form.Item>
        {query.thingId !== undefined && (
          <Form.Item label={t('alarms.detail.thing')}>
            <Tag
              closable
              onClose={() => update({ thingId: undefined, page: 1 })}
              data-testid="alarm-thing-filter"
            >
              {history.data?.list[0]?.thingName ?? `#${query.thingId}`}
            </Tag>
          </Form.Item>
        )}
        {/* At phone width the range shrinks to the screen instead of running off it. */}
        <Form.Item name="range" label={t('alarms.history.range')} style={{ maxWidth: '100%' }}>
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: 360, maxWidth: '100%' }}
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="alarm-search">
              {t('alarms.history.search')}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                // Every filter goes; an open alarm stays open.
                patchSearch(
                  Object.fromEntries([...search.keys()].filter((k) => k !== 'id').map((k) => [k, null])),
                );
              }}
            >
              {t('alarms.history.reset')}
            </Button>
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={() => void exportXlsx()}
              data-testid="alarm-export"
            >
              {t('alarms.history.export')}
            </Button>
            <Button
              icon={<ReloadOutlined />}
              aria-label={t('alarms.history.refresh')}
              onClick={() => history.refetch()}
            />
          </Space>
        </Form.Item>
      </Form>
      {history.isError && !history.data ? (
        <Result
          status="error"
          title={t('alarms.history.loadFailed')}
          subTitle={history.error.message}
          extra={<Button onClick={() => history.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<AlarmHistoryItem>
          rowKey="id"
          style={{ marginTop: 16 }}
          loading={history.isFetching}
          dataSource={history.data?.list ?? []}
          columns={columns}
          // Cells wrap before the table scrolls: no column starts under the fixed one at 1366 px.
          scroll={{ x: true }}
          tableLayout="auto"
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.history.empty')} />,
          }}
          pagination={{
            current: query.page,
            pageSize: query.pageSize,
            total: history.data?.size ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('crud.total', { total }),
            onChange: (page, pageSize) =>
              update({
                page: pageSize === query.pageSize ? page : 1,
                pageSize: pageSize === HISTORY_PAGE_SIZE ? undefined : pageSize,
              }),
          }}
        />
      )}
      <AlarmDetailDrawer id={openId} onClose={() => update({ id: undefined })} />
    </Card>
  );
}
