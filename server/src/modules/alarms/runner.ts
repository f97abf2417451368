import type { LiveValue } from '@kilowatch/contract';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/index.ts';
import type { LiveBatch } from '../../live/index.ts';
import {
  type EngineRule,
  newTrack,
  pointInPlace,
  type Track,
  type Transition,
  tickInPlace,
} from './engine/evaluate.ts';
import { fillMessage } from './engine/message.ts';
import { raised, reraised, returned } from './engine/state.ts';
import { allOutOfService, covers } from './out-of-service.ts';
import { createRecentValues } from './recent-values.ts';
import * as repo from './repository/index.ts';
import type { AlarmCatalog } from './service/index.ts';

export interface AlarmRunnerDeps {
  db: Kysely<DB>;
  catalog: AlarmCatalog;
  live: {
    subscribe(fn: (batch: LiveBatch) => void): () => void;
    /** The newest value of a series the hub has seen (every replica's hub sees every replica's). */
    latest?(series: { thingId: number; metric: string }): LiveValue | undefined;
  };
  now: () => number;
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  /**
   * Whether this process evaluates a monitor (cluster/: one replica per monitor). Every monitor
   * when left out.
   */
  owns?: (monitorId: number) => boolean;
  /**
   * Keeps each watch's delays and recent raises in the database (alarm_timers) whenever they
   * change, and resumes them on load: replicas set it, so a monitor taken over mid-delay raises on
   * time (docs/cluster.md). One process keeps them in memory only.
   */
  keepTimers?: boolean;
  /** How often delays and silence are checked, ms. */
  tickMs?: number;
  /** Told after each alarm written (the tests wait on it; notifications will hang here). */
  /**
   * A raise or return was written. `quiet` when the alarm was already flagged chattering: its
   * grouped re-raises and returns are history, not news (ISA-18.2: a chattering alarm is a nuisance
   * to fix, not to page someone about on every flap).
   */
  onWritten?: (transition: Transition & { alarmId: number; quiet: boolean }) => void;
  /** Writes the notifications of a raise or return inside the transaction that wrote it. */
  recordNotifications?: (
    tx: Transaction<DB>,
    written: { type: 'raise' | 'return'; alarmId: number; quiet: boolean },
  ) => Promise<void>;
}

/** One rule watching one metric of one thing, through one monitor. */
interface Watch {
  key: string;
  monitor: repo.MonitorRecord;
  rule: repo.RuleRecord;
  engine: EngineRule;
  thingId: number;
  thingName: string;
  resourceName: string;
  /** The region a region monitor names, '' for a thing monitor. */
  regionName: string;
  unit: string;
  track: Track;
}

/**
 * How long a replica keeps the values of monitors it does not own: beyond the 15 s within which a
 * dead replica's partitions are taken again (measured 1–2.5 s, docs/cluster.md).
 */
const REPLAY_MS = 20_000;

const keyOf = (monitorId: number, ruleId: number, thingId: number) => `${monitorId}:${ruleId}:${thingId}`;

/** A watch's timer state as it is now, to be written. */
function timerOf(w: Watch): repo.TimerRecord {
  const t = w.track;
  return {
    monitorId: w.monitor.id,
    ruleId: w.rule.id,
    thingId: w.thingId,
    holding: t.holding,
    changeSince: t.changeSince,
    lastAt: t.lastAt,
    lastValue: t.lastValue,
    raises: [...t.raises],
  };
}

/**
 * A watch's track resumed from its stored timer state, on top of what its open alarm says. History
 * decides whether the alarm is active: a delay stored before a transition that was written after
 * it (the timer's own write was lost) is spent, not resumed.
 */
function resume(track: Track, timer: repo.TimerRecord): Track {
  const stale = track.lastAt !== null && (timer.lastAt === null || timer.lastAt < track.lastAt);
  if (stale) return { ...track, raises: timer.raises };
  // The state as the dead owner last wrote it, at `timer.lastAt`: points after it are judged again.
  const next = { ...track, raises: timer.raises, lastAt: timer.lastAt, lastValue: timer.lastValue };
  if (timer.changeSince === null || timer.holding === track.active) return next;
  return { ...next, holding: timer.holding, changeSince: timer.changeSince };
}

