// The layering of docs/architecture.md over resolved paths, run by `npm run lint`.
//
// Biome's noRestrictedImports matches import strings, so a rule written for one folder depth says
// nothing one folder down, and its noImportCycles does not follow type imports. Here every import
// of server/src, web/src and contract/src (type-only ones and re-exports too) is resolved to the
// file it names, then judged by the rules below; any circle of imports is an error.
// (dependency-cruiser does this too, but it parses TypeScript only through TypeScript's JavaScript
// API, which TypeScript 7 no longer has.) server/test/import-rules.test.ts proves each rule.
//
//   node scripts/check-imports.mjs [--json]     (from the folder to check: the repository, or a probe tree)

import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';
import { parseSync } from 'oxc-parser';
import { ResolverFactory } from 'oxc-resolver';

const ROOTS = ['server/src', 'web/src', 'contract/src'];

/** Tests and their helpers seed data through other modules and render the whole app: outside the layer rules. */
const TESTS = /(\.test\.tsx?$|\/testing\.ts$|\/test-utils\.tsx$|\/test-setup\.ts$|^web\/src\/testing\/)/;
const TOP =
  /^server\/src\/(app|services|server|cli|openapi-export)\.ts$|^server\/src\/demo\/backfill-cli\.ts$/;

/**
 * A rule forbids imports from a file whose path matches `from` (and no `fromNot`) of a file or package
 * matching `to` (and no `toNot`). `$1` in `toNot` is the first group `from` matched: "another module".
 * `to` is tried on the resolved path inside the repository, or on the import's name for a package,
 * a `node:` module or an import that resolves to nothing.
 */
