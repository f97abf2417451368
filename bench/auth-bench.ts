/**
 * Fixed cost of authenticating a request (docs/auth.md, "Sessions end at once"): an in-process
 * loop of an authenticated `GET /api/units` beside a public `GET /api/health`, medians of rounds.
 *
 *   npx tsx bench/auth-bench.ts [--root DIR] [--calls 2000] [--rounds 5]
 *   PG_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/auth-bench.ts
 *
 * `--root` points at another checkout (e.g. a `git worktree` of the previous commit) to measure a
 * baseline in the same run.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import {
  ADMIN_PASSWORD,
  fmt,
  log,
  machine,
  median,
  numArg,
  REPO_ROOT,
  startInProcess,
  strArg,
} from './harness.ts';

const root = strArg('root', REPO_ROOT);
const calls = numArg('calls', 2000);
const rounds = numArg('rounds', 5);
const pgBase = process.env.PG_URL;
const running = await startInProcess({ root, pgUrl: pgBase });
const { app } = running;
try {
  const key = Buffer.from(
    (await app.inject({ method: 'GET', url: '/api/auth/login-key' })).json().data.key,
    'base64',
  );
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const password = Buffer.concat([iv, cipher.update(ADMIN_PASSWORD), cipher.final()]).toString('base64');
  const { token } = (
    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: Buffer.from('admin').toString('base64'), password },
    })
  ).json();
  const headers = { 'x-authorization': `Bearer ${token}` };

  const time = async (url: string, h: Record<string, string>) => {
    const started = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url, headers: h });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };

  log(machine());
  log(`${root}, ${pgBase ? 'PostgreSQL' : 'SQLite'}, ${rounds} rounds of ${calls} calls each`);
  const results: { open: number; authenticated: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const open: number[] = [];
    const authenticated: number[] = [];
    for (let i = 0; i < calls; i++) {
      open.push(await time('/api/health', {}));
      authenticated.push(await time('/api/units?page=1&pageSize=1', headers));
    }
    results.push({ open: median(open), authenticated: median(authenticated) });
    log(
      `round ${round + 1}: public ${fmt(median(open), 3)} ms, authenticated ${fmt(median(authenticated), 3)} ms`,
    );
  }
  log(
    `median: public GET /api/health ${fmt(median(results.map((r) => r.open)), 3)} ms, authenticated GET /api/units ${fmt(median(results.map((r) => r.authenticated)), 3)} ms`,
  );
} finally {
  await running.stop();
}
