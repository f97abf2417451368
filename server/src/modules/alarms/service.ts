import type {
  AlarmActionBody,
  AlarmCondition,
  AlarmDetail,
  AlarmHealthQuery,
  AlarmHistoryItem,
  AlarmHistoryQuery,
  AlarmMonitorQuery,
  AlarmRule,
  AlarmRuleInput,
  AlarmRuleQuery,
  AlarmSpanList,
  AlarmTemplateInput,
  AlarmTemplateQuery,
  BacktestBody,
  BacktestResult,
  CategoryAbility,
  MaintenanceInput,
  MaintenanceQuery,
  MaintenanceWindow,
  MonitorBatch,
  OutOfServiceEntry,
  OutOfServiceInput,
  OutOfServiceQuery,
  ThingEventList,
} from '@kilowatch/contract';
import { HEALTH_MAX_RANGE_MS, MAX_SPANS, MAX_THING_EVENTS } from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/index.ts';
import { isUniqueViolation, page as pageOf } from '../../db/sql.ts';
import { AppError } from '../../errors.ts';
import { slicer } from '../../shared/slices.ts';
import { runInWorker } from '../../shared/worker-pool.ts';
import type { BacktestJob } from './engine/backtest-worker.ts';
import type { BacktestAlarm } from './engine/evaluate.ts';
import { applyAction, stateCode, takenOutOfService } from './engine/state.ts';
import { alarmHealth } from './health.ts';
import * as oos from './out-of-service.ts';
import * as repo from './repository/index.ts';

/** What the alarms service needs of the catalog (modules/catalog): category abilities, and targets. */
export interface AlarmCatalog {
  categoryAbilities(categoryId: number): Promise<CategoryAbility[]>;
  select(selection: {
    resourceType: 'thing' | 'region';
    id: number;
    successor?: boolean;
    ability?: string;
  }): Promise<{
    name: string;
    things: readonly { id: number; name: string; categoryId?: number }[];
    /** Each thing's effective abilities (the unit an alarm message names). */
    abilities?: ReadonlyMap<number, readonly { identifier: string; unit: string }[]>;
  }>;
}

/** What the backtest reads of the telemetry store. */
interface AlarmHistoryReader {
  points(
    series: { thingId: number; metric: string },
    start: number,
    end: number,
    limit: number,
  ): Promise<{ ts: number; value: number }[]>;
}

/** A backtest reads at most this many raw points (30 days of 5 s data). */
const BACKTEST_MAX_POINTS = 518_400;
/** The backtest's engine run, off the event loop. */
const BACKTEST_WORKER = new URL('./engine/backtest-worker.ts', import.meta.url);
/** Points read from the store at once for a backtest (each becomes an object there). */
const BACKTEST_READ_POINTS = 50_000;
/** Points drawn on the backtest chart. */
const BACKTEST_CHART_POINTS = 2_000;

export interface AlarmsDeps {
  db: Kysely<DB>;
  catalog: AlarmCatalog;
  store: AlarmHistoryReader;
  now: () => number;
  /** Told after every change of rules, templates or monitors (the engine reloads what it watches). */
  onChange?: () => void;
  /** Told after an operator's action is written (notifications hang here; it must not wait). */
  onAction?: (action: {
    alarmId: number;
    action: AlarmActionBody['action'];
    username: string;
    comment: string;
  }) => void;
}

export interface Actor {
  id: number | null;
  username: string;
}

/** An ability as an alarm's value is read: its name, unit and the names of its states. */
interface AbilityLabel {
  name: string;
  unit: string;
  states: ReadonlyMap<string, string>;
}

const notFound = () => new AppError('NOT_FOUND', 404);
const iso = (ms: number) => new Date(ms).toISOString();

const NUMERIC_KINDS: ReadonlySet<AlarmCondition['kind']> = new Set(['threshold', 'range', 'rate']);

/**
 * Rules, templates, monitors and the alarm history with its operator actions. The engine that raises
 * alarms (runner.ts) writes history through the repository; everything a person does goes through here.
 */
