import { useMemo } from 'react';
import { useUi } from '../../lib/ui-store.ts';
import { type ChartTheme, type ChartVariant, chartTheme } from './theme.ts';

/** Chart height and font for the console's size setting; `card` for small charts in cards. */
export function useChartTheme(variant: ChartVariant = 'full'): ChartTheme {
  const size = useUi((s) => s.size);
  return useMemo(() => chartTheme(size, variant), [size, variant]);
}
