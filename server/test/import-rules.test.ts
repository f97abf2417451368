import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layering rules of docs/architecture.md are Biome errors (biome.json overrides). A rule that
// matches nothing passes silently, so each one is proven here: the repository's own biome.json lints a
// probe tree in a temporary folder, where every probe file sits at a real path of the layout and
// imports one thing. A forbidden import must be reported with the rule's message, and a permitted one
// beside it must not, so a rule can neither vanish nor grow into a blanket ban unnoticed.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const biome = join(root, 'node_modules/.bin/biome');

interface Probe {
  /** Where the probe file sits, as a path of the repository. */
  file: string;
  /** What it imports. */
  imports: string;
  /** A fragment of the rule's message, or null when the import is allowed. */
  refused: string | null;
}

const STORE = 'the telemetry store knows no HTTP';
const WING = 'the DuckDB wing is reached through';
const PURE = 'the alarm engine is pure';
const GATEWAY = 'the simulator is a gateway: MQTT only';
const ENTRIES = "the demo provisions the plant through the modules' entries";
const CATALOG = "ingest reads thing metadata through the catalog's entry";
const ENTRY = 'another module is imported through its index.ts only';
const ENGINES = 'only the query module';
const FEATURES = 'features never import each other';
const APP = 'nothing imports web/src/app';
const SHARED = 'features are screens: shared code imports none of them';
const FLOOR = 'lib/ is the floor';

