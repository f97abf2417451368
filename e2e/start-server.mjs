#!/usr/bin/env node
// Starts the server for the browser suite: creates the suite's accounts (e2e/tests/accounts.ts)
// in its throwaway DATA_DIR through the operator CLI, then runs the server.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
const tsx = ['--import', 'tsx'];
const accounts = [
  ['admin', '1', '管理员', 'E2eAdmin2026'],
  ['editor', '2', '编辑员', 'E2eEditor2026'],
];
for (const [username, level, name, password] of accounts) {
  const cli = spawnSync(
    process.execPath,
    [
      ...tsx,
      join(root, 'server/src/cli.ts'),
      'user:add',
      username,
      '--level',
      level,
      '--name',
      name,
      '--password',
      password,
    ],
    { cwd: root, env, stdio: 'inherit' },
  );
  if (cli.status !== 0) process.exit(cli.status ?? 1);
}
const server = spawn(process.execPath, [...tsx, join(root, 'server/src/server.ts')], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
