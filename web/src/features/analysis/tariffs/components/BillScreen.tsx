import { DownloadOutlined } from '@ant-design/icons';
import {
  BAND_KINDS,
  type Bill,
  type BillQuery,
  PlantCalendar,
  type RegionNode,
  type TpfcBucket,
} from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Empty,
  Result,
  Select,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  TreeSelect,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionTree } from '../../../../api/regions.ts';
import { useBill, useTariffs, useTpfc } from '../../../../api/tariffs.ts';
import { saveBlob, XLSX_MIME } from '../../../../components/charts/export/download.ts';
import { toXlsx } from '../../../../components/charts/export/xlsx.ts';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import { type BillLine, billLines } from '../lib/bill-lines.ts';

interface TreeOption {
  value: string;
  title: string;
  children?: TreeOption[];
}

/** Regions and their meters as picker options: `region:<id>` and `thing:<thingId>:<node>`. */
const treeOptions = (nodes: readonly RegionNode[]): TreeOption[] =>
  nodes.map((n) =>
    n.resourceType === 'thing' && n.thingId !== null
      ? { value: `thing:${n.thingId}:${n.id}`, title: n.name }
      : { value: `region:${n.id}`, title: n.name, children: treeOptions(n.children) },
  );

const targetOf = (value: string): Pick<BillQuery, 'resourceType' | 'resourceId'> => {
  const [type, id] = value.split(':');
  return { resourceType: type === 'thing' ? 'thing' : 'region', resourceId: Number(id) };
};

type T = (k: string, p?: Record<string, unknown>) => string;

/** Which tariff priced the bill and why (asked, a region's own, or the plant's). */
export const pricedBy = (bill: Bill, t: T) =>
  t('tariffs.bill.pricedBy', {
    name: bill.tariffName,
    source: t(`tariffs.bill.source.${bill.tariffSource.kind}`, { region: bill.tariffSource.region?.name }),
  });

/** How much of the month has readings, or that it has none. */
export const coverageText = (bill: Bill, t: T, format: (ms: number) => string) =>
  bill.coverage.first === null || bill.coverage.last === null
    ? t('tariffs.bill.noReadings')
    : t('tariffs.bill.coverage', {
        percent: bill.coverage.percent,
        first: format(bill.coverage.first),
        last: format(bill.coverage.last),
      });

const kwhText = (v: number) =>
  v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function exportBill(
  bill: Bill,
  lines: BillLine[],
  days: readonly TpfcBucket[],
  t: T,
  format: (ms: number) => string,
) {
  const title = t('tariffs.bill.title', { name: bill.name, month: bill.month });
  const empty = new Set(bill.coverage.emptyDays);
  const data = await toXlsx(
    {
      title,
      columns: [
        { header: t('tariffs.bill.line'), kind: 'text' },
        { header: t('tariffs.bill.quantity'), kind: 'text' },
        { header: t('tariffs.bill.price'), kind: 'number' },
        { header: t('tariffs.bill.amount'), kind: 'number' },
      ],
      rows: [
        ...lines.map((l) => [l.item, l.quantity, l.price, l.amount]),
        [pricedBy(bill, t), '', null, null],
        [coverageText(bill, t, format), '', null, null],
        [t('tariffs.bill.daily'), '', null, null],
        // A day without readings is "no data" with empty cells, not 0.00.
        ...days.map((d) =>
          empty.has(d.key)
            ? [d.label, t('tariffs.bill.noData'), null, null]
            : [d.label, `${kwhText(d.totalEnergy)} kWh`, null, d.totalCost],
        ),
      ],
    },
    bill.timeZone,
  );
  saveBlob(new Blob([data], { type: XLSX_MIME }), `${title}.xlsx`);
}

