import { brotliCompressSync, constants } from 'node:zlib';
import { expect, test } from '@playwright/test';

/** Issue 24: every script and stylesheet the login page makes the browser load, as sent (brotli). */
const LOGIN_BUDGET_BYTES = 250 * 1000;

interface Loaded {
  url: string;
  raw: number;
  br: number;
  /** How the server sent it (content-encoding). */
  encoding: string;
}

/**
 * The server sends the build's precompressed `.br` files, which the browser unpacks before a
 * response body is readable: compressing each body again at the build's level gives what was sent.
 */
const brotliSize = (body: Buffer) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  }).length;

test('the login page loads at most 250 KB of JavaScript and CSS (brotli)', async ({ page }) => {
  const pending: Promise<Loaded | null>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response.body().then(
        async (body) => ({
          url: new URL(response.url()).pathname,
          raw: body.length,
          br: brotliSize(body),
          encoding: (await response.allHeaders())['content-encoding'] ?? 'identity',
        }),
        // A body the browser let go of before it was read was still sent: the test fails on it.
        () => null,
      ),
    );
  });
  await page.goto('/#/login');
  await expect(page.getByRole('button', { name: /登\s*录/ })).toBeVisible();
  // Whatever the page fetches after its first paint (idle-time imports) counts as well.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1_000);
  await page.waitForLoadState('networkidle');

  const loaded = await Promise.all(pending);
  expect(loaded, 'every response body was read').not.toContain(null);
  const files = (loaded as Loaded[]).toSorted((a, b) => b.br - a.br);
  const total = (key: 'raw' | 'br') => files.reduce((sum, file) => sum + file[key], 0);
  console.info(
    [
      `login page: ${files.length} files, ${total('raw')} B raw, ${total('br')} B br`,
      ...files.map(
        (file) =>
          `${String(file.br).padStart(8)} B br ${String(file.raw).padStart(8)} B raw  ${file.encoding.padEnd(8)} ${file.url}`,
      ),
    ].join('\n'),
  );
  expect(files.length).toBeGreaterThan(0);
  expect(total('br')).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
  // The build precompresses (web/precompress.ts) and the server sends the precompressed files.
  expect(files.filter((file) => file.raw >= 1024 && file.encoding !== 'br').map((file) => file.url)).toEqual(
    [],
  );
  // The screens' code stays out of the login page: no layout, charts or tables.
  expect(files.map((file) => file.url).filter((url) => /MainLayout|echarts/.test(url))).toEqual([]);
});
