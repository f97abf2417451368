import { echarts } from './echarts.ts';

/** The ECharts instance drawn inside `root` (echarts-for-react's element), if any. */
export function chartIn(root: HTMLElement | null) {
  const el = root?.querySelector<HTMLElement>('.echarts-for-react');
  return el ? echarts.getInstanceByDom(el) : undefined;
}
