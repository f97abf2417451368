import type { Binding, EffectiveAbility, Thing } from '@kilowatch/contract';
import { describe, expect, it } from 'vitest';
import { createCatalog, type RegionReads, type ThingReads } from './index.ts';

const thing = (id: number, name = `T${id}`): Thing =>
  ({ id, identifier: `I${id}`, name, categoryId: 1 }) as unknown as Thing;
const ability = (identifier: string): EffectiveAbility => ({ identifier }) as unknown as EffectiveAbility;

/** In-memory things and regions behind the catalog, counting reads and able to hold one back. */
function fixture() {
  const things = new Map([
    [1, thing(1)],
    [2, thing(2)],
    [3, thing(3)],
  ]);
  const tokens = new Map([['tok1', 1]]);
  const abilities = new Map<number, string[]>([
    [1, ['P', 'EP']],
    [2, ['P']],
    [3, ['T']],
  ]);
  // Region 10 holds thing 1; its child 11 holds things 2 and 3.
  const bound = new Map<number, number[]>([
    [10, [1]],
    [11, [2, 3]],
  ]);
  const reads = { token: 0, abilities: 0, bindings: 0, things: 0 };
  let gate: Promise<void> | undefined;
  const wait = async () => {
    if (gate) await gate;
  };
  const thingReads: ThingReads = {
    getThing: async (id) => things.get(id)!,
    getThings: async (ids) => {
      reads.things++;
      const missing = ids.find((id) => !things.has(id));
      if (missing !== undefined) throw new Error(`thing ${missing} not found`);
      return ids.map((id) => things.get(id)!);
    },
    thingByToken: async (token) => {
      reads.token++;
      const id = tokens.get(token);
      await wait();
      return id === undefined ? undefined : things.get(id);
    },
    thingByIdentifier: async (identifier) => [...things.values()].find((t) => t.identifier === identifier),
    effectiveAbilities: async (ids) => {
      reads.abilities++;
      const snapshot = new Map(ids.map((id) => [id, (abilities.get(id) ?? []).map(ability)]));
      await wait();
      return snapshot;
    },
    categoryAbilities: async () => [],
    categoryNames: async () => new Map(),
  };
  const regionReads: RegionReads = {
    bindings: async (id, { successor }) => {
      reads.bindings++;
      const ids = successor && id === 10 ? [10, 11] : [id];
      return ids.flatMap((r) =>
        (bound.get(r) ?? []).map(
          (t) => ({ regionId: r, regionName: `R${r}`, thing: things.get(t)! }) as unknown as Binding,
        ),
      );
    },
    find: async (id) => ({ id, name: `R${id}` }) as never,
  };
  let clock = 0;
  const catalog = createCatalog({ things: thingReads, regions: regionReads, clock: () => clock });
  return {
    catalog,
    things,
    tokens,
    abilities,
    reads,
    advance: (ms: number) => {
      clock += ms;
    },
    /** Holds every read until the returned function is called. */
    hold: () => {
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('catalog', () => {
  it('answers repeated reads from its cache until a change or the TTL', async () => {
    const f = fixture();
    expect((await f.catalog.abilitiesOf(1)).has('EP')).toBe(true);
    await f.catalog.abilitiesOf(1);
    expect(f.reads.abilities).toBe(1);

    f.abilities.set(1, ['P']);
    expect((await f.catalog.abilitiesOf(1)).has('EP')).toBe(true);
    f.catalog.changed();
    expect((await f.catalog.abilitiesOf(1)).has('EP')).toBe(false);
    expect(f.reads.abilities).toBe(2);

    // A change made elsewhere (another server on the database) is seen once the TTL passed.
    f.abilities.set(1, ['P', 'Q']);
    f.advance(4_999);
    expect((await f.catalog.abilitiesOf(1)).has('Q')).toBe(false);
    f.advance(1);
    expect((await f.catalog.abilitiesOf(1)).has('Q')).toBe(true);
  });

  it('selects many things in one read of the things and one of their abilities, then from the cache', async () => {
    const f = fixture();
    expect((await f.catalog.select({ resourceType: 'thing', id: 2 })).things[0]?.id).toBe(2);
    const before = f.reads.abilities;
    const many = await f.catalog.selectThings([3, 1, 2, 1], 'P');
    // Thing 2 was cached: 3 and 1 are read together; each answer is what select() answers.
    expect(f.reads.things).toBe(1);
    expect(f.reads.abilities).toBe(before + 1);
    expect(many.map((r) => r.things.map((t) => t.id))).toEqual([[], [1], [2], [1]]);
    expect(many[1]?.name).toBe('T1');
    for (const id of [1, 2, 3]) {
      expect(await f.catalog.select({ resourceType: 'thing', id, ability: 'P' })).toEqual(
        many[[3, 1, 2].indexOf(id)],
      );
    }
    await f.catalog.selectThings([1, 2, 3]);
    expect(f.reads.things).toBe(1);
    await expect(f.catalog.selectThings([1, 99])).rejects.toThrow('thing 99 not found');
  });

  it('does not keep what it read while a change happened', async () => {
    const f = fixture();
    const release = f.hold();
    const loading = f.catalog.abilitiesOf(1);
    // The write commits and tells the catalog while the read above is still under way.
    f.abilities.set(1, ['P']);
    f.catalog.changed();
    release();
    expect((await loading).has('EP')).toBe(true);
    expect((await f.catalog.abilitiesOf(1)).has('EP')).toBe(false);
  });

  it('does not keep a token lookup that raced a token change', async () => {
    const f = fixture();
    const release = f.hold();
    const loading = f.catalog.thingByToken('tok1');
    f.tokens.delete('tok1');
    f.catalog.changed();
    release();
    expect((await loading)?.id).toBe(1);
    expect(await f.catalog.thingByToken('tok1')).toBeUndefined();
  });

  it('asks again for a token when told not to use the cache', async () => {
    const f = fixture();
    await f.catalog.thingByToken('tok1');
    await f.catalog.thingByToken('tok1');
    expect(f.reads.token).toBe(1);
    f.tokens.delete('tok1');
    expect(await f.catalog.thingByToken('tok1', { cached: false })).toBeUndefined();
    expect(await f.catalog.thingByToken('tok1')).toBeUndefined();
    expect(f.reads.token).toBe(2);
    expect(await f.catalog.thingByToken('a\u0000b')).toBeUndefined();
    expect(f.reads.token).toBe(2);
  });

  it("selects a region's things recursively, narrowed to one ability, in one call", async () => {
    const f = fixture();
    const direct = await f.catalog.select({ resourceType: 'region', id: 10 });
    expect(direct.things.map((t) => t.id)).toEqual([1]);
    expect(direct.name).toBe('R10');

    const all = await f.catalog.select({ resourceType: 'region', id: 10, successor: true });
    expect(all.things.map((t) => t.id)).toEqual([1, 2, 3]);
    expect([...all.abilities.keys()]).toEqual([1, 2, 3]);

    const withP = await f.catalog.select({ resourceType: 'region', id: 10, successor: true, ability: 'P' });
    expect(withP.things.map((t) => t.id)).toEqual([1, 2]);
    // The narrowed answer comes from the same cached selection.
    expect(f.reads.bindings).toBe(2);

    const one = await f.catalog.select({ resourceType: 'thing', id: 3, ability: 'P' });
    expect(one).toMatchObject({ name: 'T3', things: [] });
  });
});
