// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The lint plugin that keeps HTML in web/src/lib/html.ts, run on sources written to a scratch
 * folder: each line of BAD must be reported, nothing of GOOD may be.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const PLUGIN = join(ROOT, 'web/lint/no-html-strings.grit');
const BIOME = join(ROOT, 'node_modules/.bin/biome');

const BAD = [
  `const a = { tooltip: { trigger: 'item', formatter: (p) => p.name } };`,
  `const b = { tooltip: { formatter: '{b}: {c}' } };`,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal, linted as such
  'const c = { tooltip: { formatter: `${name} {c}` } };',
  `const d = { series: [{ tooltip: { 'formatter': tip } }] };`,
  `const e = { tooltip: { trigger: 'axis', formatter, confine: true } };`,
  `option.tooltip.formatter = (p) => p.seriesName;`,
  `const f = { formatter: (p) => '<b>' + p.name + '</b>' };`,
  `el.innerHTML = name;`,
  `el.outerHTML = name;`,
  `el.insertAdjacentHTML('beforeend', name);`,
  `frame.srcdoc = name;`,
  `document.write(name);`,
  `new DOMParser().parseFromString(name, 'text/html');`,
  `range.createContextualFragment(name);`,
  `const g = <div dangerouslySetInnerHTML={{ __html: name }} />;`,
  `node.setAttrs({ label: { html: name } });`,
  `node.setAttrByPath('label/html', name);`,
];

const GOOD = [
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal, linted as such
  'const a = { tooltip: { formatter: tooltipHtml((p) => html`${p.name}`) } };',
  'const b = { tooltip: { formatter: tooltipHtml(rows) as Formatter } };',
  `const c = { tooltip: { trigger: 'axis', valueFormatter: (v) => String(v) } };`,
  `const d = { series: [{ label: { formatter: '{b}: {d}%' } }] };`,
  `const e = { xAxis: { axisLabel: { show: true, formatter: (v) => String(v) } } };`,
  `const f = { series: [{ markLine: { label: { formatter: limit + ' {c}' } } }] };`,
  `type T = { tooltip: { formatter: (p: unknown) => string } };`,
  `const g = <InputNumber formatter={(v) => String(v)} />;`,
  `el.textContent = name;`,
  `node.setAttrByPath('label/text', name);`,
];

const dir = mkdtempSync(join(tmpdir(), 'kw-html-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
  diagnostics: { category: string; location: { path: string; start: { line: number } } }[];
}

function flaggedLines(file: string, lines: readonly string[]): number[] {
  writeFileSync(join(dir, 'biome.json'), JSON.stringify({ plugins: [PLUGIN] }));
  writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
  let out: string;
  try {
    out = execFileSync(BIOME, ['lint', '--reporter=json', file], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Biome exits non-zero when it reports: its report is still on stdout.
    out = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as Report;
  return report.diagnostics
    .filter((d) => d.category === 'plugin')
    .map((d) => d.location.start.line)
    .sort((a, b) => a - b);
}

describe('the no-html-strings lint plugin', () => {
  it('reports every raw tooltip formatter and HTML sink', () => {
    expect(flaggedLines('bad.tsx', BAD)).toEqual(BAD.map((_, i) => i + 1));
  });

  it('lets tooltipHtml formatters, value formatters and canvas labels through', () => {
    expect(flaggedLines('good.tsx', GOOD)).toEqual([]);
  });
});
