import { type BacktestAlarm, backtest, type EngineRule } from './evaluate.ts';

/** A backtest's input as it crosses to the worker: the points as two transferred columns. */
export interface BacktestJob {
  rule: EngineRule;
  at: Float64Array;
  values: Float64Array;
  start: number;
  end: number;
}

/** Runs in the worker pool (shared/worker-pool.ts): the engine over the stored points. */
export default function run({ rule, at, values, start, end }: BacktestJob): BacktestAlarm[] {
  const points = Array.from(at, (ts, i) => ({ at: ts, value: values[i] as number }));
  return backtest(rule, points, start, end);
}