const probes: Probe[] = [
  { file: 'server/src/telemetry/p1.ts', imports: '../modules/things/index.ts', refused: STORE },
  { file: 'server/src/telemetry/p2.ts', imports: '../db/index.ts', refused: STORE },
  { file: 'server/src/telemetry/p3.ts', imports: 'fastify', refused: STORE },
  { file: 'server/src/telemetry/p4.ts', imports: '@kilowatch/contract/calendar', refused: null },
  { file: 'server/src/telemetry/p5.ts', imports: './duckdb/store.ts', refused: WING },
  { file: 'server/src/telemetry/index.ts', imports: './duckdb/store.ts', refused: null },
  { file: 'server/src/modules/query/p7.ts', imports: '../../telemetry/duckdb/reader.ts', refused: WING },
  { file: 'server/src/modules/query/p8.ts', imports: '../../telemetry/index.ts', refused: null },
  { file: 'server/src/modules/alarms/engine/p9.ts', imports: '../../../db/index.ts', refused: PURE },
  { file: 'server/src/modules/alarms/engine/p10.ts', imports: '../../../live/index.ts', refused: PURE },
  { file: 'server/src/modules/alarms/engine/p11.ts', imports: 'node:fs', refused: PURE },
  { file: 'server/src/modules/alarms/engine/p12.ts', imports: '@kilowatch/contract', refused: null },
  { file: 'server/src/modules/alarms/p13.ts', imports: '../../db/index.ts', refused: null },
  { file: 'server/src/simulator/p14.ts', imports: '../db/index.ts', refused: GATEWAY },
  { file: 'server/src/simulator/p15.ts', imports: '../telemetry/index.ts', refused: GATEWAY },
  { file: 'server/src/simulator/p16.ts', imports: '../modules/things/index.ts', refused: GATEWAY },
  { file: 'server/src/simulator/p17.ts', imports: '../demo/index.ts', refused: GATEWAY },
  { file: 'server/src/simulator/p18.ts', imports: '../ingest/index.ts', refused: GATEWAY },
  { file: 'server/src/simulator/p19.ts', imports: 'mqtt', refused: null },
  { file: 'server/src/simulator/p20.ts', imports: '@kilowatch/contract/calendar', refused: null },
  { file: 'server/src/demo/p21.ts', imports: '../modules/things/service.ts', refused: ENTRIES },
  { file: 'server/src/demo/p22.ts', imports: '../modules/things/index.ts', refused: null },
  { file: 'server/src/demo/p23.ts', imports: '../telemetry/duckdb/store.ts', refused: WING },
  { file: 'server/src/demo/p24.ts', imports: '../simulator/index.ts', refused: null },
  { file: 'server/src/ingest/p14.ts', imports: '../db/index.ts', refused: CATALOG },
  { file: 'server/src/ingest/p15.ts', imports: '../modules/things/index.ts', refused: CATALOG },
  { file: 'server/src/ingest/p16.ts', imports: '../modules/catalog/service.ts', refused: CATALOG },
  { file: 'server/src/ingest/p17.ts', imports: '../modules/catalog/index.ts', refused: null },
  { file: 'server/src/ingest/p18.ts', imports: '../telemetry/duckdb/store.ts', refused: WING },
  { file: 'server/src/ingest/p19.ts', imports: '../telemetry/index.ts', refused: null },
  { file: 'server/src/ingest/p20.test.ts', imports: '../modules/things/testing.ts', refused: null },
  { file: 'server/src/modules/things/p21.ts', imports: '../regions/service.ts', refused: ENTRY },
  {
    file: 'server/src/modules/things/p22.ts',
    imports: '../../modules/regions/repository.ts',
    refused: ENTRY,
  },
  { file: 'server/src/modules/things/p23.ts', imports: '../regions/index.ts', refused: null },
  { file: 'server/src/modules/things/p24.ts', imports: '../../db/sql.ts', refused: null },
  { file: 'server/src/modules/things/p25.ts', imports: '../../telemetry/index.ts', refused: ENGINES },
  { file: 'server/src/modules/things/p26.ts', imports: '../../live/index.ts', refused: ENGINES },
  { file: 'server/src/modules/things/p27.ts', imports: '../../telemetry/duckdb/store.ts', refused: WING },
  { file: 'server/src/modules/system/groups/p28.ts', imports: '../../things/service.ts', refused: ENTRY },
  { file: 'server/src/modules/system/groups/p29.ts', imports: '../../things/index.ts', refused: null },
  { file: 'server/src/modules/system/groups/p30.ts', imports: '../shared.ts', refused: null },
  {
    file: 'server/src/modules/system/groups/p31.ts',
    imports: '../../../telemetry/index.ts',
    refused: ENGINES,
  },
  { file: 'server/src/modules/query/p32.ts', imports: '../things/service.ts', refused: ENTRY },
  { file: 'server/src/modules/query/p33.ts', imports: '../../live/index.ts', refused: null },
  { file: 'server/src/modules/alarms/p34.ts', imports: '../../telemetry/index.ts', refused: null },
  { file: 'server/src/modules/alarms/p35.ts', imports: '../catalog/service.ts', refused: ENTRY },
  { file: 'server/src/modules/alarms/p36.ts', imports: '../catalog/index.ts', refused: null },
  { file: 'web/src/features/home/components/w1.tsx', imports: '../../regions/index.ts', refused: FEATURES },
  { file: 'web/src/features/home/components/w2.tsx', imports: '../lib/period-query.ts', refused: null },
  { file: 'web/src/features/home/components/w3.tsx', imports: '../../../api/things.ts', refused: null },
  { file: 'web/src/features/home/w4.ts', imports: '../regions/index.ts', refused: FEATURES },
  { file: 'web/src/features/home/w5.ts', imports: '../../app/router.tsx', refused: APP },
  { file: 'web/src/features/home/hooks/w6.ts', imports: '../../../app/providers.tsx', refused: APP },
  { file: 'web/src/features/home/lib/x/w16.tsx', imports: '../../../regions/index.ts', refused: FEATURES },
  { file: 'web/src/features/home/lib/x/w17.tsx', imports: '../../lib/period-query.ts', refused: null },
  { file: 'web/src/features/home/w7.test.ts', imports: '../../app/providers.tsx', refused: null },
  { file: 'web/src/components/w8.ts', imports: '../features/home/index.ts', refused: SHARED },
  { file: 'web/src/layout/w9.ts', imports: '../app/guard.ts', refused: APP },
  { file: 'web/src/api/w10.ts', imports: '../features/home/index.ts', refused: SHARED },
  { file: 'web/src/api/w11.ts', imports: '../lib/call.ts', refused: null },
  { file: 'web/src/config/w12.ts', imports: '../app/router.tsx', refused: APP },
  { file: 'web/src/lib/w13.ts', imports: '../api/keys.ts', refused: FLOOR },
  { file: 'web/src/lib/w14.ts', imports: '../components/switch-language.ts', refused: FLOOR },
  { file: 'web/src/lib/w15.ts', imports: './http.ts', refused: null },
];

