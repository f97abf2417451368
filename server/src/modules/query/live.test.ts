import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createUser, dialects, login, type TestApp } from '../../../test/helpers.ts';
import { type Plant, seedPlant } from '../../ingest/testing.ts';
import { STREAM_TICKET_TTL_MS } from '../auth/index.ts';
import { type Api, apiAs } from '../things/testing.ts';
import { AUTH_RECHECK_MS, MAX_LIVE_PER_USER, STALL_MS } from './live.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A GET /api/query/live over a raw socket that is paused at once: a client that never reads. */
function silentClient(address: string, path: string): { socket: Socket; closed: Promise<void> } {
  const url = new URL(address);
  const socket = connect(Number(url.port), url.hostname);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
  socket.pause();
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.once('error', () => resolve());
  });
  return { socket, closed };
}

/** Reads a paused socket until `stop` says so (or it ends); answers the bytes read. */
function drain(socket: Socket, stop: (tail: string) => boolean, timeoutMs = 20_000): Promise<number> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let tail = '';
    const timer = setTimeout(() => reject(new Error(`no end after ${bytes} bytes`)), timeoutMs);
    const done = () => {
      clearTimeout(timer);
      socket.removeAllListeners('data');
      resolve(bytes);
    };
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      tail = (tail + chunk.toString('latin1')).slice(-200);
      if (stop(tail)) done();
    });
    socket.once('end', done);
    socket.once('close', done);
    socket.resume();
  });
}

/** An SSE reader over fetch: the next event's name and parsed data. */
async function sse(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    res,
    close: () => controller.abort(),
    async next(timeoutMs = 10_000): Promise<{ event: string; data: unknown } | 'ended'> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const event = block.split('\n').find((l) => l.startsWith('event: '));
          return { event: event?.slice(7) ?? 'message', data: JSON.parse(data.slice(6)) };
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event in time');
        const read = await Promise.race([
          reader.read(),
          sleep(left).then(() => ({ done: false, value: undefined, timeout: true })),
        ]);
        if ('timeout' in read) throw new Error('no event in time');
        if (read.done) return 'ended';
        text += decoder.decode(read.value);
      }
    },
  };
}

