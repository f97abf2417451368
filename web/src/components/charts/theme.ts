import { DEFAULT_THEME_COLOR, type Size } from '@kilowatch/contract';

/** Series colours: the theme colour first (spec §9), then ECharts' own palette. */
const PALETTE = [
  DEFAULT_THEME_COLOR,
  '#91CC75',
  '#FAC858',
  '#EE6666',
  '#73C0DE',
  '#3BA272',
  '#FC8452',
  '#9A60B4',
  '#EA7CCC',
] as const;

/** Colour of the n-th series. */
export const paletteColor = (index: number): string => PALETTE[index % PALETTE.length]!;

export type ChartVariant = 'card' | 'full';

export interface ChartTheme {
  height: number;
  fontSize: number;
  /** Space around the plot, in px. */
  grid: { top: number; right: number; bottom: number; left: number };
}

const HEIGHTS: Record<ChartVariant, Record<Size, number>> = {
  card: { medium: 220, small: 200, mini: 180 },
  full: { medium: 420, small: 380, mini: 340 },
};

/** Chart dimensions for the console's size setting (medium, small, mini). */
export function chartTheme(size: Size, variant: ChartVariant): ChartTheme {
  const fontSize = size === 'mini' ? 11 : 12;
  return {
    height: HEIGHTS[variant][size],
    fontSize,
    grid:
      variant === 'card'
        ? { top: 36, right: 16, bottom: 24, left: 16 }
        : { top: 48, right: 24, bottom: 64, left: 24 },
  };
}
