import type { EffectiveAbility, ExploreSeries } from '@kilowatch/contract';
import { type UseQueryResult, useQueries } from '@tanstack/react-query';
import { Alert, Form, Modal, Select, TreeSelect } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { METADATA_STALE_MS, thingAbilitiesQuery } from '../../../api/things.ts';
import type { ExploreCatalog } from '../hooks/catalog.ts';
import { abilityThing, pickableAbilities, pickedResource, pickerTree } from '../lib/catalog.ts';

interface Picked {
  resources: string[];
  metrics: string[];
}

const combine = (results: UseQueryResult<EffectiveAbility[]>[]) => results.map((r) => r.data ?? []);

/**
 * Adds series to a panel: devices or regions (several), then metrics from their abilities with
 * names and units. Each chosen resource gets each chosen metric it has.
 */
export function SeriesPicker({
  open,
  panel,
  catalog,
  onAdd,
  onClose,
}: {
  open: boolean;
  /** 1-based, for the title. */
  panel: number;
  catalog: ExploreCatalog;
  onAdd: (series: ExploreSeries[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Picked>();
  const [none, setNone] = useState(false);
  const chosen = Form.useWatch('resources', form) ?? [];
  const resources = useMemo(
    () =>
      chosen
        .map(pickedResource)
        .filter((r): r is NonNullable<ReturnType<typeof pickedResource>> => r !== null),
    [chosen],
  );
  const abilityThings = useMemo(
    () => [
      ...new Set(
        resources
          .map((r) => abilityThing({ ...r, metric: '-' }, catalog.index))
          .filter((id): id is number => id !== null),
      ),
    ],
    [resources, catalog.index],
  );
  const lists = useQueries({
    queries: abilityThings.map((id) => ({ ...thingAbilitiesQuery(id), staleTime: METADATA_STALE_MS })),
    combine,
  });
  const abilities = useMemo(() => pickableAbilities(lists), [lists]);
  const tree = useMemo(
    () => pickerTree(catalog.tree, catalog.unbound, t('explore.picker.unbound')),
    [catalog.tree, catalog.unbound, t],
  );

  const onFinish = ({ metrics }: Picked) => {
    const has = new Map(
      abilityThings.map((id, i) => [id, new Set((lists[i] ?? []).map((a) => a.identifier))]),
    );
    const series = resources.flatMap((r) => {
      const thing = abilityThing({ ...r, metric: '-' }, catalog.index);
      const own = thing === null ? undefined : has.get(thing);
      return metrics.filter((m) => own?.has(m)).map((metric) => ({ ...r, metric }));
    });
    if (!series.length) {
      setNone(true);
      return;
    }
    onAdd(series);
    form.resetFields();
    setNone(false);
  };

  return (
    <Modal
      open={open}
      title={t('explore.picker.title', { n: panel })}
      okText={t('explore.picker.add')}
      cancelText={t('explore.views.cancel')}
      onOk={() => form.submit()}
      onCancel={() => {
        setNone(false);
        onClose();
      }}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={onFinish} onValuesChange={() => setNone(false)}>
        <Form.Item
          name="resources"
          label={t('explore.picker.resources')}
          extra={t('explore.picker.resourcesHint')}
          rules={[{ required: true, message: t('explore.picker.required') }]}
        >
          <TreeSelect
            multiple
            showSearch
            treeNodeFilterProp="title"
            // A search stays after a pick, so several of its matches are picked one after another.
            autoClearSearchValue={false}
            treeData={tree}
            treeDefaultExpandAll={false}
            allowClear
            maxTagCount="responsive"
            aria-label={t('explore.picker.resources')}
            data-testid="explore-resources"
            popupMatchSelectWidth
          />
        </Form.Item>
        <Form.Item
          name="metrics"
          label={t('explore.picker.metrics')}
          rules={[{ required: true, message: t('explore.picker.required') }]}
        >
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            disabled={!resources.length}
            placeholder={resources.length ? undefined : t('explore.picker.metricsHint')}
            aria-label={t('explore.picker.metrics')}
            data-testid="explore-metrics"
            options={abilities.map((a) => ({
              value: a.identifier,
              label: a.unit ? `${a.name} (${a.unit})` : a.name,
            }))}
          />
        </Form.Item>
        {none && <Alert type="warning" showIcon title={t('explore.picker.none')} />}
      </Form>
    </Modal>
  );
}
