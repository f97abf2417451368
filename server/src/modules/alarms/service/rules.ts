import type {
  AlarmRule,
  AlarmRuleInput,
  AlarmRuleQuery,
  BacktestBody,
  BacktestResult,
} from '@kilowatch/contract';
import { page as pageOf } from '../../../db/sql.ts';
import { AppError } from '../../../errors.ts';
import { slicer } from '../../../shared/slices.ts';
import { runInWorker } from '../../../shared/worker-pool.ts';
import type { BacktestJob } from '../engine/backtest-worker.ts';
import type { BacktestAlarm } from '../engine/evaluate.ts';
import * as repo from '../repository/index.ts';
import {
  BACKTEST_CHART_POINTS,
  BACKTEST_MAX_POINTS,
  BACKTEST_READ_POINTS,
  BACKTEST_WORKER,
  iso,
  notFound,
  type ServiceContext,
} from './context.ts';

/** Alarm rules: list, check, write, enable. */
export function ruleService(ctx: ServiceContext) {
  const { db, catalog, now, deps, changed, checkRule, rulesOut, getRule } = ctx;
  return {
    async listRules(query: AlarmRuleQuery) {
      const { page, pageSize } = pageOf(query);
      const { list, total } = await repo.listRules(db, { ...query, page, pageSize });
      return { list: await rulesOut(list), total, page, pageSize };
    },

    getRule,

    async createRule(input: AlarmRuleInput): Promise<AlarmRule> {
      await checkRule(input);
      const id = await repo.insertRule(db, { ...input, templateId: input.templateId ?? null }, iso(now()));
      changed();
      return getRule(id);
    },

    async updateRule(id: number, input: AlarmRuleInput): Promise<AlarmRule> {
      if (!(await repo.findRule(db, id))) throw notFound();
      await checkRule(input);
      await repo.updateRule(db, id, { ...input, templateId: input.templateId ?? null }, iso(now()));
      changed();
      return getRule(id);
    },

    async deleteRule(id: number): Promise<void> {
      const deleted = await db.transaction().execute((tx) => repo.deleteRule(tx, id));
      if (!deleted) throw notFound();
      changed();
    },

    async setRuleState(id: number, action: 'enable' | 'disable'): Promise<AlarmRule> {
      if (!(await repo.setRuleEnabled(db, id, action === 'enable', iso(now())))) throw notFound();
      changed();
      return getRule(id);
    },

    /**
     * What a rule would have raised on one thing over stored history: the same engine as live,
     * over the raw points (numbers only: strings are not stored), with the chart's points thinned.
     */
    async backtest(body: BacktestBody): Promise<BacktestResult> {
      if (body.end <= body.start)
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.backtestRange' });
      await checkRule(body.rule);
      const thing = await catalog.select({ resourceType: 'thing', id: body.thingId });
      if (body.rule.categoryId !== null && thing.things[0]?.categoryId !== body.rule.categoryId) {
        throw new AppError('UNPROCESSABLE', 422, {}, { message: 'alarm.backtestCategory' });
      }
      const series = { thingId: body.thingId, metric: body.rule.ability };
      // Read a window at a time into two columns, the loop handed over between windows: the
      // store makes an object of every point, and half a million at once held the loop ~100 ms.
      const at = new Float64Array(BACKTEST_MAX_POINTS + 1);
      const values = new Float64Array(BACKTEST_MAX_POINTS + 1);
      const pause = slicer();
      let count = 0;
      for (let from = body.start; count <= BACKTEST_MAX_POINTS; ) {
        await pause();
        const want = Math.min(BACKTEST_READ_POINTS, BACKTEST_MAX_POINTS + 1 - count);
        const part = await deps.store.points(series, from, body.end, want);
        for (const p of part) {
          at[count] = p.ts;
          values[count++] = p.value;
        }
        if (part.length < want) break;
        from = part[part.length - 1]!.ts + 1;
      }
      const truncated = count > BACKTEST_MAX_POINTS;
      if (truncated) count = BACKTEST_MAX_POINTS;
      const step = Math.max(1, Math.ceil(count / BACKTEST_CHART_POINTS));
      const chart: [number, number][] = [];
      for (let i = 0; i < count; i += step) chart.push([at[i]!, values[i]!]);
      const { condition, onDelay, offDelay, deadband } = body.rule;
      // The engine runs in a worker: half a million points hold a thread for a second or more.
      const sentAt = at.slice(0, count);
      const sentValues = values.slice(0, count);
      const job: BacktestJob = {
        rule: { condition, timing: { onDelay, offDelay, deadband } },
        at: sentAt,
        values: sentValues,
        start: body.start,
        end: truncated ? at[count - 1]! : body.end,
      };
      const alarms = await runInWorker<BacktestAlarm[]>(BACKTEST_WORKER, job, [
        sentAt.buffer,
        sentValues.buffer,
      ]);
      return { alarms, points: chart, truncated };
    },
  };
}
