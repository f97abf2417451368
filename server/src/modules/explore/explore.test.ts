import {
  type ExploreState,
  MAX_EXPLORE_NAME,
  MAX_EXPLORE_PANELS,
  MAX_EXPLORE_SERIES,
  MAX_EXPLORE_VIEWS,
} from '@kilowatch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Client, client, editorWith } from '../system/testing.ts';

const series = (resourceId: number, metric = 'P') => ({ resourceType: 'thing' as const, resourceId, metric });
const STATE: ExploreState = {
  panels: [{ series: [series(1, 'P'), series(2, 'P')] }, { series: [series(1, 'T')] }],
  range: { last: '8h' },
};

describe.each(dialects())('Explore views API on %s', (dialect) => {
  let t: TestApp;
  let admin: Client;
  let alice: Client;
  let bob: Client;
  let bobId: number;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = client(() => t.app, (await login(t.app)).token);
    alice = (await editorWith(() => t.app, admin, 'alice')).api;
    const b = await editorWith(() => t.app, admin, 'bob');
    bob = b.api;
    bobId = b.id;
  });
  afterAll(() => t.close());

  it('saves, lists, renames, updates and deletes a view of one’s own', async () => {
    const created = await alice.post('/api/explore/views', { name: ' 空压站 ', state: STATE });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const view = created.body.data;
    expect(view).toMatchObject({ name: '空压站', state: STATE });
    expect(view.createdAt).toBe(t.clock.now());

    expect((await alice.get('/api/explore/views')).body.data).toEqual([view]);

    t.clock.advance(60_000);
    const renamed = await alice.patch(`/api/explore/views/${view.id}`, { name: 'Compressor room' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Compressor room', state: STATE });
    expect(renamed.body.data.updatedAt).toBe(view.createdAt + 60_000);

    const absolute: ExploreState = {
      panels: [{ series: [series(3, 'EP')] }],
      range: { start: Date.parse('2026-11-22T00:00:00Z'), end: Date.parse('2026-11-22T08:00:00Z') },
    };
    const updated = await alice.patch(`/api/explore/views/${view.id}`, { state: absolute });
    expect(updated.body.data).toMatchObject({ name: 'Compressor room', state: absolute });

    expect((await alice.del(`/api/explore/views/${view.id}`)).status).toBe(200);
    expect((await alice.get('/api/explore/views')).body.data).toEqual([]);
    expect((await alice.del(`/api/explore/views/${view.id}`)).status).toBe(404);
  });

  it('keeps each user’s views their own: another user neither sees, changes nor deletes them', async () => {
    const mine = (await alice.post('/api/explore/views', { name: 'mine', state: STATE })).body.data;
    const theirs = (await bob.post('/api/explore/views', { name: 'mine', state: STATE })).body.data;
    expect(theirs.id).not.toBe(mine.id);

    expect((await bob.get('/api/explore/views')).body.data.map((v: { id: number }) => v.id)).toEqual([
      theirs.id,
    ]);
    const rename = await bob.patch(`/api/explore/views/${mine.id}`, { name: 'taken over' });
    expect(rename.status).toBe(404);
    expect(rename.body.code).toBe('NOT_FOUND');
    expect((await bob.del(`/api/explore/views/${mine.id}`)).status).toBe(404);
    // An admin is no exception: views are personal, not plant data.
    expect((await admin.del(`/api/explore/views/${mine.id}`)).status).toBe(404);
    expect((await alice.get('/api/explore/views')).body.data).toMatchObject([{ id: mine.id, name: 'mine' }]);

    await alice.del(`/api/explore/views/${mine.id}`);
    await bob.del(`/api/explore/views/${theirs.id}`);
  });

  it('refuses a name the caller already uses, in the caller’s language', async () => {
    const first = (await alice.post('/api/explore/views', { name: 'A', state: STATE })).body.data;
    const second = (await alice.post('/api/explore/views', { name: 'B', state: STATE })).body.data;
    const again = await alice.post('/api/explore/views', { name: 'A', state: STATE });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('已有名为“A”的视图');
    const en = await t.app.inject({
      method: 'PATCH',
      url: `/api/explore/views/${second.id}`,
      headers: { ...(await bearerOf('alice')), 'accept-language': 'en' },
      payload: { name: 'A' },
    });
    expect(en.statusCode).toBe(409);
    expect(en.json().message).toBe('You already have a view named “A”');
    await alice.del(`/api/explore/views/${first.id}`);
    await alice.del(`/api/explore/views/${second.id}`);
  });

  const bearerOf = async (username: string) => {
    const { token } = await login(t.app, username, 'Editor12');
    return { 'x-authorization': `Bearer ${token}` };
  };

  it('bounds a view: panels, series, name length, a blank name, a backwards range', async () => {
    const panels = (n: number, s: number) =>
      Array.from({ length: n }, () => ({ series: Array.from({ length: s }, (_, i) => series(i + 1)) }));
    const largest = await alice.post('/api/explore/views', {
      name: 'x'.repeat(MAX_EXPLORE_NAME),
      state: { panels: panels(MAX_EXPLORE_PANELS, MAX_EXPLORE_SERIES), range: { last: '30d' } },
    });
    expect(largest.status, JSON.stringify(largest.body)).toBe(200);
    const refused = [
      { name: 'x'.repeat(MAX_EXPLORE_NAME + 1), state: STATE },
      { name: 'p', state: { panels: panels(MAX_EXPLORE_PANELS + 1, 1), range: { last: '1h' } } },
      { name: 's', state: { panels: panels(1, MAX_EXPLORE_SERIES + 1), range: { last: '1h' } } },
      { name: 'r', state: { panels: [], range: { last: '2h' } } },
      { name: 'm', state: { panels: [{ series: [{ ...series(1), metric: '' }] }], range: { last: '1h' } } },
      { name: 'i', state: { panels: [{ series: [series(0)] }], range: { last: '1h' } } },
    ];
    for (const body of refused) {
      const res = await alice.post('/api/explore/views', body);
      expect(res.status, body.name).toBe(400);
    }
    const blank = await alice.post('/api/explore/views', { name: '   ', state: STATE });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('视图名称不能为空');
    const backwards = await alice.post('/api/explore/views', {
      name: 'backwards',
      state: { panels: [], range: { start: 2000, end: 1000 } },
    });
    expect(backwards.status).toBe(422);
    expect((await alice.get('/api/explore/views')).body.data).toHaveLength(1);
    await alice.del(`/api/explore/views/${largest.body.data.id}`);
  });

  it(`keeps at most ${MAX_EXPLORE_VIEWS} views per user, and a deleted account's views go with it`, async () => {
    for (let i = 0; i < MAX_EXPLORE_VIEWS; i++) {
      const res = await bob.post('/api/explore/views', { name: `v${i}`, state: STATE });
      expect(res.status).toBe(200);
    }
    const over = await bob.post('/api/explore/views', { name: 'one more', state: STATE });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('UNPROCESSABLE');
    // Another user's count is their own.
    const alices = await alice.post('/api/explore/views', { name: 'v0', state: STATE });
    expect(alices.status).toBe(200);

    expect((await admin.del(`/api/users/${bobId}`)).status).toBe(200);
    const rows = await t.app.services.explore.list(bobId);
    expect(rows).toEqual([]);
    expect((await alice.get('/api/explore/views')).body.data).toHaveLength(1);
  });
});
