#!/usr/bin/env node
// `npm test`: every suite. Unit and API tests (vitest; API suites also run on PostgreSQL when
// TEST_DATABASE_URL is set), then the end-to-end suite in Chromium. Without a browser the
// end-to-end suite is skipped with a clear line, unless REQUIRE_E2E=1 makes that a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const reports = join(root, '.tmp/test-reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const run = (cmd, args, env = {}) =>
  spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

let failedSuites = 0;
let passed = 0;
let failed = 0;
let skipped = 0;

const began = Date.now();
const seconds = (since) => Math.round((Date.now() - since) / 1000);
console.info(`\n== Unit and API tests (SQLite${process.env.TEST_DATABASE_URL ? ' and PostgreSQL' : ''}) ==`);
const vitestJson = join(reports, 'vitest.json');
const vitestOutcomes = join(reports, 'vitest-outcomes.json');
if (
  run(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--reporter=./scripts/vitest-outcomes.mjs',
      `--outputFile.json=${vitestJson}`,
    ],
    { VITEST_OUTCOMES: vitestOutcomes },
  ) !== 0
)
  failedSuites++;
const unit = readJson(vitestJson);
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += unit.numPendingTests + unit.numTodoTests;
}
if (!process.env.TEST_DATABASE_URL) {
  console.info('PostgreSQL: TEST_DATABASE_URL is not set, so the API suites ran on SQLite only.');
}

const unitSeconds = seconds(began);
const browserBegan = Date.now();
console.info('\n== End-to-end tests in Chromium ==');
if (!existsSync(chromium)) {
  const line = `Browser suite SKIPPED: no Chromium at ${chromium} (apt-get install chromium fonts-wqy-microhei, or set CHROMIUM_PATH).`;
  if (process.env.REQUIRE_E2E === '1') {
    console.error(`${line} REQUIRE_E2E=1 makes this a failure.`);
    failedSuites++;
  } else console.warn(line);
} else {
  if (run('npm', ['run', 'build', '-w', 'web']) !== 0) failedSuites++;
  const e2eJson = join(reports, 'e2e.json');
  const status = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eJson,
    CHROMIUM_PATH: chromium,
  });
  if (status !== 0) failedSuites++;
  const e2e = readJson(e2eJson);
  if (e2e?.stats) {
    passed += e2e.stats.expected + e2e.stats.flaky;
    failed += e2e.stats.unexpected;
    skipped += e2e.stats.skipped;
  } else if (status !== 0) failed++;
}

/** The failed and flaky tests by name, last, where a CI log that keeps only its tail shows them. */
const outcomes = [];
const unitOutcomes = readJson(vitestOutcomes);
for (const { test, error } of unitOutcomes?.failed ?? [])
  outcomes.push(`FAILED  ${test}\n          ${error}`);
for (const { test } of unitOutcomes?.flaky ?? []) outcomes.push(`flaky   ${test} (passed on its retry)`);
const e2eReport = readJson(join(reports, 'e2e.json'));
const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
/** The first failed attempt's error, its first line and where in the spec it was thrown. */
const firstError = (spec) => {
  const failed = spec.tests.flatMap((t) => t.results ?? []).find((r) => r.error ?? r.errors?.length);
  const error = failed?.error ?? failed?.errors?.[0];
  if (!error) return '';
  const line = stripVTControlCharacters(String(error.message ?? '')).split('\n')[0];
  const at = error.location ? ` (line ${error.location.line})` : '';
  return `\n          ${line}${at}`;
};
for (const spec of (e2eReport?.suites ?? []).flatMap(specs)) {
  const states = spec.tests.map((t) => t.status);
  const name = `${spec.file}:${spec.line} › ${spec.title}`;
  if (states.includes('unexpected')) outcomes.push(`FAILED  ${name}${firstError(spec)}`);
  else if (states.includes('flaky'))
    outcomes.push(`flaky   ${name} (passed on its retry)${firstError(spec)}`);
}
if (outcomes.length) console.info(`\n${outcomes.join('\n')}`);
// Where the suites' time goes, for whoever has to keep CI inside its 30 minutes.
const slowest = (rows) =>
  rows
    .sort((a, b) => b[0] - a[0])
    .slice(0, 8)
    .map(([ms, name]) => `${String(Math.round(ms / 1000)).padStart(5)} s  ${name}`)
    .join('\n');
const e2eTimes = (e2eReport?.suites ?? [])
  .flatMap(specs)
  .map((spec) => [
    spec.tests.flatMap((t) => t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0),
    `${spec.file}:${spec.line} › ${spec.title}`,
  ]);
const unitTimes = (unit?.testResults ?? []).map((file) => [
  (file.endTime ?? 0) - (file.startTime ?? 0),
  file.name.slice(root.length),
]);
if (e2eTimes.length) console.info(`\nSlowest browser tests:\n${slowest(e2eTimes)}`);
if (unitTimes.length) console.info(`\nSlowest unit and API files:\n${slowest(unitTimes)}`);
console.info(
  `\n${passed} passed, ${failed} failed, ${skipped} skipped (unit and API ${unitSeconds} s, browser ${seconds(browserBegan)} s)`,
);
process.exit(failedSuites || failed ? 1 : 0);
