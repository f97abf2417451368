import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { BAND_KINDS, type Tariff, type TariffVersion, versionOn } from '@kilowatch/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Empty,
  List,
  Result,
  Row,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteTariff,
  useDeleteTariffVersion,
  usePlantTariff,
  useSetPlantTariff,
  useTariffs,
} from '../../../../api/tariffs.ts';
import { useConfirmDelete } from '../../../../components/crud/confirm-delete.tsx';
import { notify } from '../../../../lib/notify.ts';
import { usePlantCalendar } from '../../../../lib/plant-calendar.ts';
import { isAdmin, isGranted, useSession } from '../../../../lib/session.ts';
import { dayStrip } from '../lib/band-strip.ts';
import { BandStrip } from './BandStrip.tsx';
import { TariffDialog } from './TariffDialog.tsx';
import { TariffRegions } from './TariffRegions.tsx';
import { VersionDialog, type VersionTarget } from './VersionDialog.tsx';

/** Where the server checks tariff writes (server/src/modules/energy/tariffs/routes.ts). */
const TARIFF_PATH = '/analysis/tariff';

/** The day preview: a chosen date's version, season, day type and 24-hour band strip. */
function DayPreview({ tariff }: { tariff: Tariff }) {
  const { t } = useTranslation();
  const calendar = usePlantCalendar();
  const [date, setDate] = useState(() => calendar.dateOf(Date.now()));
  const strip = dayStrip(tariff, tariff.versions, date);
  return (
    <Card size="small" title={t('tariffs.preview')}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <DatePicker
            aria-label={t('tariffs.previewDate')}
            value={dayjs(date)}
            allowClear={false}
            onChange={(d) => d && setDate(d.format('YYYY-MM-DD'))}
          />
          {strip && (
            <Typography.Text type="secondary">
              {t('tariffs.previewOf', {
                validFrom: strip.version.validFrom,
                season: strip.season,
                dayType: t(`tariffs.dayType.${strip.dayType}`),
              })}
            </Typography.Text>
          )}
        </Space>
        {strip ? <BandStrip segments={strip.segments} /> : <Empty description={t('tariffs.noVersion')} />}
      </Space>
    </Card>
  );
}