/**
 * The rules of scripts/check-imports.mjs (run by `npm run lint` after Biome): they judge the file an
 * import resolves to, so they hold at every folder depth, type imports included. `refused` is the
 * rule's name, or null when the import is allowed.
 */
interface ResolvedProbe {
  file: string;
  imports: string;
  refused: string | null;
}

const resolvedProbes: ResolvedProbe[] = [
  // The four holes of the string rules: nested folders.
  {
    file: 'server/src/modules/alarms/notify/r1.ts',
    imports: '../../things/repository/index.ts',
    refused: 'module-entry',
  },
  {
    file: 'server/src/modules/alarms/notify/r2.ts',
    imports: '../../../telemetry/index.ts',
    refused: 'telemetry-readers',
  },
  { file: 'server/src/modules/alarms/notify/r3.ts', imports: '../../things/index.ts', refused: null },
  { file: 'server/src/modules/alarms/notify/r4.ts', imports: '../repository/index.ts', refused: null },
  {
    file: 'server/src/modules/alarms/engine/r5.ts',
    imports: '../repository/index.ts',
    refused: 'alarm-engine-pure',
  },
  {
    file: 'server/src/modules/alarms/engine/r6.ts',
    imports: '../out-of-service.ts',
    refused: 'alarm-engine-pure',
  },
  { file: 'server/src/modules/alarms/engine/r7.ts', imports: './state.ts', refused: null },
  { file: 'server/src/modules/alarms/engine/r8.ts', imports: 'node:fs', refused: 'alarm-engine-pure' },
  {
    file: 'server/src/modules/alarms/engine/r9.ts',
    imports: '../../../db/sql.ts',
    refused: 'alarm-engine-pure',
  },
  {
    file: 'web/src/features/home/components/r10.tsx',
    imports: '../../../features/regions/index.ts',
    refused: 'features-apart',
  },
  {
    file: 'web/src/features/home/lib/x/y/r11.ts',
    imports: '../../../../regions/lib/tree.ts',
    refused: 'features-apart',
  },
  { file: 'web/src/features/home/lib/x/y/r12.ts', imports: '../../../hooks/period.ts', refused: null },
  { file: 'web/src/api/r13.ts', imports: '../components/crud/CrudPage.tsx', refused: 'api-over-lib' },
  { file: 'web/src/api/r14.ts', imports: '../config/routes.ts', refused: 'api-over-lib' },
  { file: 'web/src/api/r15.ts', imports: '../lib/call.ts', refused: null },
  // Every other rule, at a depth the string rules did not see where it matters.
  { file: 'contract/src/r16.ts', imports: '../../server/src/errors.ts', refused: 'contract-is-the-floor' },
  { file: 'contract/src/r17.ts', imports: '../../web/src/lib/http.ts', refused: 'contract-is-the-floor' },
  { file: 'contract/src/r18.ts', imports: './common.ts', refused: null },
  { file: 'contract/src/r18b.ts', imports: 'kysely', refused: 'contract-is-the-floor' },
  { file: 'contract/src/r18c.ts', imports: 'node:fs', refused: 'contract-is-the-floor' },
  { file: 'contract/src/r18d.ts', imports: 'typebox', refused: null },
  {
    file: 'server/src/modules/things/service/r19.ts',
    imports: '../../../services.ts',
    refused: 'server-top',
  },
  { file: 'server/src/modules/things/service/r19.test.ts', imports: '../../../app.ts', refused: null },
  { file: 'server/src/live/r20.ts', imports: '../modules/catalog/index.ts', refused: 'server-floor' },
  { file: 'server/src/db/r21.ts', imports: '../modules/things/index.ts', refused: 'server-floor' },
  { file: 'server/src/shared/r22.ts', imports: '../modules/system/index.ts', refused: 'server-floor' },
  { file: 'server/src/plugins/r23.ts', imports: '../modules/auth/index.ts', refused: 'server-floor' },
  { file: 'server/src/plugins/r24.ts', imports: '../errors.ts', refused: null },
  {
    file: 'server/src/modules/query/r25.ts',
    imports: '../../ingest/index.ts',
    refused: 'modules-below-ingest',
  },
  {
    file: 'server/src/modules/system/groups/r26.ts',
    imports: '../../things/repository/things.ts',
    refused: 'module-entry',
  },
  { file: 'server/src/modules/system/groups/r27.ts', imports: '../videos/service.ts', refused: null },
  { file: 'server/src/modules/query/deep/r28.ts', imports: '../../../telemetry/index.ts', refused: null },
  { file: 'server/src/modules/alarms/r29.ts', imports: '../../live/index.ts', refused: null },
  { file: 'server/src/modules/things/r30.ts', imports: '../../live/index.ts', refused: 'telemetry-readers' },
  {
    file: 'server/src/modules/query/r31.ts',
    imports: '../../telemetry/duckdb/reader.ts',
    refused: 'duckdb-wing',
  },
  {
    file: 'server/src/telemetry/r32.ts',
    imports: '../plugins/route.ts',
    refused: 'telemetry-knows-no-domain',
  },
  { file: 'server/src/telemetry/r33.ts', imports: 'fastify', refused: 'telemetry-knows-no-domain' },
  { file: 'server/src/ingest/deep/r34.ts', imports: '../../db/sql.ts', refused: 'ingest-through-catalog' },
  { file: 'server/src/ingest/deep/r35.ts', imports: '../../modules/catalog/index.ts', refused: null },
  {
    file: 'server/src/simulator/deep/r36.ts',
    imports: '../../live/index.ts',
    refused: 'simulator-is-a-gateway',
  },
  { file: 'server/src/simulator/deep/r37.ts', imports: '../kinds.ts', refused: null },
  {
    file: 'server/src/demo/deep/r38.ts',
    imports: '../../modules/things/service/index.ts',
    refused: 'demo-through-entries',
  },
  { file: 'server/src/demo/deep/r39.ts', imports: '../../modules/things/index.ts', refused: null },
  {
    file: 'web/src/components/charts/deep/r40.ts',
    imports: '../../../features/home/index.ts',
    refused: 'shared-below-features',
  },
  { file: 'web/src/config/r41.ts', imports: '../app/router.tsx', refused: 'nothing-imports-app' },
  {
    file: 'web/src/features/home/hooks/deep/r42.ts',
    imports: '../../../../app/providers.tsx',
    refused: 'nothing-imports-app',
  },
  { file: 'web/src/components/r43.tsx', imports: '../layout/Navbar.tsx', refused: 'layout-is-the-shell' },
  { file: 'web/src/layout/r44.tsx', imports: '../components/LanguageSwitch.tsx', refused: null },
  { file: 'web/src/lib/deep/r45.ts', imports: '../../api/keys.ts', refused: 'lib-is-the-floor' },
  { file: 'web/src/lib/deep/r46.ts', imports: '../http.ts', refused: null },
  // Energy has one door, modules/energy/index.ts: none of its rooms, not even a room's index.
  {
    file: 'server/src/modules/board/r47.ts',
    imports: '../energy/tariffs/service.ts',
    refused: 'module-entry',
  },
  {
    file: 'server/src/modules/alarms/notify/r48.ts',
    imports: '../../energy/bills/index.ts',
    refused: 'module-entry',
  },
  { file: 'server/src/modules/board/r49.ts', imports: '../energy/index.ts', refused: null },
  {
    file: 'server/src/demo/r50.ts',
    imports: '../modules/energy/enpi/regression.ts',
    refused: 'demo-through-entries',
  },
  { file: 'server/src/modules/energy/statistics/r51.ts', imports: '../tariffs/service.ts', refused: null },
  { file: 'server/src/modules/energy/schedules/r52.ts', imports: '../../mail/index.ts', refused: null },
  { file: 'server/src/modules/energy/bills/r53.ts', imports: '../../../telemetry/index.ts', refused: null },
  {
    file: 'server/src/modules/energy/statistics/r54.ts',
    imports: '../../../telemetry/index.ts',
    refused: 'telemetry-readers',
  },
];

