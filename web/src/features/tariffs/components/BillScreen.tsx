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
import { useRegionTree } from '../../../api/regions.ts';
import { useBill, useTariffs, useTpfc } from '../../../api/tariffs.ts';
import { saveBlob, XLSX_MIME } from '../../../components/charts/export/download.ts';
import { toXlsx } from '../../../components/charts/export/xlsx.ts';
import { usePlantCalendar } from '../../../lib/plant-calendar.ts';
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

async function exportBill(
  bill: Bill,
  lines: BillLine[],
  t: (k: string, p?: Record<string, unknown>) => string,
) {
  const title = t('tariffs.bill.title', { name: bill.name, month: bill.month });
  const data = await toXlsx(
    {
      title,
      columns: [
        { header: t('tariffs.bill.line'), kind: 'text' },
        { header: t('tariffs.bill.quantity'), kind: 'text' },
        { header: t('tariffs.bill.price'), kind: 'number' },
        { header: t('tariffs.bill.amount'), kind: 'number' },
      ],
      rows: lines.map((l) => [l.item, l.quantity, l.price, l.amount]),
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
  const chosenTariff = tariffId ?? tariffs.data?.[0]?.id ?? null;
  const query: BillQuery | null =
    chosenTariff !== null && target !== null ? { tariffId: chosenTariff, month, ...targetOf(target) } : null;
  const bill = useBill(query);
  const daily = useTpfc(
    query && {
      tariffId: query.tariffId,
      targets: [{ resourceType: query.resourceType, resourceId: query.resourceId }],
      period: 'month',
      startTime: calendar.dayStart(PlantCalendar.dayOfDate(`${month}-01`) as number),
    },
  );
  const days = daily.data?.rows[0]?.buckets ?? [];
  const usedBands = BAND_KINDS.filter((b) => days.some((d) => d.energy[b] !== 0));
  const two = (v: number) =>
    v.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const dayColumns: TableColumnsType<TpfcBucket> = [
    { title: t('tariffs.bill.day'), dataIndex: 'label' },
    ...usedBands.map((b) => ({
      title: `${t(`tariffs.band.${b}`)} (kWh)`,
      key: b,
      align: 'right' as const,
      render: (_: unknown, d: TpfcBucket) => two(d.energy[b]),
    })),
    { title: t('tariffs.bill.totalKwh'), dataIndex: 'totalEnergy', align: 'right', render: two },
    { title: t('tariffs.bill.totalCost'), dataIndex: 'totalCost', align: 'right', render: two },
  ];
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
            value={chosenTariff ?? undefined}
            onChange={setTariffId}
            options={tariffs.data.map((x) => ({ value: x.id, label: x.name }))}
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
            onClick={() => bill.data && void exportBill(bill.data, lines, t)}
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