describe.each(dialects())('live stream limits on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let plant: Plant;
  let address: string;
  /** Values of the first meter's string ability, `size` characters each, through ingest. */
  const pump = async (batches: number, perBatch: number, size: number, last = 'last') => {
    const thing = plant.things[0]!;
    const device = { id: thing.id, identifier: thing.identifier, name: thing.name };
    const filler = 'x'.repeat(size);
    for (let b = 0; b < batches; b++) {
      const items = Array.from({ length: perBatch }, (_, i) => ({
        index: i,
        ts: t.clock.now() - 60_000 + b * perBatch + i,
        values: [['FW', b === batches - 1 && i === perBatch - 1 ? last : filler]] as [string, unknown][],
      }));
      const result = await t.app.ingest.service.accept(device, items, 'http');
      expect(result.rejected).toEqual([]);
    }
  };
  /** A stream ticket asked for with this access token (the answer, whatever its status). */
  const askTicket = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/query/live/ticket', headers: bearer(token) });
  const streamPath = (ticket: string) => `/api/query/live?thingIds=${plant.things[0]!.id}&ticket=${ticket}`;
  /** The stream's path with a fresh ticket of this access token, as the console opens it. */
  const liveUrl = async (token: string) => {
    const res = await askTicket(token);
    expect(res.statusCode, res.body).toBe(200);
    return streamPath(res.json().data.ticket);
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    api = apiAs(() => t.app, (await login(t.app)).token);
    plant = await seedPlant(api, 1);
    address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps a client that never reads to a bounded buffer, then sends it the latest values', async () => {
    const { token } = await login(t.app);
    const client = silentClient(address, await liveUrl(token));
    await sleep(200);
    // 64 MB of events: far beyond what the kernel's socket buffers hold.
    await pump(64, 100, 10_000, 'v-final');
    const bytes = await drain(client.socket, (tail) => tail.includes('"value":"v-final"'));
    // The kernel's buffers (a few MB on loopback) plus the server's bounded queue, not 64 MB.
    expect(bytes).toBeLessThan(16 * 1024 * 1024);
    client.socket.destroy();
    await client.closed;
  });

  it(`drops a client that has not read for ${STALL_MS / 1000} s`, async () => {
    const { token } = await login(t.app);
    const client = silentClient(address, await liveUrl(token));
    await sleep(200);
    // One event larger than the kernel's socket buffers: the server's queue cannot drain.
    await pump(3, 1, 8 * 1024 * 1024);
    t.clock.advance(STALL_MS + 1000);
    // The next beat of the stream (once a second) sees the stall and closes the connection.
    await sleep(1500);
    const bytes = await drain(client.socket, () => false, 10_000);
    // Whatever had reached the kernel, and no more: the queued rest was discarded.
    expect(bytes).toBeLessThan(12 * 1024 * 1024);
    await client.closed;
  });

  it(`refuses a user's stream beyond ${MAX_LIVE_PER_USER} with 429 in their language`, async () => {
    await createUser(t.app, { username: 'watcher', password: 'Watch123', userLevel: 2 });
    const { token } = await login(t.app, 'watcher', 'Watch123');
    const open = [];
    for (let i = 0; i < MAX_LIVE_PER_USER; i++) {
      const stream = await sse(`${address}${await liveUrl(token)}`);
      expect(stream.res.status).toBe(200);
      open.push(stream);
    }
    const refused = await fetch(`${address}${await liveUrl(token)}`, {
      headers: { 'accept-language': 'en' },
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      code: 'TOO_MANY_STREAMS',
      message: `Too many live data streams: each user may keep ${MAX_LIVE_PER_USER} open at once; close other pages and try again`,
    });
    const zh = await fetch(`${address}${await liveUrl(token)}`);
    expect(((await zh.json()) as { message: string }).message).toBe(
      `实时数据连接过多：每个用户最多同时打开 ${MAX_LIVE_PER_USER} 个，请关闭其他页面后重试`,
    );
    // Another user is not counted against this one.
    const { token: admin } = await login(t.app);
    const other = await sse(`${address}${await liveUrl(admin)}`);
    expect(other.res.status).toBe(200);
    other.close();
    // A closed stream frees its place.
    open.pop()!.close();
    await sleep(200);
    const again = await sse(`${address}${await liveUrl(token)}`);
    expect(again.res.status).toBe(200);
    for (const s of [...open, again]) s.close();
  });

  it('ends the stream of a user who is disabled while it is open', async () => {
    const user = await createUser(t.app, { username: 'leaver', password: 'Leave123', userLevel: 2 });
    const { token } = await login(t.app, 'leaver', 'Leave123');
    const stream = await sse(`${address}${await liveUrl(token)}`);
    expect(stream.res.status).toBe(200);
    expect(await stream.next()).toMatchObject({ event: 'values' });
    const disabled = await api.put(`/api/users/${user.id}`, { name: 'leaver', userLevel: 2, disabled: true });
    expect(disabled.status).toBe(200);
    t.clock.advance(AUTH_RECHECK_MS);
    expect(await stream.next(5000)).toEqual({ event: 'end', data: { code: 'USER_DISABLED' } });
    expect(await stream.next(5000)).toBe('ended');
    // The refused user gets no new ticket.
    expect((await askTicket(token)).statusCode).toBe(401);
  });

  it('ends the stream when its access token expires', async () => {
    const { token } = await login(t.app);
    const stream = await sse(`${address}${await liveUrl(token)}`);
    expect(stream.res.status).toBe(200);
    expect(await stream.next()).toMatchObject({ event: 'values' });
    // Still open after several re-checks inside the token's lifetime.
    t.clock.advance(3 * AUTH_RECHECK_MS);
    await sleep(1200);
    await pump(1, 1, 10, 'still-open');
    expect(await stream.next()).toMatchObject({ event: 'values', data: [{ value: 'still-open' }] });
    t.clock.advance(t.config.accessTokenTtl * 1000);
    expect(await stream.next(5000)).toEqual({ event: 'end', data: { code: 'TOKEN_EXPIRED' } });
    expect(await stream.next(5000)).toBe('ended');
  });

  describe('stream tickets', () => {
    it('opens a stream once with a ticket, never with the access token in the URL', async () => {
      const { token } = await login(t.app);
      const asked = await askTicket(token);
      expect(asked.statusCode).toBe(200);
      expect(asked.json().data).toEqual({
        ticket: expect.any(String),
        expiresIn: STREAM_TICKET_TTL_MS / 1000,
      });
      const { ticket } = asked.json().data as { ticket: string };
      expect(ticket).not.toContain(token.slice(0, 20));
      const stream = await sse(`${address}${streamPath(ticket)}`);
      expect(stream.res.status).toBe(200);
      expect(await stream.next()).toMatchObject({ event: 'values' });
      stream.close();
      // Used: a second stream with it (a leaked URL replayed) is refused, in the caller's language.
      const reused = await fetch(`${address}${streamPath(ticket)}`, { headers: { 'accept-language': 'en' } });
      expect(reused.status).toBe(401);
      expect(await reused.json()).toEqual({
        code: 'UNAUTHORIZED',
        message: 'The live data ticket is unknown, used or expired: ask for a new one',
      });
      // The access token itself no longer opens the stream from the URL.
      const byToken = await fetch(`${address}/api/query/live?thingIds=${plant.things[0]!.id}&token=${token}`);
      expect(byToken.status).toBe(401);
      expect((await fetch(`${address}${streamPath('made-up')}`)).status).toBe(401);
    });

    it(`refuses a ticket not used within ${STREAM_TICKET_TTL_MS / 1000} s`, async () => {
      const { token } = await login(t.app);
      const late = await liveUrl(token);
      const inTime = await liveUrl(token);
      t.clock.advance(STREAM_TICKET_TTL_MS - 1000);
      const opened = await sse(`${address}${inTime}`);
      expect(opened.res.status).toBe(200);
      opened.close();
      t.clock.advance(1000);
      expect((await fetch(`${address}${late}`)).status).toBe(401);
    });

    it("stands for its user's session: refused once that session ends, counted against that user", async () => {
      await createUser(t.app, { username: 'ticketer', password: 'Ticket123', userLevel: 2 });
      const session = await login(t.app, 'ticketer', 'Ticket123');
      const { token: admin } = await login(t.app);
      const waiting = await liveUrl(session.token);
      const logout = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        payload: { refreshToken: session.refreshToken },
      });
      expect(logout.statusCode).toBe(200);
      expect((await fetch(`${address}${waiting}`)).status).toBe(401);
      // A ticket is its asker's, whoever presents it: the streams fill the asker's quota, not the admin's.
      const { token } = await login(t.app, 'ticketer', 'Ticket123');
      const open = [];
      for (let i = 0; i < MAX_LIVE_PER_USER; i++) {
        const stream = await sse(`${address}${await liveUrl(token)}`);
        expect(stream.res.status).toBe(200);
        open.push(stream);
      }
      expect((await fetch(`${address}${await liveUrl(token)}`)).status).toBe(429);
      const mine = await sse(`${address}${await liveUrl(admin)}`);
      expect(mine.res.status).toBe(200);
      for (const s of [...open, mine]) s.close();
    });
  });
});
