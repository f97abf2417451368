import type { ExploreSeries, QueryResult } from '@kilowatch/contract';
import { keepPreviousData, type UseQueryResult, useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { keys } from '../../../api/keys.ts';
import { fetchMetricData } from '../../../api/telemetry.ts';
import { perBucketName } from '../../../components/charts/labels.ts';
import { buildSeries, type ChartSeries } from '../../../components/charts/series.ts';
import { paletteColor } from '../../../components/charts/theme.ts';
import { resourceName } from '../lib/catalog.ts';
import { isCounterAbility, seriesQuery } from '../lib/query.ts';
import type { ExploreCatalog } from './catalog.ts';

const combineAnswers = (results: UseQueryResult<QueryResult>[]) => ({
  answers: results.map((r) => r.data),
  fetching: results.some((r) => r.isFetching),
  error: results.find((r) => r.error)?.error ?? null,
});

/**
 * One panel's lines: one query per series over the range, named `device · metric` (a counter
 * `device · metric per 5 min`, the width the server picked), coloured in panel order.
 */
export function usePanelSeries(
  series: readonly ExploreSeries[],
  range: { start: number; end: number },
  catalog: ExploreCatalog,
) {
  const { t } = useTranslation();
  const ready = !catalog.pending;
  const results = useQueries({
    queries: series.map((s) => {
      const query = seriesQuery(s, catalog.abilityOf(s), range);
      return {
        queryKey: keys.telemetry.data(query),
        queryFn: ({ signal }: { signal: AbortSignal }) => fetchMetricData(query, { signal }),
        enabled: ready,
        placeholderData: keepPreviousData,
      };
    }),
    combine: combineAnswers,
  });
  const lines = useMemo<ChartSeries[]>(
    () =>
      series.flatMap((s, i) => {
        const answer = results.answers[i];
        if (!answer) return [];
        const ability = catalog.abilityOf(s);
        const metric = ability?.name ?? s.metric;
        const counter = isCounterAbility(ability);
        const label = counter && answer.bucket ? perBucketName(t, metric, answer.bucket) : metric;
        const name = `${resourceName(s, catalog.index)} · ${label}`;
        return buildSeries(answer.result, {
          name,
          unit: ability?.unit || answer.unit,
          color: paletteColor(i),
          totalName: `${name} · ${t('charts.total')}`,
          label: (g) => `${name} · ${g}`,
          counter,
        });
      }),
    [series, results.answers, catalog, t],
  );
  return { lines, fetching: results.fetching, error: results.error };
}