export const RULES = [
  {
    name: 'contract-is-the-floor',
    message:
      'contract/ is shared by the server and the console: it imports nothing outside contract/ but typebox (no server, web, node: or other package)',
    from: /^contract\//,
    fromNot: [TESTS],
    to: /^(?!contract\/|typebox$)/,
  },
  {
    name: 'server-top',
    message: 'app.ts, services.ts, server.ts and the CLIs compose the server: nothing below imports them',
    from: /^server\/src\//,
    fromNot: [TESTS, TOP],
    to: TOP,
  },
  {
    name: 'server-floor',
    message:
      'live/, db/, shared/, plugins/, telemetry/, i18n/ and cluster/ are below the modules: they import no module, ingest, demo or simulator',
    from: /^server\/src\/(live|db|shared|plugins|telemetry|i18n|cluster)\//,
    fromNot: [TESTS],
    to: /^server\/src\/(modules|ingest|demo|simulator)\//,
  },
  {
    name: 'modules-below-ingest',
    message: 'modules are below ingest and the demo: they import neither, nor the simulator',
    from: /^server\/src\/modules\//,
    fromNot: [TESTS],
    to: /^server\/src\/(ingest|demo|simulator)\//,
  },
  {
    name: 'module-entry',
    message:
      'another module is imported through its index.ts only: modules/<name>/index.ts, so energy through modules/energy/index.ts and never one of its rooms (docs/architecture.md)',
    from: /^server\/src\/modules\/([^/]+)\//,
    fromNot: [TESTS],
    to: /^server\/src\/modules\/[^/]+\//,
    toNot: ['^server/src/modules/$1/', /^server\/src\/modules\/[^/]+\/index\.ts$/],
  },
  {
    name: 'telemetry-readers',
    message:
      "only the query module, the alarm module's top level and energy's bills read telemetry/ and live/: use their services (docs/architecture.md)",
    from: /^server\/src\/modules\//,
    fromNot: [
      TESTS,
      /^server\/src\/modules\/query\//,
      /^server\/src\/modules\/alarms\/[^/]+\.ts$/,
      /^server\/src\/modules\/energy\/bills\/[^/]+\.ts$/,
    ],
    to: /^server\/src\/(telemetry|live)\//,
  },
  {
    name: 'duckdb-wing',
    message: 'the DuckDB wing is reached through server/src/telemetry/index.ts only',
    from: /./,
    fromNot: [/^server\/src\/telemetry\/index\.ts$/, /^server\/src\/telemetry\/duckdb\//],
    to: /^server\/src\/telemetry\/duckdb\//,
  },
  {
    name: 'telemetry-knows-no-domain',
    message: 'the telemetry store knows no HTTP, metadata or domains (docs/telemetry-store.md)',
    from: /^server\/src\/telemetry\//,
    to: /^(server\/src\/(modules|ingest|db|plugins)\/|fastify$|@fastify\/)/,
  },
  {
    name: 'alarm-engine-pure',
    message:
      'the alarm engine is pure: rules, points, state and time in, transitions out (engine/, contract and pure libraries only)',
    from: /^server\/src\/modules\/alarms\/engine\//,
    fromNot: [TESTS],
    to: /^(server\/src\/(?!modules\/alarms\/engine\/)|node:|fastify$|kysely$)/,
  },
  {
    name: 'ingest-through-catalog',
    message:
      "ingest reads thing metadata through the catalog's entry (modules/catalog/index.ts) only: no database, no other module's files",
    from: /^server\/src\/ingest\//,
    fromNot: [TESTS],
    to: /^server\/src\/(db|modules)\//,
    toNot: [/^server\/src\/modules\/catalog\/index\.ts$/],
  },
  {
    name: 'simulator-is-a-gateway',
    message: 'the simulator is a gateway: MQTT only (docs/architecture.md)',
    from: /^server\/src\/simulator\//,
    to: /^(server\/src\/(?!simulator\/)|fastify$|@fastify\/|kysely$)/,
  },
  {
    name: 'demo-through-entries',
    message: "the demo provisions the plant through the modules' entries: modules/<name>/index.ts only",
    from: /^server\/src\/demo\//,
    fromNot: [TESTS],
    to: /^server\/src\/modules\//,
    toNot: [/^server\/src\/modules\/[^/]+\/index\.ts$/],
  },
  {
    name: 'features-apart',
    message:
      'features never import each other: share through api/, components/ or lib/ (docs/architecture.md)',
    from: /^web\/src\/features\/([^/]+)\//,
    fromNot: [TESTS],
    to: /^web\/src\/features\//,
    toNot: ['^web/src/features/$1/'],
  },
  {
    name: 'nothing-imports-app',
    message: 'nothing imports web/src/app: it composes features and layout (docs/architecture.md)',
    from: /^web\/src\//,
    fromNot: [TESTS, /^web\/src\/app\//, /^web\/src\/main\.tsx$/],
    to: /^web\/src\/app\//,
  },
  {
    name: 'shared-below-features',
    message: 'features are screens: shared code imports none of them (docs/architecture.md)',
    from: /^web\/src\/(api|components|layout|config|lib)\//,
    fromNot: [TESTS],
    to: /^web\/src\/features\//,
  },
  {
    name: 'layout-is-the-shell',
    message:
      'layout/ is the shell: api/, components/, config/ and lib/ do not import it (docs/architecture.md)',
    from: /^web\/src\/(api|components|config|lib)\//,
    fromNot: [TESTS],
    to: /^web\/src\/layout\//,
  },
  {
    name: 'api-over-lib',
    message: 'api/ is the data layer: it imports lib/ and contract only (docs/architecture.md)',
    from: /^web\/src\/api\//,
    fromNot: [TESTS],
    to: /^web\/src\/(components|config)\//,
  },
  {
    name: 'lib-is-the-floor',
    message: 'lib/ is the floor: it imports only contract and libraries (docs/architecture.md)',
    from: /^web\/src\/lib\//,
    fromNot: [TESTS],
    to: /^web\/src\/(api|components|layout|config)\//,
  },
];

const posix = (path) => path.split(sep).join('/');

function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const dir of ROOTS) if (existsSync(join(root, dir))) walk(dir);
  return files.sort();
}