/**
 * The live alarm engine: it subscribes to the live hub, runs each value of a watched metric through
 * the pure engine, and writes raises and returns to alarm history on a queue of its own, so ingest
 * never waits on it. Timers (on/off delays, no data, shelves running out) tick on the injected clock.
 * After a restart it resumes from history: an alarm still open keeps its condition active, so the
 * same condition is not raised twice, and points older than its last transition are ignored.
 */
export function createAlarmRunner(deps: AlarmRunnerDeps) {
  const { db, catalog, now, log } = deps;
  /** thingId → metric → watches. */
  let byThing = new Map<number, Map<string, Watch[]>>();
  let watches = new Map<string, Watch>();
  let writing: Promise<void> = Promise.resolve();
  let loading: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** Monitors seen at the last load and owned by another replica. */
  let skipped = new Set<number>();
  const recent = deps.keepTimers && deps.owns ? createRecentValues(REPLAY_MS, now) : undefined;

  async function load(): Promise<void> {
    const [rules, monitors, open, outOfService, timers] = await Promise.all([
      repo.enabledRules(db),
      repo.allMonitors(db),
      repo.openHistory(db),
      allOutOfService(db),
      deps.keepTimers ? repo.allTimers(db) : [],
    ]);
    const openByKey = new Map(open.map((h) => [keyOf(h.monitorId, h.ruleId, h.thingId), h]));
    const timerByKey = new Map(timers.map((t) => [keyOf(t.monitorId, t.ruleId, t.thingId), t]));
    const next = new Map<string, Watch>();
    /** Watches of monitors this replica has just taken: they judge the values kept meanwhile. */
    const taken: Watch[] = [];
    const notOwned = new Set<number>();
    for (const monitor of monitors) {
      if (deps.owns && !deps.owns(monitor.id)) {
        notOwned.add(monitor.id);
        continue;
      }
      const applied = rules.filter((r) =>
        monitor.appliedType === 'rule' ? r.id === monitor.appliedId : r.templateId === monitor.appliedId,
      );
      for (const rule of applied) {
        const resolved = await catalog
          .select({
            resourceType: monitor.targetType,
            id: monitor.targetId,
            successor: true,
            ability: rule.ability,
          })
          .catch((error: unknown) => {
            // A monitor whose thing or region was deleted watches nothing until it is removed.
            log.warn({ err: error, monitor: monitor.id }, 'alarm monitor target not found');
            return undefined;
          });
        if (!resolved) continue;
        for (const thing of resolved.things) {
          if (
            rule.categoryId !== null &&
            thing.categoryId !== undefined &&
            thing.categoryId !== rule.categoryId
          ) {
            continue;
          }
          // Out of service: not watched at all, so it neither raises nor rings until returned.
          const pair = { monitorId: monitor.id, ruleId: rule.id, thingId: thing.id };
          if (outOfService.some((entry) => covers(entry, pair))) continue;
          const key = keyOf(monitor.id, rule.id, thing.id);
          const engine: EngineRule = {
            condition: rule.condition,
            timing: { onDelay: rule.onDelay, offDelay: rule.offDelay, deadband: rule.deadband },
          };
          const previous = watches.get(key);
          let track = previous?.track ?? newTrack(now());
          if (!previous) {
            const alarm = openByKey.get(key);
            if (alarm?.status.active) {
              const lastAt = Math.max(alarm.alarmAt, alarm.returnedAt ?? 0);
              track = { ...track, active: true, holding: true, lastAt };
            } else if (alarm?.returnedAt != null) {
              track = { ...track, lastAt: alarm.returnedAt };
            }
            const timer = timerByKey.get(key);
            if (timer) track = resume(track, timer);
            // Taken from a dead replica: a no-data silence runs from the last value anyone heard,
            // not from the takeover, which would put the alarm off by the failover's length.
            if (skipped.has(monitor.id) && rule.condition.kind === 'noData') {
              const heard = deps.live.latest?.({ thingId: thing.id, metric: rule.ability })?.ts;
              if (heard !== undefined) track = { ...track, lastHeard: Math.min(track.lastHeard, heard) };
            }
          }
          const watch: Watch = {
            key,
            monitor,
            rule,
            engine,
            thingId: thing.id,
            thingName: thing.name,
            resourceName: monitor.targetType === 'thing' ? thing.name : resolved.name,
            regionName: monitor.targetType === 'region' ? resolved.name : '',
            unit: resolved.abilities?.get(thing.id)?.find((a) => a.identifier === rule.ability)?.unit ?? '',
            track,
          };
          next.set(key, watch);
          if (!previous && skipped.has(monitor.id)) taken.push(watch);
        }
      }
    }
    const index = new Map<number, Map<string, Watch[]>>();
    for (const w of next.values()) {
      let metrics = index.get(w.thingId);
      if (!metrics) {
        metrics = new Map();
        index.set(w.thingId, metrics);
      }
      const list = metrics.get(w.rule.ability) ?? [];
      list.push(w);
      metrics.set(w.rule.ability, list);
    }
    watches = next;
    byThing = index;
    skipped = notOwned;
    if (taken.length > 0) replay(taken);
  }

  /** Judges the kept values newer than each taken watch's state (recent-values.ts). */
  function replay(taken: readonly Watch[]): void {
    const byPair = new Map<string, Watch[]>();
    for (const w of taken) {
      const pair = `${w.thingId}\u0000${w.rule.ability}`;
      byPair.set(pair, [...(byPair.get(pair) ?? []), w]);
    }
    recent?.forEach((v, arrivedAt) => {
      const list = byPair.get(`${v.thingId}\u0000${v.metric}`);
      if (!list) return;
      for (const w of list) {
        const since = w.track.changeSince;
        pointInPlace(w.engine, w.track, { at: v.ts, value: v.value }, arrivedAt, transitions);
        judged(w, since);
      }
    });
  }

  /** When each batch of transitions still waiting for its history write was judged, oldest first. */
  const waiting: number[] = [];

  /**
   * Queues the history writes of `transitions`, and with `timer` the watch's timer state as it is
   * now: in the last transition's transaction, or alone when a delay began or ended with none.
   */
  function write(watch: Watch, transitions: readonly Transition[], timer?: repo.TimerRecord): void {
    if (transitions.length === 0 && !timer) return;
    const snapshot = { ...watch };
    waiting.push(now());
    writing = writing
      .then(async () => {
        if (transitions.length === 0 && timer) {
          await repo.saveTimer(db, timer, new Date(now()).toISOString());
          return;
        }
        for (const [i, t] of transitions.entries())
          await persist(snapshot, t, i === transitions.length - 1 ? timer : undefined);
      })
      .catch((error: unknown) => log.error({ err: error, watch: watch.key }, 'alarm history write failed'))
      .finally(() => waiting.shift());
  }

  async function persist(watch: Watch, t: Transition, timer?: repo.TimerRecord): Promise<void> {
    const at = now();
    const stamp = new Date(at).toISOString();
    let quiet = false;
    const write = async (tx: Transaction<DB>): Promise<number | null> => {
      const open = await repo.findOpen(tx, {
        monitorId: watch.monitor.id,
        ruleId: watch.rule.id,
        thingId: watch.thingId,
      });
      quiet = open?.status.chattering === true;
      const value = t.value === null ? '' : String(t.value);
      if (t.type === 'raise') {
        const targets = [
          { type: 'thing' as const, id: watch.thingId },
          ...(watch.monitor.targetType === 'region'
            ? [{ type: 'region' as const, id: watch.monitor.targetId }]
            : []),
        ];
        const suppressed = await repo.inMaintenance(tx, targets, t.at);
        if (open) {
          await repo.updateHistory(
            tx,
            open.id,
            {
              status: reraised(open.status, { suppressed, chattering: t.chattering }),
              returnedAt: null,
              value,
            },
            stamp,
          );
          await repo.addAnnunciation(tx, {
            historyId: open.id,
            ruleId: watch.rule.id,
            thingId: watch.thingId,
            at: t.at,
            suppressed,
          });
          return open.id;
        }
        return repo.insertHistory(
          tx,
          {
            monitorId: watch.monitor.id,
            ruleId: watch.rule.id,
            ruleName: watch.rule.name,
            templateName: watch.rule.templateName,
            thingId: watch.thingId,
            thingName: watch.thingName,
            resourceType: watch.monitor.targetType,
            resourceId: watch.monitor.targetType === 'thing' ? watch.thingId : watch.monitor.targetId,
            resourceName: watch.resourceName,
            severity: watch.rule.severity,
            message: fillMessage(watch.rule.message, {
              value,
              unit: watch.unit,
              thing: watch.thingName,
              region: watch.regionName,
              rule: watch.rule.name,
            }),
            value,
            alarmAt: t.at,
            returnedAt: null,
            status: raised({ suppressed, chattering: t.chattering }),
          },
          stamp,
        );
      }
      // A return with no open alarm: an operator closed it while its condition was still active.
      if (!open) return null;
      await repo.updateHistory(tx, open.id, { status: returned(open.status), returnedAt: t.at }, stamp);
      return open.id;
    };
    const alarmId = await db.transaction().execute(async (tx) => {
      const id = await write(tx);
      // The notifications are queued in the same transaction: a replica killed after the commit
      // has already left them in the outbox for another replica to send.
      if (id !== null) await deps.recordNotifications?.(tx, { type: t.type, alarmId: id, quiet });
      if (timer) await repo.saveTimer(tx, timer, stamp);
      return id;
    });
    if (alarmId !== null) deps.onWritten?.({ ...t, alarmId, quiet });
  }

  // Every ingested value passes here, inside ingest's call: the watches' tracks change in place and
  // nothing is allocated for a value no watch takes (bench/alarm-ingest-bench.ts).
  const transitions: Transition[] = [];

  /**
   * Writes what judging a watch changed: its transitions, and (keepTimers) its timer state when a
   * delay began, ended or was raised or returned through — never for a point that changed neither.
   */
  function judged(w: Watch, since: number | null): void {
    const timerChanged =
      deps.keepTimers === true && (transitions.length > 0 || w.track.changeSince !== since);
    if (transitions.length === 0 && !timerChanged) return;
    write(w, transitions.splice(0), timerChanged ? timerOf(w) : undefined);
  }

  function onValues(batch: LiveBatch): void {
    recent?.add(batch);
    if (byThing.size === 0) return;
    // Most of ingest's batches are of a thing no monitor watches: skipped without a look at a value.
    if (batch.thingId !== null && !byThing.has(batch.thingId)) return;
    const at = now();
    batch.forEach((thingId, metric, ts, value) => {
      const list = byThing.get(thingId)?.get(metric);
      if (!list) return;
      const point = { at: ts, value };
      for (const w of list) {
        const since = w.track.changeSince;
        pointInPlace(w.engine, w.track, point, at, transitions);
        judged(w, since);
      }
    });
  }

  function tick(): void {
    const at = now();
    for (const w of watches.values()) {
      const since = w.track.changeSince;
      tickInPlace(w.engine, w.track, at, transitions);
      judged(w, since);
    }
    writing = writing
      .then(() => repo.expireShelves(db, at))
      .catch((error: unknown) => log.error({ err: error }, 'alarm shelf expiry failed'));
  }

  /**
   * Reloads rules, monitors and targets; asks made while one runs are folded into one more, and
   * each resolves once a load begun after it has ended (a partition given up is dropped by then).
   */
  function reload(): Promise<void> {
    if (loading) {
      queued ??= loading.then(() => {
        queued = undefined;
        return reload();
      });
      return queued;
    }
    loading = load()
      .catch((error: unknown) => log.error({ err: error }, 'alarm rules could not be loaded'))
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }

  return {
    async start(): Promise<void> {
      await reload();
      unsubscribe = deps.live.subscribe(onValues);
      timer = setInterval(tick, deps.tickMs ?? 1000);
      timer.unref();
    },
    reload,
    /** Runs timers now (tests drive the clock). */
    tick,
    /** Resolves once every transition so far is written. */
    flush: async (): Promise<void> => {
      let current: Promise<void>;
      do {
        current = writing;
        await current;
      } while (current !== writing);
    },
    async stop(): Promise<void> {
      unsubscribe?.();
      if (timer) clearInterval(timer);
      await writing;
    },
    /**
     * How far the engine is behind (/metrics): values are judged inside ingest's call, so what can
     * fall behind is the history writes of raises and returns; `seconds` is the oldest one's wait.
     */
    lag: (): { queued: number; seconds: number } => ({
      queued: waiting.length,
      seconds: waiting.length === 0 ? 0 : Math.max(0, (now() - (waiting[0] as number)) / 1000),
    }),
    /** How many (monitor, rule, thing) pairs are watched. */
    size: () => watches.size,
  };
}
