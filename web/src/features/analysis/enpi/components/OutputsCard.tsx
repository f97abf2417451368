import { DeleteOutlined } from '@ant-design/icons';
import type { Enpi, EnpiPeriodRow } from '@kilowatch/contract';
import { Button, Card, InputNumber, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteEnpiOutput, useEnpiOutputs, usePutEnpiOutput } from '../../../../api/enpi.ts';
import { useConfirmDelete } from '../../../../components/crud/confirm-delete.tsx';
import { notify } from '../../../../lib/notify.ts';

/** One editable cell: saves on Enter or when the field is left, if the value changed. */
function OutputCell({
  enpi,
  period,
  label,
  value,
}: {
  enpi: Enpi;
  period: string;
  label: string;
  value: number | undefined;
}) {
  const { t } = useTranslation();
  const put = usePutEnpiOutput();
  const [draft, setDraft] = useState<number | null>(value ?? null);
  const commit = () => {
    if (draft === null || draft === value) return;
    put
      .mutateAsync({ id: enpi.id, period, value: draft })
      .then(() => notify.success(t('enpi.saved', { period: label })))
      .catch(() => setDraft(value ?? null));
  };
  return (
    <InputNumber<number>
      aria-label={`${t('enpi.outputs')} ${label}`}
      data-testid={`enpi-output-${period}`}
      min={0}
      max={1e12}
      precision={2}
      value={draft}
      onChange={setDraft}
      onBlur={commit}
      onPressEnter={commit}
      addonAfter={enpi.outputUnit || undefined}
      disabled={put.isPending}
    />
  );
}

/** The entered outputs of an EnPI, one row per period of the range shown. */
export function OutputsCard({ enpi, periods }: { enpi: Enpi; periods: readonly EnpiPeriodRow[] }) {
  const { t } = useTranslation();
  const outputs = useEnpiOutputs(enpi.id);
  const remove = useDeleteEnpiOutput();
  const confirmDelete = useConfirmDelete();
  const entered = new Map((outputs.data ?? []).map((o) => [o.period, o.value]));
  const columns: TableColumnsType<EnpiPeriodRow> = [
    { title: t('enpi.label'), dataIndex: 'label', width: 140 },
    {
      title: t('enpi.outputs'),
      key: 'value',
      render: (_, p) => (
        <OutputCell
          // A new entry list remounts the cell with the saved value.
          key={`${p.period}:${entered.get(p.period) ?? ''}`}
          enpi={enpi}
          period={p.period}
          label={p.label}
          value={entered.get(p.period)}
        />
      ),
    },
    {
      title: t('crud.actions'),
      key: 'actions',
      width: 80,
      render: (_, p) =>
        entered.has(p.period) && (
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('crud.delete')}
            onClick={() =>
              confirmDelete({
                content: t('enpi.removeOutput', { period: p.label }),
                onDelete: () => remove.mutateAsync({ id: enpi.id, period: p.period }),
              })
            }
          />
        ),
    },
  ];
  return (
    <Card size="small" title={t('enpi.outputs')} data-testid="enpi-outputs">
      <Typography.Paragraph type="secondary">{t('enpi.outputsHint')}</Typography.Paragraph>
      <Table<EnpiPeriodRow>
        rowKey="period"
        size="small"
        pagination={false}
        scroll={{ y: 360 }}
        loading={outputs.isLoading}
        columns={columns}
        dataSource={[...periods]}
      />
    </Card>
  );
}
