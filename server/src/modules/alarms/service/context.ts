import type {
  AlarmActionBody,
  AlarmCondition,
  AlarmDetail,
  AlarmHistoryItem,
  AlarmRule,
  AlarmRuleInput,
  CategoryAbility,
} from '@kilowatch/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/index.ts';
import { AppError } from '../../../errors.ts';
import { stateCode } from '../engine/state.ts';
import * as repo from '../repository/index.ts';

// What every part of the alarms service shares: its dependencies, the checks of a rule, and how
// rules and history rows become what the API answers.

/** What the alarms service needs of the catalog (modules/catalog): categories, their abilities, targets. */
export interface AlarmCatalog {
  categoryAbilities(categoryId: number): Promise<CategoryAbility[]>;
  categoryNames(ids: readonly number[]): Promise<ReadonlyMap<number, string>>;
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
export const BACKTEST_MAX_POINTS = 518_400;
/** The backtest's engine run, off the event loop. */
export const BACKTEST_WORKER = new URL('../engine/backtest-worker.ts', import.meta.url);
/** Points read from the store at once for a backtest (each becomes an object there). */
export const BACKTEST_READ_POINTS = 50_000;
/** Points drawn on the backtest chart. */
export const BACKTEST_CHART_POINTS = 2_000;

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
export interface AbilityLabel {
  name: string;
  unit: string;
  states: ReadonlyMap<string, string>;
}

export const notFound = () => new AppError('NOT_FOUND', 404);
export const iso = (ms: number) => new Date(ms).toISOString();

const NUMERIC_KINDS: ReadonlySet<AlarmCondition['kind']> = new Set(['threshold', 'range', 'rate']);

/** The shared state and helpers of one alarms service, built once by createAlarmsService. */
export function serviceContext(deps: AlarmsDeps) {
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
    if (!(await catalog.categoryNames([categoryId])).has(categoryId))
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
    db,
    catalog,
    now,
    deps,
    changed,
    checkRule,
    thingsCovered,
    rulesOut,
    getRule,
    checkCategory,
    historyOut,
    describe,
    getAlarm,
  };
}

export type ServiceContext = ReturnType<typeof serviceContext>;