/** The plant's tariff is marked; another one can be made the plant's (or the plant left without). */
function PlantTariffAction({
  tariff,
  isPlant,
  canEdit,
}: {
  tariff: Tariff;
  isPlant: boolean;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const setPlant = useSetPlantTariff();
  const choose = (id: number | null) =>
    setPlant.mutate(id, {
      onSuccess: () =>
        notify.success(
          id === null ? t('tariffs.plant.cleared') : t('tariffs.plant.set', { name: tariff.name }),
        ),
    });
  return isPlant ? (
    <Space>
      <Tag color="blue" data-testid="plant-tariff-tag">
        {t('tariffs.plant.tag')}
      </Tag>
      <Button size="small" disabled={!canEdit} loading={setPlant.isPending} onClick={() => choose(null)}>
        {t('tariffs.plant.clear')}
      </Button>
    </Space>
  ) : (
    <Button
      type="primary"
      ghost
      disabled={!canEdit}
      loading={setPlant.isPending}
      onClick={() => choose(tariff.id)}
      data-testid="plant-tariff-set"
    >
      {t('tariffs.plant.make')}
    </Button>
  );
}

function TariffDetail({
  tariff,
  isPlant,
  canEdit,
  onEdit,
  onVersion,
}: {
  tariff: Tariff;
  isPlant: boolean;
  canEdit: boolean;
  onEdit: () => void;
  onVersion: (target: VersionTarget) => void;
}) {
  const { t } = useTranslation();
  const askDelete = useConfirmDelete();
  const calendar = usePlantCalendar();
  const today = calendar.dateOf(Date.now());
  const current = versionOn(tariff.versions, today);
  const removeVersion = useDeleteTariffVersion();

  const confirmDelete = (v: TariffVersion) =>
    askDelete({
      title: v.validFrom <= today ? t('tariffs.retroactiveTitle') : t('crud.deleteTitle'),
      content:
        v.validFrom <= today
          ? `${t('tariffs.deleteVersionConfirm', { validFrom: v.validFrom })} ${t('tariffs.retroactiveContent', { from: v.validFrom })}`
          : t('tariffs.deleteVersionConfirm', { validFrom: v.validFrom }),
      onDelete: () =>
        removeVersion.mutateAsync({ id: tariff.id, versionId: v.id, retroactive: v.validFrom <= today }),
      done: (answer) => (answer.recomputed ? t('tariffs.recomputed', answer.recomputed) : t('toast.deleted')),
    });

  const demandText = (v: TariffVersion) =>
    v.demand.kind === 'demand'
      ? `${t('tariffs.demandKind.demand')} ${v.demand.pricePerKw} · ${t(`tariffs.demandWindowMode.${v.demand.window ?? 'fixed'}`)}`
      : v.demand.kind === 'capacity'
        ? `${t('tariffs.demandKind.capacity')} ${v.demand.pricePerKva} × ${v.demand.capacityKva} kVA`
        : t('tariffs.demandKind.none');

  const columns: TableColumnsType<TariffVersion> = [
    {
      title: t('tariffs.validFrom'),
      dataIndex: 'validFrom',
      render: (d: string, v) => (
        <Space>
          {d}
          {v.id === current?.id ? (
            <Tag color="green">{t('tariffs.current')}</Tag>
          ) : d > today ? (
            <Tag>{t('tariffs.future')}</Tag>
          ) : null}
        </Space>
      ),
    },
    ...BAND_KINDS.map((b) => ({
      title: t(`tariffs.band.${b}`),
      key: b,
      align: 'right' as const,
      render: (_: unknown, v: TariffVersion) => (v.prices[b] === undefined ? '—' : v.prices[b]?.toFixed(4)),
    })),
    { title: t('tariffs.demand'), key: 'demand', render: (_, v) => demandText(v) },
    {
      title: t('tariffs.pfTarget'),
      dataIndex: 'powerFactorTarget',
      render: (p: number | null) => (p === null ? t('tariffs.pfNone') : p.toFixed(2)),
    },
    { title: t('tariffs.note'), dataIndex: 'note' },
    {
      title: t('crud.actions'),
      key: 'actions',
      render: (_, v) => (
        <Space>
          <Button
            size="small"
            type="link"
            icon={<EditOutlined />}
            disabled={!canEdit}
            onClick={() => onVersion({ tariff, version: v })}
          >
            {t('crud.edit')}
          </Button>
          <Button
            size="small"
            type="link"
            danger
            icon={<DeleteOutlined />}
            disabled={!canEdit || tariff.versions.length <= 1}
            onClick={() => confirmDelete(v)}
          >
            {t('crud.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card
        size="small"
        title={tariff.name}
        extra={
          <Space wrap>
            <PlantTariffAction tariff={tariff} isPlant={isPlant} canEdit={canEdit} />
            <Button icon={<EditOutlined />} disabled={!canEdit} onClick={onEdit}>
              {t('crud.edit')}
            </Button>
          </Space>
        }
      >
        <Descriptions size="small" column={2}>
          <Descriptions.Item label={t('tariffs.description')}>{tariff.description || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('tariffs.weekendDays')}>
            {tariff.weekendDays.map((d) => t(`tariffs.weekday.${d}`)).join(' ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('tariffs.holidays')}>
            {tariff.holidays.join(', ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('tariffs.workdays')}>
            {tariff.workdays.join(', ') || '—'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <TariffRegions tariff={tariff} canEdit={canEdit} />
      <DayPreview tariff={tariff} />
      <Card
        size="small"
        title={t('tariffs.versions')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!canEdit}
            onClick={() => onVersion({ tariff, version: null })}
          >
            {t('tariffs.newVersion')}
          </Button>
        }
      >
        <Table<TariffVersion>
          rowKey="id"
          size="small"
          pagination={false}
          columns={columns}
          dataSource={[...tariff.versions].reverse()}
          scroll={{ x: true }}
        />
      </Card>
    </Space>
  );
}

/** Tariff calendars (/analysis/tariff): tariffs, their versions, a day's bands (docs/tariffs.md). */
export function TariffScreen() {
  const { t } = useTranslation();
  const askDelete = useConfirmDelete();
  const tariffs = useTariffs();
  const plant = usePlantTariff();
  const remove = useDeleteTariff();
  const roles = useSession((s) => s.roles);
  const grants = useSession((s) => s.routes);
  const canEdit = isAdmin(roles) || isGranted(grants, TARIFF_PATH);
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ tariff: Tariff | null } | null>(null);
  const [version, setVersion] = useState<VersionTarget | null>(null);

  if (tariffs.isError) return <Result status="error" title={t('crud.loadFailed')} />;
  if (!tariffs.data) return <Spin />;
  const list = tariffs.data;
  const plantId = plant.data?.tariffId ?? null;
  const tariff = list.find((x) => x.id === selected) ?? list.find((x) => x.id === plantId) ?? list[0];
  // A plant that names a tariff since deleted has none, as the overview says.
  const plantMissing = plant.isSuccess && list.length > 0 && !list.some((x) => x.id === plantId);

  const confirmDelete = (x: Tariff) =>
    askDelete({
      content: t('tariffs.deleteConfirm', { name: x.name }),
      onDelete: () => remove.mutateAsync(x.id),
    });

  return (
    <Row gutter={[16, 16]}>
      {plantMissing && (
        <Col span={24}>
          <Alert type="warning" showIcon title={t('tariffs.plant.none')} data-testid="plant-tariff-missing" />
        </Col>
      )}
      <Col xs={24} lg={6}>
        <Card
          size="small"
          title={t('tariffs.list')}
          extra={
            <Button
              size="small"
              type="primary"
              icon={<PlusOutlined />}
              disabled={!canEdit}
              onClick={() => setEditing({ tariff: null })}
            >
              {t('tariffs.newTariff')}
            </Button>
          }
        >
          <List
            dataSource={list}
            locale={{ emptyText: <Empty description={t('tariffs.empty')} /> }}
            renderItem={(x) => (
              <List.Item
                onClick={() => setSelected(x.id)}
                style={{
                  cursor: 'pointer',
                  paddingInline: 8,
                  background: x.id === tariff?.id ? 'rgba(22,119,255,0.08)' : undefined,
                }}
                actions={[
                  <Button
                    key="delete"
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={`${t('crud.delete')} ${x.name}`}
                    disabled={!canEdit}
                    onClick={(e) => {
                      e.stopPropagation();
                      confirmDelete(x);
                    }}
                  />,
                ]}
              >
                <List.Item.Meta
                  title={
                    <Space size={4} wrap>
                      {x.name}
                      {x.id === plantId && <Tag color="blue">{t('tariffs.plant.tag')}</Tag>}
                    </Space>
                  }
                  description={x.versions.at(-1)?.validFrom}
                />
              </List.Item>
            )}
          />
        </Card>
      </Col>
      <Col xs={24} lg={18}>
        {tariff ? (
          <TariffDetail
            tariff={tariff}
            isPlant={tariff.id === plantId}
            canEdit={canEdit}
            onEdit={() => setEditing({ tariff })}
            onVersion={setVersion}
          />
        ) : (
          <Card>
            <Empty description={t('tariffs.empty')} />
          </Card>
        )}
      </Col>
      {editing && <TariffDialog tariff={editing.tariff} onClose={() => setEditing(null)} />}
      {version && <VersionDialog target={version} onClose={() => setVersion(null)} />}
    </Row>
  );
}