let dir = '';
let found: Map<string, string[]>;
let resolved: { rule: string; file: string }[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kilowatch-import-rules-'));
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
  delete config.$schema;
  config.vcs = { enabled: false };
  config.files = { includes: ['**'] };
  // Lint plugins (web/lint/*.grit) are named relative to the repository: the probe tree is elsewhere.
  for (const override of config.overrides as { plugins?: string[] }[]) {
    if (override.plugins) override.plugins = override.plugins.map((plugin) => join(root, plugin));
  }
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  for (const probe of probes) {
    mkdirSync(dirname(join(dir, probe.file)), { recursive: true });
    writeFileSync(
      join(dir, probe.file),
      `import * as probe from '${probe.imports}';\nexport const used = probe;\n`,
    );
  }
  // The resolved rules need the imported files to exist: each target is an empty module.
  for (const probe of resolvedProbes) {
    if (!probe.imports.startsWith('.')) continue;
    const target = join(dirname(join(dir, probe.file)), probe.imports);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, 'export const target = 1;\n');
  }
  for (const probe of resolvedProbes) {
    mkdirSync(dirname(join(dir, probe.file)), { recursive: true });
    writeFileSync(
      join(dir, probe.file),
      `import * as probe from '${probe.imports}';\nexport const used = probe;\n`,
    );
  }
  // A circle closed by a type import, which Biome's noImportCycles does not follow.
  mkdirSync(join(dir, 'web/src/lib/circle'), { recursive: true });
  writeFileSync(
    join(dir, 'web/src/lib/circle/c.ts'),
    "import type { D } from './d.ts';\nexport interface C { d: D }\n",
  );
  writeFileSync(
    join(dir, 'web/src/lib/circle/d.ts'),
    "import { c } from './e.ts';\nexport type D = typeof c;\n",
  );
  writeFileSync(
    join(dir, 'web/src/lib/circle/e.ts'),
    "import type { C } from './c.ts';\nexport const c: C[] = [];\n",
  );
  // A two-file circle anywhere in the tree.
  mkdirSync(join(dir, 'server/src/circle'), { recursive: true });
  writeFileSync(
    join(dir, 'server/src/circle/a.ts'),
    "import { b } from './b.ts';\nexport const a = () => b;\n",
  );
  writeFileSync(
    join(dir, 'server/src/circle/b.ts'),
    "import { a } from './a.ts';\nexport const b = () => a;\n",
  );

  // Biome exits non-zero when it reports errors; the report is what is checked.
  const { stdout } = await promisify(execFile)(
    biome,
    ['lint', '--reporter=json', '--max-diagnostics=none', '.'],
    {
      cwd: dir,
    },
  ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  const report = JSON.parse(stdout) as {
    diagnostics: { category: string; message: string; location: { path: string } }[];
  };
  const checked = await promisify(execFile)('node', [join(root, 'scripts/check-imports.mjs'), '--json'], {
    cwd: dir,
  }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
  resolved = JSON.parse(checked.stdout);
  found = new Map();
  for (const d of report.diagnostics) {
    const list = found.get(d.location.path) ?? [];
    list.push(`${d.category}: ${d.message}`);
    found.set(d.location.path, list);
  }
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the import rules of biome.json', () => {
  it.each(probes)('$file importing $imports', (probe) => {
    const diagnostics = (found.get(probe.file) ?? []).filter((d) =>
      d.startsWith('lint/style/noRestrictedImports'),
    );
    if (probe.refused === null) expect(diagnostics).toEqual([]);
    else expect(diagnostics.some((d) => d.includes(probe.refused!))).toBe(true);
  });

  it('refuses an import circle', () => {
    expect(found.get('server/src/circle/a.ts') ?? []).toContainEqual(expect.stringMatching(/noImportCycles/));
  });
});

describe('the import rules of scripts/check-imports.mjs (over resolved paths)', () => {
  it.each(resolvedProbes)('$file importing $imports', (probe) => {
    const rules = resolved.filter((v) => v.file === probe.file).map((v) => v.rule);
    if (probe.refused === null) expect(rules).toEqual([]);
    else expect(rules).toContain(probe.refused);
  });

  it('refuses a circle closed by type imports, which Biome lets pass', () => {
    const circles = resolved.filter((v) => v.rule === 'no-circle').map((v) => v.file);
    expect(circles).toContainEqual(expect.stringMatching(/^web\/src\/lib\/circle\/[cde]\.ts$/));
    expect(found.get('web/src/lib/circle/c.ts') ?? []).not.toContainEqual(
      expect.stringMatching(/noImportCycles/),
    );
  });

  it('passes on the repository as it is', async () => {
    const { stdout } = await promisify(execFile)(
      'node',
      [join(root, 'scripts/check-imports.mjs'), '--json'],
      {
        cwd: root,
      },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(JSON.parse(stdout)).toEqual([]);
  });
});
