import type { Binding, CategoryAbility, EffectiveAbility, Region, Thing } from '@kilowatch/contract';

/** How long a cached answer is reused when nothing in this process changed the metadata. */
const CATALOG_TTL_MS = 5_000;
/** Entries per kind before that kind's cache starts over (a bound on memory, not a tuning knob). */
const MAX_ENTRIES = 10_000;

/** The reads of the things service the catalog answers from. */
export interface ThingReads {
  getThing(id: number): Promise<Thing>;
  /** Many things at once; a 404 like getThing's when one is missing. */
  getThings(ids: readonly number[]): Promise<Thing[]>;
  thingByToken(token: string): Promise<Thing | undefined>;
  thingByIdentifier(identifier: string): Promise<Thing | undefined>;
  effectiveAbilities(thingIds: readonly number[]): Promise<Map<number, EffectiveAbility[]>>;
  categoryAbilities(categoryId: number): Promise<CategoryAbility[]>;
  categoryNames(ids: readonly number[]): Promise<ReadonlyMap<number, string>>;
}

/** The reads of the regions service the catalog answers from. */
export interface RegionReads {
  bindings(id: number, options: { categoryId?: number; successor?: boolean }): Promise<Binding[]>;
  find(id: number): Promise<Region | undefined>;
}

export interface CatalogDeps {
  things: ThingReads;
  regions: RegionReads;
  /** A monotonic clock in ms for the TTL (tests pass their own). */
  clock?: () => number;
  ttlMs?: number;
}

/** A thing, or a region's bound things (recursively with `successor`), narrowed as asked. */
export interface Selection {
  resourceType: 'thing' | 'region';
  id: number;
  /** Only things of this category (regions). */
  categoryId?: number | undefined;
  /** The region's whole subtree, not only the things bound to it directly. */
  successor?: boolean | undefined;
  /** Only things that have this ability (its identifier). */
  ability?: string | undefined;
}

/** What a selection means: a name to show, its things, and each thing's effective abilities. */
export interface Resolved {
  name: string;
  things: readonly Thing[];
  /** Every thing of `things` is a key. */
  abilities: ReadonlyMap<number, readonly EffectiveAbility[]>;
}

interface Entry<T> {
  at: number;
  value: T;
}

/**
 * The one reader of thing metadata for the engines (ingest, query, and next alarms and energy):
 * which thing a token or identifier names, which abilities things have, which things a thing or
 * region means. Answers are cached; the things and regions services call `changed()` after each
 * write (wired in services.ts), so this process never answers from metadata it has since changed.
 * A write by another server process on the same database is seen within `ttlMs`.
 */
