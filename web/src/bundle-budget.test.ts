// @vitest-environment node
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Issue 9: the login page's first-load JavaScript, as sent (brotli), stays within this. */
const LOGIN_BUDGET_BYTES = 250 * 1000;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const webRoot = join(import.meta.dirname, '..');
const outDir = mkdtempSync(join(tmpdir(), 'kilowatch-web-build-'));
let manifest: Manifest;

/** The chunks the browser fetches for `key` before running it: itself and its static imports. */
function staticClosure(key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, into);
  return into;
}

/** index.html's entry and its modulepreloads, and the login screen's chunks if it is ever made lazy. */
function loginFirstLoad(): string[] {
  const keys = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isEntry || key.endsWith('features/auth/LoginPage.tsx')) staticClosure(key, keys);
  }
  return [...keys].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

const size = (file: string) => statSync(join(outDir, file)).size;
/** What the server sends for `file`: its precompressed variant, or the file itself when too small to have one. */
const sent = (file: string, variant: '.br' | '.gz') =>
  existsSync(join(outDir, file + variant)) ? size(file + variant) : size(file);

beforeAll(async () => {
  // Vitest sets NODE_ENV=test, which would build React's development bundles.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: webRoot,
      mode: 'production',
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the built console', () => {
  it('keeps the login page first-load JavaScript within 250 KB as transferred (brotli)', () => {
    const files = loginFirstLoad();
    expect(files.length).toBeGreaterThan(0);
    const rows = files.map((file) => ({
      file,
      raw: size(file),
      br: sent(file, '.br'),
      gzip: sent(file, '.gz'),
    }));
    const total = (key: 'raw' | 'br' | 'gzip') => rows.reduce((sum, row) => sum + row[key], 0);
    console.info(
      `login first-load JS: ${rows.length} files, ${total('raw')} B raw, ${total('br')} B br, ${total('gzip')} B gzip`,
    );
    expect(total('br')).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
    // Browsers without brotli get gzip; it must not be far behind.
    expect(total('gzip')).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES * 1.2);
  });

  it('leaves the charts and the data tables out of the login page', () => {
    const files = loginFirstLoad().join(' ');
    expect(files).not.toMatch(/echarts/);
    const firstLoadSources = Object.entries(manifest)
      .filter(([, chunk]) => loginFirstLoad().includes(chunk.file))
      .map(([key]) => key);
    expect(firstLoadSources.filter((key) => /layout\/MainLayout|components\/charts/.test(key))).toEqual([]);
  });

  it('precompresses every text asset above 1 KB', () => {
    for (const chunk of Object.values(manifest)) {
      if (size(chunk.file) < 1024) continue;
      expect(existsSync(join(outDir, `${chunk.file}.br`)), chunk.file).toBe(true);
      expect(existsSync(join(outDir, `${chunk.file}.gz`)), chunk.file).toBe(true);
    }
  });
});
