import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { Enpi, EnpiPeriodRow, EnpiReport } from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Result,
  Row,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteEnpi, useEnpiReport, useEnpis } from '../../../../api/enpi.ts';
import { useRegionTree } from '../../../../api/regions.ts';
import { useFilterGroups } from '../../../../api/statistics.ts';
import { EChart } from '../../../../components/charts/index.ts';
import { useConfirmDelete } from '../../../../components/crud/confirm-delete.tsx';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import { baselineChartOption, enpiChartOption } from '../lib/charts.ts';
import { two } from '../lib/form.ts';
import { targetOptions } from '../lib/targets.ts';
import { EnpiDialog } from './EnpiDialog.tsx';
import { ModelCard } from './ModelCard.tsx';
import { OutputsCard } from './OutputsCard.tsx';

/** The report of one EnPI over a range of plant dates: charts, model card, periods, outputs. */
function EnpiReportView({ enpi }: { enpi: Enpi }) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [range, setRange] = useState<[string, string]>(() => [
    enpi.baselineStart,
    calendar.dateOf(Date.now()),
  ]);
  const report = useEnpiReport(enpi.id, { from: range[0], to: range[1] });
  const data: EnpiReport | undefined = report.data;
  const unit = data ? `${data.energyUnit}/${enpi.outputUnit || t('enpi.variable.output')}` : '';
  const options = useMemo(
    () =>
      data && {
        enpi: enpiChartOption(data, { enpi: t('enpi.enpiValue'), unit, baseline: t('enpi.baselineArea') }),
        baseline: baselineChartOption(data, {
          actual: t('enpi.actual'),
          expected: t('enpi.expected'),
          cusum: t('enpi.cusum'),
          baseline: t('enpi.baselineArea'),
        }),
      },
    [data, t, unit],
  );

  const columns: TableColumnsType<EnpiPeriodRow> = [
    { title: t('enpi.label'), dataIndex: 'label', fixed: 'left', width: 110 },
    {
      title: `${t('enpi.actual')} (${data?.energyUnit ?? ''})`,
      dataIndex: 'energy',
      align: 'right',
      render: two,
    },
    {
      title: `${t('enpi.variable.output')} (${enpi.outputUnit})`,
      dataIndex: 'output',
      align: 'right',
      render: two,
    },
    {
      title: `${t('enpi.enpiValue')} (${unit})`,
      key: 'enpi',
      align: 'right',
      render: (_, p) =>
        p.gap ? <Typography.Text type="secondary">{t(`enpi.gap.${p.gap}`)}</Typography.Text> : two(p.enpi),
    },
    ...(enpi.temperature
      ? [
          { title: t('enpi.hdd'), dataIndex: 'hdd', align: 'right' as const, render: two },
          { title: t('enpi.cdd'), dataIndex: 'cdd', align: 'right' as const, render: two },
        ]
      : []),
    { title: t('enpi.expected'), dataIndex: 'expected', align: 'right', render: two },
    { title: t('enpi.savings'), dataIndex: 'savings', align: 'right', render: two },
    { title: t('enpi.cusum'), dataIndex: 'cusum', align: 'right', render: two },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap>
          <Typography.Text>{t('enpi.range')}</Typography.Text>
          <DatePicker.RangePicker
            aria-label={t('enpi.range')}
            allowClear={false}
            value={[dayjs(range[0]), dayjs(range[1])]}
            onChange={(v) =>
              v?.[0] && v[1] && setRange([v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')])
            }
          />
          <Typography.Text type="secondary">{data?.timeZone}</Typography.Text>
        </Space>
      </Card>
      {report.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('enpi.reportFailed')}
          description={(report.error as Error).message}
        />
      ) : !data || !options ? (
        <Spin />
      ) : data.periods.length === 0 ? (
        <Card>
          <Empty description={t('enpi.noPeriods')} />
        </Card>
      ) : (
        <>
          <ModelCard report={data} />
          <Card size="small" title={t('enpi.enpiChart')}>
            <EChart option={options.enpi} height={280} loading={report.isFetching} data-testid="enpi-chart" />
          </Card>
          <Card
            size="small"
            title={t('enpi.baselineChart')}
            extra={
              data.totals.savings !== null && (
                <Typography.Text type="secondary">
                  {t('enpi.totals', {
                    energy: two(data.totals.energy),
                    expected: two(data.totals.expected),
                    savings: two(data.totals.savings),
                  })}
                </Typography.Text>
              )
            }
          >
            <EChart
              option={options.baseline}
              height={300}
              loading={report.isFetching}
              data-testid="enpi-baseline-chart"
            />
          </Card>
          <Card size="small" title={t('enpi.table')}>
            <Table<EnpiPeriodRow>
              rowKey="period"
              size="small"
              pagination={false}
              scroll={{ x: 'max-content', y: 400 }}
              columns={columns}
              dataSource={data.periods}
              data-testid="enpi-periods"
            />
          </Card>
          {enpi.output.kind === 'entered' && <OutputsCard enpi={enpi} periods={data.periods} />}
        </>
      )}
    </Space>
  );
}