export function createCatalog(deps: CatalogDeps) {
  const clock = deps.clock ?? (() => performance.now());
  const ttl = deps.ttlMs ?? CATALOG_TTL_MS;
  /** Bumped by every change: a load that began under an older generation is not kept. */
  let generation = 0;
  const byToken = new Map<string, Entry<Thing | undefined>>();
  const byIdentifier = new Map<string, Entry<Thing | undefined>>();
  const abilitiesByThing = new Map<number, Entry<ReadonlyMap<string, EffectiveAbility>>>();
  const selections = new Map<string, Entry<Resolved>>();
  const caches = [byToken, byIdentifier, abilitiesByThing, selections];

  function hit<K, T>(map: Map<K, Entry<T>>, key: K): Entry<T> | undefined {
    const entry = map.get(key);
    return entry !== undefined && clock() - entry.at < ttl ? entry : undefined;
  }

  /** Reads through `load` and caches its answer, unless the metadata changed while it read. */
  async function load<K, T>(map: Map<K, Entry<T>>, key: K, read: () => Promise<T>): Promise<T> {
    const started = generation;
    const value = await read();
    if (started === generation) {
      if (map.size >= MAX_ENTRIES) map.clear();
      map.set(key, { at: clock(), value });
    }
    return value;
  }

  // Not async: a hit (ingest's every publish) costs one resolved promise, not an async frame too.
  function cached<K, T>(map: Map<K, Entry<T>>, key: K, read: () => Promise<T>): Promise<T> {
    const entry = hit(map, key);
    return entry ? Promise.resolve(entry.value) : load(map, key, read);
  }

  /** Device text reaches here unvalidated; NUL is never stored and PostgreSQL refuses it in a query. */
  const unstorable = (text: string) => text.includes('\u0000');

  async function resolve(selection: Selection): Promise<Resolved> {
    const { resourceType, id, categoryId, successor } = selection;
    let name: string;
    let things: Thing[];
    if (resourceType === 'thing') {
      const thing = await deps.things.getThing(id);
      name = thing.name;
      things = [thing];
    } else {
      const bindings = await deps.regions.bindings(id, { categoryId, successor });
      const unique = new Map<number, Thing>();
      for (const b of bindings) unique.set(b.thing.id, b.thing);
      // Without successors every binding names the region; otherwise one row, not the whole tree.
      name =
        (!successor ? bindings[0]?.regionName : undefined) ?? (await deps.regions.find(id))?.name ?? `#${id}`;
      things = [...unique.values()];
    }
    const abilities = await deps.things.effectiveAbilities(things.map((t) => t.id));
    return { name, things, abilities };
  }

  /** A selection's things that have `ability` (all of them without one). */
  function narrow(all: Resolved, ability: string | undefined): Resolved {
    if (ability === undefined) return all;
    const things = all.things.filter((t) => all.abilities.get(t.id)?.some((a) => a.identifier === ability));
    return { name: all.name, things, abilities: all.abilities };
  }

  return {
    /**
     * The thing owning a device access token, or undefined. With `cached: false` the database is
     * asked (and the answer cached): a connecting device is checked against the current token.
     */
    thingByToken(token: string, { cached: useCache = true } = {}): Promise<Thing | undefined> {
      if (unstorable(token)) return Promise.resolve(undefined);
      if (useCache) return cached(byToken, token, () => deps.things.thingByToken(token));
      return load(byToken, token, () => deps.things.thingByToken(token));
    },

    /** The thing with this identifier (topics that name the thing), or undefined. */
    thingByIdentifier(identifier: string): Promise<Thing | undefined> {
      if (unstorable(identifier)) return Promise.resolve(undefined);
      return cached(byIdentifier, identifier, () => deps.things.thingByIdentifier(identifier));
    },

    /**
     * One thing's effective abilities by identifier (model overrides applied, removals left out);
     * empty for an unknown thing (what ingest checks every value against).
     */
    abilitiesOf(thingId: number): Promise<ReadonlyMap<string, EffectiveAbility>> {
      return cached(abilitiesByThing, thingId, async () => {
        const list = (await deps.things.effectiveAbilities([thingId])).get(thingId) ?? [];
        return new Map(list.map((a) => [a.identifier, a]));
      });
    },

    /**
     * A thing or a region's things with their effective abilities, narrowed to a category and to
     * the things having one ability: "the meters under 一号车间 (all levels) that measure EP" is
     * `select({ resourceType: 'region', id, successor: true, ability: 'EP' })`. A thing or region
     * that does not exist is a 404 (AppError) from its service.
     */
    async select(selection: Selection): Promise<Resolved> {
      const { resourceType, id, categoryId, successor, ability } = selection;
      const key =
        resourceType === 'thing' ? `thing:${id}` : `region:${id}:${categoryId ?? ''}:${successor ? 1 : 0}`;
      return narrow(await cached(selections, key, () => resolve(selection)), ability);
    },

    /**
     * `select` of many single things (`resourceType: 'thing'`), in the order asked: the ones not
     * cached are read together (their things in one query, their abilities in another), not one
     * by one. Energy statistics of 200 meters asked 400 queries of the database here.
     */
    async selectThings(ids: readonly number[], ability?: string): Promise<Resolved[]> {
      const found = new Map<number, Resolved>();
      const missing: number[] = [];
      for (const id of new Set(ids)) {
        const entry = hit(selections, `thing:${id}`);
        if (entry) found.set(id, entry.value);
        else missing.push(id);
      }
      if (missing.length > 0) {
        const started = generation;
        const things = await deps.things.getThings(missing);
        const abilities = await deps.things.effectiveAbilities(missing);
        for (const t of things) {
          const value: Resolved = {
            name: t.name,
            things: [t],
            abilities: new Map([[t.id, abilities.get(t.id) ?? []]]),
          };
          found.set(t.id, value);
          if (started !== generation) continue;
          if (selections.size >= MAX_ENTRIES) selections.clear();
          selections.set(`thing:${t.id}`, { at: clock(), value });
        }
      }
      return ids.map((id) => narrow(found.get(id) as Resolved, ability));
    },

    /** A category's abilities (what a region of that category may show before anything is bound). */
    categoryAbilities: (categoryId: number): Promise<CategoryAbility[]> =>
      deps.things.categoryAbilities(categoryId),

    /**
     * The names of the categories among `ids` that exist: how other modules check a category and
     * name it (they read no `thing_categories`). Not cached: a renamed category shows at once.
     */
    categoryNames: (ids: readonly number[]): Promise<ReadonlyMap<number, string>> =>
      deps.things.categoryNames(ids),

    /** Called by the things and regions services after every write (committed or not). */
    changed(): void {
      generation++;
      for (const map of caches) map.clear();
    },
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
