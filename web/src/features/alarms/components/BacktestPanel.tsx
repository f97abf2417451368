import type { AlarmRuleInput, BacktestResult } from '@kilowatch/contract';
import { Alert, Button, DatePicker, Empty, Select, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBacktest } from '../../../api/alarms.ts';
import { useThingsOfCategory } from '../../../api/things.ts';
import { EChart } from '../../../components/charts/index.ts';
import { formatPlantTime, fromPicker, toPicker, usePlantCalendar } from '../../../lib/plant-calendar.ts';
import { backtestOption } from '../lib/backtest-chart.ts';

type Alarm = BacktestResult['alarms'][number];

/** "1 h 5 min", "40 s": how long a would-be alarm lasted. */
function formatDuration(ms: number, t: (k: string, o?: Record<string, unknown>) => string): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return t('alarms.backtest.seconds', { n: s });
  const m = Math.round(s / 60);
  if (m < 60) return t('alarms.backtest.minutes', { n: m });
  return t('alarms.backtest.hours', { h: Math.floor(m / 60), m: m % 60 });
}

/**
 * Backtest before enabling (issue 11): run the rule being edited over one thing's stored history
 * and see when it would have raised, for how long, on the metric's chart. `validate` returns the
 * rule as the dialog holds it, or null when its fields do not validate yet.
 */
export function BacktestPanel({
  categoryId,
  validate,
}: {
  categoryId: number | null;
  validate: () => Promise<AlarmRuleInput | null>;
}) {
  const { t } = useTranslation();
  const things = useThingsOfCategory(categoryId);
  const backtest = useBacktest();
  const [thingId, setThingId] = useState<number | null>(null);
  const calendar = usePlantCalendar();
  // The pickers hold the plant's wall-clock time (lib/plant-calendar.ts), not the browser's.
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => {
    const now = Date.now();
    return [toPicker(calendar, now - 86_400_000), toPicker(calendar, now)];
  });
  const result = backtest.data;

  async function run() {
    const rule = await validate();
    if (!rule || thingId === null) return;
    backtest.mutate({
      rule,
      thingId,
      start: fromPicker(calendar, range[0]),
      end: fromPicker(calendar, range[1]),
    });
  }

  const option = useMemo(
    () =>
      result &&
      backtestOption(
        result,
        { metric: t('alarms.backtest.metric'), alarm: t('alarms.backtest.alarm') },
        calendar,
      ),
    [result, t, calendar],
  );

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="backtest-panel">
      <Space wrap>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: 220 }}
          placeholder={t(categoryId === null ? 'alarms.backtest.pickCategory' : 'alarms.backtest.thing')}
          aria-label={t('alarms.backtest.thing')}
          disabled={categoryId === null}
          loading={things.isFetching}
          value={thingId}
          onChange={setThingId}
          options={(things.data ?? []).map((th) => ({ value: th.id, label: th.name }))}
          notFoundContent={
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarms.backtest.noThings')} />
          }
          data-testid="backtest-thing"
        />
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          allowClear={false}
          value={range}
          aria-label={t('alarms.backtest.range')}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
        />
        <Button
          onClick={() => void run()}
          loading={backtest.isPending}
          disabled={thingId === null}
          data-testid="backtest-run"
        >
          {t('alarms.backtest.run')}
        </Button>
      </Space>
      {result && (
        <>
          <Alert
            type={result.alarms.length ? 'warning' : 'success'}
            showIcon
            title={t('alarms.backtest.summary', {
              count: result.alarms.length,
              points: result.points.length,
            })}
            description={result.truncated ? t('alarms.backtest.truncated') : undefined}
            data-testid="backtest-summary"
          />
          {result.points.length > 0 && option && <EChart option={option} height={240} />}
          {result.alarms.length > 0 && (
            <Table<Alarm>
              size="small"
              rowKey="raisedAt"
              pagination={result.alarms.length > 5 ? { pageSize: 5 } : false}
              dataSource={result.alarms}
              columns={[
                { title: t('alarms.backtest.raisedAt'), dataIndex: 'raisedAt', render: formatPlantTime },
                {
                  title: t('alarms.backtest.returnedAt'),
                  dataIndex: 'returnedAt',
                  render: (v: number | null) =>
                    v === null ? t('alarms.backtest.stillActive') : formatPlantTime(v),
                },
                {
                  title: t('alarms.backtest.duration'),
                  key: 'duration',
                  render: (_, a) =>
                    a.returnedAt === null ? '—' : formatDuration(a.returnedAt - a.raisedAt, t),
                },
                {
                  title: t('alarms.history.value'),
                  dataIndex: 'value',
                  render: (v) => (v === null ? '—' : String(v)),
                },
                {
                  title: '',
                  dataIndex: 'chattering',
                  render: (c: boolean) => c && <Tag color="magenta">{t('alarms.history.chattering')}</Tag>,
                },
              ]}
            />
          )}
        </>
      )}
    </Space>
  );
}