export function createAlarmsService(deps: AlarmsDeps) {
  const { db, catalog, now } = deps;
  const changed = () => deps.onChange?.();

  /** A rule must watch an ability its category has, with a condition that fits the ability's type. */
  async function checkRule(input: AlarmRuleInput): Promise<void> {
    const c = input.condition;
    if (c.kind === 'range' && !(c.low < c.high)) {
      throw new AppError('VALIDATION', 400, {}, { message: 'alarm.rangeOrder' });
    }
    if (input.templateId != null) {
      const template = await repo.findTemplate(db, input.templateId);
      if (!template)
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { id: input.templateId },
          { message: 'alarm.templateUnknown' },
        );
      if (input.categoryId !== template.categoryId) {
        throw new AppError('UNPROCESSABLE', 422, {}, { message: 'alarm.templateCategory' });
      }
    }
    if (input.categoryId === null) return;
    const abilities = await catalog.categoryAbilities(input.categoryId);
    const ability = abilities.find((a) => a.identifier === input.ability);
    if (!ability) {
      throw new AppError(
        'UNPROCESSABLE',
        422,
        { ability: input.ability },
        { message: 'alarm.abilityUnknown' },
      );
    }
    if (NUMERIC_KINDS.has(c.kind) && ability.dataType !== 'number') {
      throw new AppError(
        'UNPROCESSABLE',
        422,
        { ability: input.ability },
        { message: 'alarm.abilityNotNumeric' },
      );
    }
  }

  /**
   * How many things each rule's monitors cover now. A page of rules often shares targets (a template
   * applied to a region): each (target, ability) is resolved once for the whole page.
   */
  async function thingsCovered(rules: readonly repo.RuleRecord[]): Promise<Map<number, number>> {
    const monitors = await repo.monitorsApplying(db, {
      ruleIds: rules.map((r) => r.id),
      templateIds: rules.flatMap((r) => (r.templateId === null ? [] : [r.templateId])),
    });
    const resolved = new Map<string, Promise<readonly number[]>>();
    const thingsOf = (m: repo.MonitorRecord, ability: string) => {
      const key = `${m.targetType}:${m.targetId}:${ability}`;
      let ids = resolved.get(key);
      if (!ids) {
        ids = catalog.select({ resourceType: m.targetType, id: m.targetId, successor: true, ability }).then(
          (r) => r.things.map((t) => t.id),
          // A target deleted since: it covers nothing.
          () => [],
        );
        resolved.set(key, ids);
      }
      return ids;
    };
    const counts = new Map<number, number>();
    for (const rule of rules) {
      const ids = new Set<number>();
      for (const m of monitors) {
        const applies = m.appliedType === 'rule' ? m.appliedId === rule.id : rule.templateId === m.appliedId;
        if (applies) for (const id of await thingsOf(m, rule.ability)) ids.add(id);
      }
      counts.set(rule.id, ids.size);
    }
    return counts;
  }

  async function rulesOut(records: readonly repo.RuleRecord[]): Promise<AlarmRule[]> {
    const covered = await thingsCovered(records);
    return records.map((r) => ({ ...r, things: covered.get(r.id) ?? 0 }));
  }

  async function getRule(id: number): Promise<AlarmRule> {
    const rule = await repo.findRule(db, id);
    if (!rule) throw notFound();
    return (await rulesOut([rule]))[0]!;
  }

  async function checkCategory(categoryId: number): Promise<void> {
    const found = await db
      .selectFrom('thing_categories')
      .select('id')
      .where('id', '=', categoryId)
      .executeTakeFirst();
    if (!found)
      throw new AppError('UNPROCESSABLE', 422, { id: categoryId }, { message: 'alarm.categoryUnknown' });
  }

  function historyOut(r: repo.HistoryRecord, ability: string, label?: AbilityLabel): AlarmHistoryItem {
    const at = now();
    return {
      id: r.id,
      ruleId: r.ruleId,
      ruleName: r.ruleName,
      templateName: r.templateName,
      resourceType: r.resourceType,
      resourceId: r.resourceId,
      resourceName: r.resourceName,
      thingId: r.thingId,
      thingName: r.thingName,
      ability,
      ...(label
        ? {
            abilityName: label.name,
            unit: label.unit,
            ...(label.states.get(r.value) ? { valueName: label.states.get(r.value) } : {}),
          }
        : {}),
      severity: r.severity,
      message: r.message,
      value: r.value,
      alarmAt: iso(r.alarmAt),
      returnedAt: r.returnedAt === null ? null : iso(r.returnedAt),
      state: stateCode(r.status, at),
      shelvedUntil: r.status.shelvedUntil === null ? null : iso(r.status.shelvedUntil),
      chattering: r.status.chattering,
      occurrences: r.status.occurrences,
    };
  }

  /**
   * The watched ability of each alarm's rule (history keeps names, not the rule's ability), with
   * its name, unit and state names in the thing's category: a value reads "有功功率 25.12 kW".
   */
  async function describe(records: readonly repo.HistoryRecord[]): Promise<AlarmHistoryItem[]> {
    const rules = new Map<number, { ability: string; categoryId: number | null }>();
    const thingCategories = new Map<number, number | undefined>();
    const categoryAbilities = new Map<number, Promise<CategoryAbility[]>>();
    const labels: (AbilityLabel | undefined)[] = [];
    for (const r of records) {
      if (!rules.has(r.ruleId)) {
        const rule = await repo.findRule(db, r.ruleId);
        rules.set(r.ruleId, { ability: rule?.ability ?? '', categoryId: rule?.categoryId ?? null });
      }
      const rule = rules.get(r.ruleId)!;
      let categoryId = rule.categoryId ?? thingCategories.get(r.thingId);
      if (categoryId === undefined && !thingCategories.has(r.thingId)) {
        const selected = await catalog.select({ resourceType: 'thing', id: r.thingId }).catch(() => null);
        categoryId = selected?.things[0]?.categoryId;
        thingCategories.set(r.thingId, categoryId);
      }
      if (categoryId === undefined) {
        labels.push(undefined);
        continue;
      }
      let abilities = categoryAbilities.get(categoryId);
      if (!abilities) {
        abilities = catalog.categoryAbilities(categoryId);
        categoryAbilities.set(categoryId, abilities);
      }
      const found = (await abilities).find((a) => a.identifier === rule.ability);
      labels.push(
        found && {
          name: found.name,
          unit: found.unit,
          states: new Map(found.enumOptions.map((o) => [o.value, o.label])),
        },
      );
    }
    return records.map((r, i) => historyOut(r, rules.get(r.ruleId)?.ability ?? '', labels[i]));
  }

  async function getAlarm(id: number): Promise<AlarmDetail> {
    const record = await repo.findHistory(db, id);
    if (!record) throw notFound();
    const [item] = await describe([record]);
    const rule = await repo.findRule(db, record.ruleId);
    return {
      ...item!,
      actions: await repo.actionsOf(db, id),
      ...(rule ? { condition: rule.condition } : {}),
    };
  }

  return {
    // ---- rules ----
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

    // ---- templates ----
    async listTemplates(query: AlarmTemplateQuery) {
      const { page, pageSize } = pageOf(query);
      return { ...(await repo.listTemplates(db, { ...query, page, pageSize })), page, pageSize };
    },

    async createTemplate(input: AlarmTemplateInput) {
      await checkCategory(input.categoryId);
      try {
        const id = await repo.insertTemplate(db, input, iso(now()));
        return (await repo.findTemplate(db, id))!;
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('CONFLICT', 409, { name: input.name }, { message: 'alarm.templateExists' });
        throw error;
      }
    },

    async updateTemplate(id: number, input: AlarmTemplateInput) {
      const current = await repo.findTemplate(db, id);
      if (!current) throw notFound();
      await checkCategory(input.categoryId);
      if (current.categoryId !== input.categoryId && current.rules > 0) {
        throw new AppError('CONFLICT', 409, {}, { message: 'alarm.templateHasRules' });
      }
      try {
        await repo.updateTemplate(db, id, input, iso(now()));
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('CONFLICT', 409, { name: input.name }, { message: 'alarm.templateExists' });
        throw error;
      }
      changed();
      return (await repo.findTemplate(db, id))!;
    },

    async deleteTemplate(id: number): Promise<void> {
      const deleted = await db.transaction().execute((tx) => repo.deleteTemplate(tx, id));
      if (!deleted) throw notFound();
      changed();
    },

    checkCategory,

    // ---- monitors ----
    async listMonitors(query: AlarmMonitorQuery) {
      const { page, pageSize } = pageOf(query);
      return { ...(await repo.listMonitors(db, { ...query, page, pageSize })), page, pageSize };
    },

    /** Applies a rule or template to things and regions; answers how many monitors are new. */
    async applyMonitors(batch: MonitorBatch): Promise<{ created: number }> {
      const applied =
        batch.appliedType === 'rule'
          ? await repo.findRule(db, batch.appliedId)
          : await repo.findTemplate(db, batch.appliedId);
      if (!applied)
        throw new AppError(
          'UNPROCESSABLE',
          422,
          { id: batch.appliedId },
          { message: 'alarm.appliedUnknown' },
        );
      for (const target of batch.targets) {
        // The target's own service answers 404 for one that does not exist.
        await catalog.select({ resourceType: target.type, id: target.id });
      }
      const created = await repo.insertMonitors(
        db,
        { type: batch.appliedType, id: batch.appliedId },
        batch.targets,
        iso(now()),
      );
      if (created > 0) changed();
      return { created };
    },

    async deleteMonitor(id: number): Promise<void> {
      if (!(await repo.deleteMonitor(db, id))) throw notFound();
      changed();
    },

    // ---- maintenance windows ----
    async listMaintenance(query: MaintenanceQuery) {
      const { page, pageSize } = pageOf(query);
      return {
        ...(await repo.listMaintenance(db, { page, pageSize, openAt: query.openAt })),
        page,
        pageSize,
      };
    },

    async createMaintenance(input: MaintenanceInput, createdBy: string): Promise<MaintenanceWindow> {
      if (input.end <= input.start) {
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.maintenanceRange' });
      }
      // The target's own service answers 404 for one that does not exist.
      await catalog.select({ resourceType: input.targetType, id: input.targetId });
      const id = await repo.insertMaintenance(
        db,
        { ...input, reason: input.reason.trim() },
        iso(now()),
        createdBy,
      );
      return (await repo.findMaintenance(db, id))!;
    },

    async deleteMaintenance(id: number): Promise<void> {
      if (!(await repo.deleteMaintenance(db, id))) throw notFound();
    },

    // ---- history ----
    async listHistory(query: AlarmHistoryQuery) {
      const { page, pageSize } = pageOf(query);
      const { list, size } = await repo.listHistory(db, { ...query, page, pageSize }, now());
      return { list: await describe(list), size, hasNextPage: page * pageSize < size };
    },

    getAlarm,

    /** One device's event log (docs/alarms.md, "A device's event log"). */
    async thingEvents(thingId: number, start: number, end: number): Promise<ThingEventList> {
      const events = await repo.listThingEvents(db, thingId, start, end, MAX_THING_EVENTS + 1);
      return { list: events.slice(0, MAX_THING_EVENTS), truncated: events.length > MAX_THING_EVENTS };
    },

    /** The alarms charts draw over a range (docs/alarms.md, "Alarms on charts"). */
    async spans(thingIds: readonly number[], start: number, end: number): Promise<AlarmSpanList> {
      const records = await repo.listSpans(db, thingIds, start, end, MAX_SPANS + 1);
      const kept = records.slice(-MAX_SPANS);
      const described = await describe(kept);
      return {
        truncated: records.length > MAX_SPANS,
        list: kept.map((r, i) => ({
          id: r.id,
          thingId: r.thingId,
          thingName: r.thingName,
          ruleName: r.ruleName,
          ability: described[i]!.ability,
          severity: r.severity,
          message: r.message,
          value: r.value,
          alarmAt: r.alarmAt,
          returnedAt: r.returnedAt,
          active: r.status.active && !r.status.closed,
        })),
      };
    },

    /** Active alarms by thing and severity (the situation overview; docs/dashboard.md). */
    activeAlarms: () => repo.listActive(db, now()),

    // ---- out of service ----
    async listOutOfService(query: OutOfServiceQuery) {
      const { page, pageSize, limit, offset } = pageOf(query);
      return { ...(await oos.listOutOfService(db, { ...query, limit, offset })), page, pageSize };
    },

    /**
     * Takes a rule on one thing, or a monitor, out of service: the engine stops watching it (the
     * runner reloads), and an alarm of it still open is closed with the reason in its trail.
     */
    async takeOutOfService(input: OutOfServiceInput, actor: Actor): Promise<OutOfServiceEntry> {
      const reason = input.reason.trim();
      if (!reason) throw new AppError('VALIDATION', 400, {}, { message: 'alarm.outOfServiceReason' });
      const pair = input.ruleId !== undefined || input.thingId !== undefined;
      const whole = input.ruleId !== undefined && input.thingId !== undefined;
      if (input.monitorId !== undefined ? pair : !whole) {
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.outOfServiceTarget' });
      }
      const target = {
        ruleId: input.ruleId ?? null,
        thingId: input.thingId ?? null,
        monitorId: input.monitorId ?? null,
      };
      let name: string;
      if (target.monitorId !== null) {
        const monitor = (await repo.listMonitors(db, { page: 1, pageSize: 1, id: target.monitorId })).list[0];
        if (!monitor)
          throw new AppError(
            'UNPROCESSABLE',
            422,
            { id: target.monitorId },
            { message: 'alarm.monitorUnknown' },
          );
        name = `${monitor.appliedName} → ${monitor.targetName}`;
      } else {
        const rule = await repo.findRule(db, target.ruleId!);
        if (!rule)
          throw new AppError(
            'UNPROCESSABLE',
            422,
            { id: target.ruleId! },
            { message: 'alarm.appliedUnknown' },
          );
        // The thing's own service answers 404 for one that does not exist.
        const thing = await catalog.select({ resourceType: 'thing', id: target.thingId! });
        name = `${rule.name} · ${thing.things[0]?.name ?? thing.name}`;
      }
      const at = now();
      const id = await db.transaction().execute(async (tx) => {
        if (await oos.sameTarget(tx, target))
          throw new AppError('CONFLICT', 409, { name }, { message: 'alarm.outOfServiceExists' });
        const entryId = await oos.insertOutOfService(
          tx,
          { ...target, name, reason, userId: actor.id, username: actor.username },
          iso(at),
        );
        for (const { id: alarmId } of await oos.openCovered(tx, target)) {
          const record = (await repo.findHistory(tx, alarmId))!;
          await repo.updateHistory(tx, alarmId, { status: takenOutOfService(record.status) }, iso(at));
          await repo.insertAction(
            tx,
            {
              historyId: alarmId,
              action: 'close',
              userId: actor.id,
              username: actor.username,
              comment: reason,
              until: null,
            },
            iso(at),
          );
        }
        return entryId;
      });
      changed();
      return (await oos.findOutOfService(db, id))!;
    },

    /** Returns to service: the engine watches it again from now, as if newly monitored. */
    async returnToService(id: number): Promise<void> {
      if (!(await oos.deleteOutOfService(db, id))) throw notFound();
      changed();
    },

    /** The alarm system's health over a range (EEMUA 191; health.ts). */
    async health(query: AlarmHealthQuery) {
      if (query.endTime <= query.startTime)
        throw new AppError('VALIDATION', 400, {}, { message: 'alarm.healthRange' });
      if (query.endTime - query.startTime > HEALTH_MAX_RANGE_MS)
        throw new AppError('VALIDATION', 400, { days: 31 }, { message: 'alarm.healthRangeTooLong' });
      return alarmHealth(db, query.startTime, query.endTime, now());
    },

    /** An operator's action; a refusal is a 409 saying why, and nothing is written. */
    async act(id: number, body: AlarmActionBody, actor: Actor): Promise<AlarmDetail> {
      await db.transaction().execute(async (tx) => {
        const record = await repo.findHistory(tx, id);
        if (!record) throw notFound();
        const at = now();
        const result = applyAction(record.status, { type: body.action, until: body.until }, at);
        if (!result.ok) {
          const status = result.reason === 'shelveUntilInvalid' ? 400 : 409;
          throw new AppError(
            status === 400 ? 'VALIDATION' : 'CONFLICT',
            status,
            {},
            { message: `alarm.refused.${result.reason}` },
          );
        }
        if (result.status !== record.status)
          await repo.updateHistory(tx, id, { status: result.status }, iso(at));
        await repo.insertAction(
          tx,
          {
            historyId: id,
            action: body.action,
            userId: actor.id,
            username: actor.username,
            comment: body.comment ?? '',
            until: body.action === 'shelve' ? (body.until ?? null) : null,
          },
          iso(at),
        );
      });
      deps.onAction?.({
        alarmId: id,
        action: body.action,
        username: actor.username,
        comment: body.comment ?? '',
      });
      return getAlarm(id);
    },
  };
}

export type AlarmsService = ReturnType<typeof createAlarmsService>;
