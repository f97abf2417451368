import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { MetricConfig } from '@kilowatch/contract';
import {
  Alert,
  Button,
  Checkbox,
  ColorPicker,
  Empty,
  Modal,
  Space,
  Table,
  type TableColumnsType,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ResourceRef, useSaveMetricConfigs } from '../../api/metric-configs.ts';
import { notify } from '../../lib/notify.ts';
import { MAX_CHART_METRICS, type MetricSource } from './metrics.ts';
import { enabledCount, moveRow, type SettingRow, settingRows, toPatch } from './rows.ts';

export interface MetricSettingsDialogProps {
  open: boolean;
  onClose(): void;
  resource: ResourceRef;
  configs: readonly MetricConfig[];
  /** Abilities the metrics can come from. */
  sources: readonly MetricSource[];
  /** After a successful save (the 修改成功 toast is shown here). */
  onSaved?(configs: MetricConfig[]): void;
}

/**
 * Which metrics a resource's charts show, their colours and order → PATCH /api/query/config.
 * Open it only for users with the `configureMetrics` ability (useChartAbilities).
 */
export function MetricSettingsDialog(props: MetricSettingsDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={props.open}
      title={t('charts.settings.title')}
      onCancel={props.onClose}
      footer={null}
      width={720}
      destroyOnHidden
    >
      {props.open && <SettingsForm {...props} />}
    </Modal>
  );
}

function SettingsForm({ resource, configs, sources, onClose, onSaved }: MetricSettingsDialogProps) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<SettingRow[]>(() => settingRows(configs, sources));
  // Sources may arrive after the dialog opened (the category and ability lists load, or refresh
  // after a write on another screen): their metrics join the end, unchecked; edits made stay.
  useEffect(() => {
    setRows((list) => {
      if (list.length === 0) {
        const fresh = settingRows(configs, sources);
        return fresh.length ? fresh : list;
      }
      const known = new Set(list.map((r) => r.metricIdentifier));
      const added = settingRows(configs, sources).filter((r) => !known.has(r.metricIdentifier));
      return added.length ? [...list, ...added.map((r) => ({ ...r, enabled: false }))] : list;
    });
  }, [configs, sources]);
  const save = useSaveMetricConfigs();
  const full = enabledCount(rows) >= MAX_CHART_METRICS;
  const update = (index: number, change: Partial<SettingRow>) =>
    setRows((list) => list.map((r, i) => (i === index ? { ...r, ...change } : r)));

  const columns: TableColumnsType<SettingRow> = [
    {
      title: t('charts.settings.show'),
      width: 64,
      render: (_, row, index) => (
        <Checkbox
          checked={row.enabled}
          disabled={!row.enabled && full}
          aria-label={`${t('charts.settings.show')} ${row.name}`}
          onChange={(e) => update(index, { enabled: e.target.checked })}
        />
      ),
    },
    { title: t('charts.settings.name'), dataIndex: 'name' },
    { title: t('charts.settings.identifier'), dataIndex: 'metricIdentifier' },
    { title: t('charts.settings.unit'), dataIndex: 'unit', width: 80 },
    {
      title: t('charts.settings.color'),
      width: 80,
      render: (_, row, index) => (
        <ColorPicker
          value={row.color}
          disabledAlpha
          size="small"
          onChangeComplete={(c) => update(index, { color: c.toHexString().slice(0, 7) })}
        />
      ),
    },
    {
      title: t('charts.settings.order'),
      width: 96,
      render: (_, row, index) => (
        <Space size={4}>
          <Button
            size="small"
            icon={<ArrowUpOutlined />}
            aria-label={`${t('charts.settings.up')} ${row.name}`}
            disabled={index === 0}
            onClick={() => setRows((list) => moveRow(list, index, -1))}
          />
          <Button
            size="small"
            icon={<ArrowDownOutlined />}
            aria-label={`${t('charts.settings.down')} ${row.name}`}
            disabled={index === rows.length - 1}
            onClick={() => setRows((list) => moveRow(list, index, 1))}
          />
        </Space>
      ),
    },
  ];

  const onSave = () =>
    save.mutate(toPatch(resource, rows), {
      onSuccess: (saved) => {
        notify.success(t('toast.updated'));
        onSaved?.(saved);
        onClose();
      },
    });

  return (
    <>
      <Alert
        type="info"
        showIcon
        title={t('charts.settings.limit', { max: MAX_CHART_METRICS })}
        style={{ marginBottom: 12 }}
      />
      {rows.length ? (
        <Table<SettingRow>
          rowKey="metricIdentifier"
          size="small"
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ y: 360 }}
        />
      ) : (
        <Empty description={t('charts.settings.empty')} />
      )}
      <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 16 }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button type="primary" loading={save.isPending} disabled={!rows.length} onClick={onSave}>
          {t('charts.settings.save')}
        </Button>
      </div>
    </>
  );
}