/** Every module a file names: imports (type-only too), re-exports and dynamic imports with a literal. */
function specifiers(file, text) {
  const { module, errors } = parseSync(file, text);
  if (errors.length > 0) throw new Error(`${file}: ${errors[0].message}`);
  const names = module.staticImports.map((i) => i.moduleRequest.value);
  for (const e of module.staticExports)
    for (const entry of e.entries) if (entry.moduleRequest) names.push(entry.moduleRequest.value);
  for (const d of module.dynamicImports) {
    const literal = /^(['"`])([^'"`$]+)\1$/.exec(text.slice(d.moduleRequest.start, d.moduleRequest.end));
    if (literal) names.push(literal[2]);
  }
  return [...new Set(names)];
}

const BUILTINS = new Set(builtinModules);

export function check(root) {
  const realRoot = realpathSync(root);
  const resolver = new ResolverFactory({
    extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    conditionNames: ['import', 'node', 'default', 'types'],
  });
  const files = sourceFiles(root);
  /** @type {Map<string, {name: string, target: string, internal: boolean}[]>} */
  const graph = new Map();
  for (const file of files) {
    const imports = [];
    for (const name of specifiers(file, readFileSync(join(root, file), 'utf8'))) {
      if (name.startsWith('node:') || BUILTINS.has(name)) {
        imports.push({ name, target: name.startsWith('node:') ? name : `node:${name}`, internal: false });
        continue;
      }
      const resolved = resolver.sync(join(realRoot, file, '..'), name);
      const path = resolved.path && posix(relative(realRoot, realpathSync(resolved.path)));
      const internal = Boolean(path && !path.startsWith('..') && !path.includes('node_modules/'));
      imports.push({ name, target: internal ? path : name, internal });
    }
    graph.set(file, imports);
  }

  const violations = [];
  for (const [file, imports] of graph) {
    for (const rule of RULES) {
      const from = rule.from.exec(file);
      if (!from || (rule.fromNot ?? []).some((re) => re.test(file))) continue;
      const toNot = (rule.toNot ?? []).map((re) =>
        typeof re === 'string' ? new RegExp(re.replace('$1', from[1] ?? '')) : re,
      );
      for (const { name, target } of imports) {
        if (rule.to.test(target) && !toNot.some((re) => re.test(target)))
          violations.push({ rule: rule.name, file, imports: name, target, message: rule.message });
      }
    }
  }
  for (const circle of circles(graph))
    violations.push({
      rule: 'no-circle',
      file: circle[0],
      imports: circle[1],
      target: circle[1],
      message: `an import circle, type imports included: ${[...circle, circle[0]].join(' → ')} (a type lives with its owner; the other side imports it)`,
    });
  return violations;
}

/** One circle through each strongly connected set of files (Tarjan), shortest first found by BFS. */
function circles(graph) {
  const edges = new Map(
    [...graph].map(([file, imports]) => [
      file,
      [...new Set(imports.filter((i) => i.internal && graph.has(i.target)).map((i) => i.target))],
    ]),
  );
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const sets = [];
  const visit = (v) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const set = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1 || edges.get(v).includes(v)) sets.push(set);
    }
  };
  for (const v of edges.keys()) if (!indexOf.has(v)) visit(v);
  return sets.map((set) => {
    const members = new Set(set);
    const start = set.sort()[0];
    const previous = new Map([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift();
      for (const w of edges.get(v)) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [v];
          for (let p = previous.get(v); p !== null; p = previous.get(p)) path.unshift(p);
          return path;
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    return [start];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = check(process.cwd());
  if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(violations));
  else
    for (const v of violations) console.error(`${v.file}: ${v.rule}: imports ${v.imports}\n  ${v.message}`);
  if (violations.length > 0) {
    if (!process.argv.includes('--json')) console.error(`\n${violations.length} import rule violations`);
    process.exit(1);
  }
}
