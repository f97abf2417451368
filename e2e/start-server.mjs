#!/usr/bin/env node
// Starts the server for the browser suite: creates the suite's accounts (e2e/tests/accounts.ts)
// in its throwaway DATA_DIR through the operator CLI; with the simulator on, seeds the demo plant
// and backfills its history (docs/demo-plant.md) so the monitoring screens have data at once;
// then runs the server.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
const tsx = ['--import', 'tsx'];
const started = performance.now();

function run(script, args) {
  const result = spawnSync(process.execPath, [...tsx, join(root, script), ...args], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const accounts = [
  ['admin', '1', '管理员', 'E2eAdmin2026'],
  ['editor', '2', '编辑员', 'E2eEditor2026'],
];
for (const [username, level, name, password] of accounts) {
  run('server/src/cli.ts', ['user:add', username, '--level', level, '--name', name, '--password', password]);
}
if ((env.SIMULATOR ?? 'on') === 'on') {
  // The backfill seeds the plant (SIMULATOR_THINGS things) when it is not there yet, then writes
  // two days of history up to now: the history view's last hour, the home view's today and all of
  // yesterday (the comparisons) have data whatever the hour the suite starts at.
  // It must run before the server, which holds the telemetry store while it runs.
  const things = env.SIMULATOR_THINGS ?? '50';
  run('server/src/demo/backfill-cli.ts', ['--days', '2', '--things', things]);
}
console.info(`e2e: setup took ${((performance.now() - started) / 1000).toFixed(1)} s, starting the server`);
const server = spawn(process.execPath, [...tsx, join(root, 'server/src/server.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
