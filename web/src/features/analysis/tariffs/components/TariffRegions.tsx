import type { RegionNode, Tariff } from '@kilowatch/contract';
import { Button, Card, Flex, Space, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegionTree } from '../../../../api/regions.ts';
import { useRegionTariffs, useSetTariffRegions, useTariffs } from '../../../../api/tariffs.ts';
import { notify } from '../../../../lib/notify.ts';

interface RegionOption {
  value: number;
  title: string;
  children: RegionOption[];
}

/** Regions only (no meters), each saying the other tariff it has now, if any. */
const regionOptions = (
  nodes: readonly RegionNode[],
  otherTariff: (regionId: number) => string | undefined,
  t: (k: string, p?: Record<string, unknown>) => string,
): RegionOption[] =>
  nodes
    .filter((n) => n.resourceType !== 'thing')
    .map((n) => {
      const other = otherTariff(n.id);
      return {
        value: n.id,
        title: other ? t('tariffs.regions.hasOther', { name: n.name, tariff: other }) : n.name,
        children: regionOptions(n.children, otherTariff, t),
      };
    });

/**
 * The regions priced with this tariff (docs/tariffs.md "A region's tariff"): a region's bill and
 * cost use its own tariff, else its nearest ancestor's, else the plant's.
 */
export function TariffRegions({ tariff, canEdit }: { tariff: Tariff; canEdit: boolean }) {
  const { t } = useTranslation();
  const tree = useRegionTree({});
  const own = useRegionTariffs();
  const tariffs = useTariffs();
  const save = useSetTariffRegions();
  const current = useMemo(
    () => (own.data ?? []).filter((r) => r.tariffId === tariff.id).map((r) => r.regionId),
    [own.data, tariff.id],
  );
  const [draft, setDraft] = useState<{ tariffId: number; ids: number[] } | null>(null);
  const chosen = draft?.tariffId === tariff.id ? draft.ids : current;
  const options = useMemo(() => {
    const names = new Map((tariffs.data ?? []).map((x) => [x.id, x.name]));
    const byRegion = new Map((own.data ?? []).map((r) => [r.regionId, r.tariffId]));
    const otherTariff = (regionId: number) => {
      const id = byRegion.get(regionId);
      return id === undefined || id === tariff.id ? undefined : names.get(id);
    };
    return regionOptions(tree.data ?? [], otherTariff, t);
  }, [tree.data, own.data, tariffs.data, tariff.id, t]);
  const changed = chosen.length !== current.length || chosen.some((id) => !current.includes(id));

  const onSave = () =>
    save.mutate(
      { id: tariff.id, regionIds: chosen },
      {
        onSuccess: () => {
          setDraft(null);
          notify.success(t('tariffs.regions.saved', { name: tariff.name }));
        },
      },
    );

  return (
    <Card size="small" title={t('tariffs.regions.title')}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('tariffs.regions.help')}</Typography.Text>
        {/* A flex row, not a Space: a Space item sizes to its content, so the select's maxWidth of
            100% never held it inside a phone's card. */}
        <Flex wrap gap="small" style={{ width: '100%' }}>
          <TreeSelect<number[]>
            aria-label={t('tariffs.regions.title')}
            data-testid="tariff-regions"
            multiple
            treeDefaultExpandAll
            disabled={!canEdit}
            style={{ flex: '1 1 240px', maxWidth: 420, minWidth: 0 }}
            placeholder={t('tariffs.regions.none')}
            treeData={options}
            value={chosen}
            onChange={(ids) => setDraft({ tariffId: tariff.id, ids: ids ?? [] })}
            showSearch
            treeNodeFilterProp="title"
          />
          <Button type="primary" disabled={!canEdit || !changed} loading={save.isPending} onClick={onSave}>
            {t('tariffs.regions.save')}
          </Button>
        </Flex>
      </Space>
    </Card>
  );
}