/** The monthly electricity bill of a meter or region (/analysis/bill, docs/tariffs.md). */
export function BillScreen() {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const tariffs = useTariffs();
  const tree = useRegionTree({ withThings: true });
  const [tariffId, setTariffId] = useState<number | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const [month, setMonth] = useState(() => calendar.format(Date.now(), 'YYYY-MM'));
  // Without a chosen tariff the server prices with the target's own (its region's, else the plant's).
  const query: BillQuery | null =
    target !== null ? { ...(tariffId === null ? {} : { tariffId }), month, ...targetOf(target) } : null;
  const bill = useBill(query);
  const pricedWith = bill.data && query && !bill.isPlaceholderData ? bill.data.tariffId : null;
  const daily = useTpfc(
    query === null || pricedWith === null
      ? null
      : {
          tariffId: pricedWith,
          targets: [{ resourceType: query.resourceType, resourceId: query.resourceId }],
          period: 'month',
          startTime: calendar.dayStart(PlantCalendar.dayOfDate(`${month}-01`) as number),
        },
  );
  const days = daily.data?.rows[0]?.buckets ?? [];
  const emptyDays = new Set(bill.data?.coverage.emptyDays ?? []);
  const usedBands = BAND_KINDS.filter((b) => days.some((d) => d.energy[b] !== 0));
  const two = (v: number) =>
    v.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // A day without any reading is "no data" (—), not 0.00.
  const cell = (d: TpfcBucket, v: number) =>
    emptyDays.has(d.key) ? <span title={t('tariffs.bill.noData')}>—</span> : two(v);
  const dayColumns: TableColumnsType<TpfcBucket> = [
    { title: t('tariffs.bill.day'), dataIndex: 'label' },
    ...usedBands.map((b) => ({
      title: `${t(`tariffs.band.${b}`)} (kWh)`,
      key: b,
      align: 'right' as const,
      render: (_: unknown, d: TpfcBucket) => cell(d, d.energy[b]),
    })),
    {
      title: t('tariffs.bill.totalKwh'),
      key: 'totalEnergy',
      align: 'right',
      render: (_: unknown, d: TpfcBucket) => cell(d, d.totalEnergy),
    },
    {
      title: t('tariffs.bill.totalCost'),
      key: 'totalCost',
      align: 'right',
      render: (_: unknown, d: TpfcBucket) => cell(d, d.totalCost),
    },
  ];
  const minute = (ms: number) => calendar.format(ms, 'YYYY-MM-DD HH:mm');
  const options = useMemo(() => treeOptions(tree.data ?? []), [tree.data]);
  const lines = bill.data ? billLines(bill.data, t) : [];

  const columns: TableColumnsType<BillLine> = [
    {
      title: t('tariffs.bill.line'),
      dataIndex: 'item',
      render: (v: string, l) => (l.strong ? <Typography.Text strong>{v}</Typography.Text> : v),
    },
    { title: t('tariffs.bill.quantity'), dataIndex: 'quantity' },
    {
      title: t('tariffs.bill.price'),
      dataIndex: 'price',
      align: 'right',
      render: (v: number | null) => (v === null ? '' : v.toFixed(4)),
    },
    {
      title: t('tariffs.bill.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: number, l) => {
        const text = v.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
        return l.strong ? <Typography.Text strong>{text}</Typography.Text> : text;
      },
    },
  ];

  if (tariffs.isError) return <Result status="error" title={t('crud.loadFailed')} />;
  if (!tariffs.data) return <Spin />;
  if (tariffs.data.length === 0) return <Empty description={t('tariffs.bill.noTariff')} />;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          <Select<number>
            aria-label={t('tariffs.bill.tariff')}
            style={{ width: 220 }}
            value={tariffId ?? 0}
            onChange={(v) => setTariffId(v === 0 ? null : v)}
            options={[
              { value: 0, label: t('tariffs.bill.byTarget') },
              ...tariffs.data.map((x) => ({ value: x.id, label: x.name })),
            ]}
          />
          <TreeSelect
            aria-label={t('tariffs.bill.target')}
            style={{ width: 280 }}
            placeholder={t('tariffs.bill.target')}
            treeData={options}
            value={target ?? undefined}
            onChange={(v: string) => setTarget(v)}
            treeDefaultExpandAll
            showSearch
            treeNodeFilterProp="title"
          />
          <DatePicker
            picker="month"
            aria-label={t('tariffs.bill.month')}
            allowClear={false}
            value={dayjs(`${month}-01`)}
            onChange={(d) => d && setMonth(d.format('YYYY-MM'))}
          />
          <Button
            icon={<DownloadOutlined />}
            disabled={!bill.data}
            onClick={() => bill.data && void exportBill(bill.data, lines, days, t, minute)}
          >
            {t('tariffs.bill.export')}
          </Button>
        </Space>
      </Card>
      {!query ? (
        <Card>
          <Empty description={t('tariffs.bill.choose')} />
        </Card>
      ) : bill.isError ? (
        <Alert type="error" showIcon title={(bill.error as Error).message} />
      ) : !bill.data ? (
        <Spin />
      ) : (
        <Card size="small" title={t('tariffs.bill.title', { name: bill.data.name, month: bill.data.month })}>
          <Table<BillLine>
            rowKey="key"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={lines}
            loading={bill.isFetching}
          />
          <Space orientation="vertical" style={{ marginTop: 12 }}>
            <Typography.Text data-testid="bill-priced-by">{pricedBy(bill.data, t)}</Typography.Text>
            <Alert
              type={bill.data.coverage.percent >= 100 ? 'info' : 'warning'}
              showIcon
              data-testid="bill-coverage"
              title={coverageText(bill.data, t, minute)}
            />
            {bill.data.demand.at !== null && bill.data.demand.end !== null && (
              <Typography.Text type="secondary">
                {t('tariffs.bill.demandAt', {
                  from: calendar.format(bill.data.demand.at, 'YYYY-MM-DD HH:mm'),
                  to: calendar.format(bill.data.demand.end, 'HH:mm'),
                  mode: t(`tariffs.demandWindowMode.${bill.data.demand.window ?? 'fixed'}`),
                })}
              </Typography.Text>
            )}
            <Typography.Text type="secondary">
              {t('tariffs.bill.versions', {
                list: bill.data.versions.map((v) => v.validFrom).join(', ') || '—',
              })}
            </Typography.Text>
            {bill.data.unpricedEnergy > 0 && (
              <Alert
                type="warning"
                showIcon
                title={t('tariffs.bill.unpriced', { kwh: bill.data.unpricedEnergy.toFixed(2) })}
              />
            )}
          </Space>
        </Card>
      )}
      {query && days.length > 0 && (
        <Card size="small" title={t('tariffs.bill.daily')}>
          <Table<TpfcBucket>
            rowKey="key"
            size="small"
            pagination={false}
            columns={dayColumns}
            dataSource={days}
            loading={daily.isFetching}
            scroll={{ y: 400 }}
          />
        </Card>
      )}
    </Space>
  );
}