/** EnPI and baselines (/analysis/enpi, docs/enpi.md): definitions on the left, a report on the right. */
export function EnpiScreen() {
  const { t } = useTranslation();
  const enpis = useEnpis();
  const tree = useRegionTree({ withThings: true });
  const groups = useFilterGroups();
  const remove = useDeleteEnpi();
  const confirmDelete = useConfirmDelete();
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<Enpi | 'new' | null>(null);
  const targets = useMemo(
    () => targetOptions(tree.data ?? [], groups.data ?? [], t('enpi.filterGroups')),
    [tree.data, groups.data, t],
  );

  if (enpis.isError) return <Result status="error" title={t('crud.loadFailed')} />;
  if (!enpis.data) return <Spin />;
  const list = enpis.data;
  const current = list.find((e) => e.id === selected) ?? list[0] ?? null;

  const columns: TableColumnsType<Enpi> = [
    { title: t('enpi.name'), dataIndex: 'name' },
    {
      title: t('enpi.period'),
      dataIndex: 'period',
      width: 64,
      render: (p: string) => t(`enpi.periods.${p}`),
    },
    {
      title: t('crud.actions'),
      key: 'actions',
      width: 88,
      render: (_, e) => (
        <Space size={0}>
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={t('crud.edit')}
            onClick={(ev) => {
              ev.stopPropagation();
              setEditing(e);
            }}
          />
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('crud.delete')}
            onClick={(ev) => {
              ev.stopPropagation();
              confirmDelete({
                content: t('enpi.deleteConfirm', { name: e.name }),
                onDelete: () => remove.mutateAsync(e.id),
              });
            }}
          />
        </Space>
      ),
    },
  ];

  return (
    <Row gutter={16}>
      <Col xs={24} lg={7}>
        <Card
          size="small"
          title={t('enpi.list')}
          extra={
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="enpi-create"
            >
              {t('enpi.create')}
            </Button>
          }
        >
          <Table<Enpi>
            rowKey="id"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={list}
            locale={{ emptyText: <Empty description={t('enpi.empty')} /> }}
            onRow={(e) => ({ onClick: () => setSelected(e.id), style: { cursor: 'pointer' } })}
            rowClassName={(e) => (e.id === current?.id ? 'ant-table-row-selected' : '')}
          />
        </Card>
      </Col>
      <Col xs={24} lg={17}>
        {current ? (
          <EnpiReportView key={current.id} enpi={current} />
        ) : (
          <Card>
            <Empty description={t('enpi.choose')} />
          </Card>
        )}
      </Col>
      {editing && (
        <EnpiDialog
          enpi={editing === 'new' ? null : editing}
          targets={targets}
          onClose={(saved) => {
            setEditing(null);
            if (saved) setSelected(saved.id);
          }}
        />
      )}
    </Row>
  );
}
