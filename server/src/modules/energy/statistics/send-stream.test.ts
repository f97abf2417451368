import ExcelJS from 'exceljs';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReaderGone } from '../sheets.ts';
import { sendStream } from './send-stream.ts';

/** Rows enough that the answer has long started (and left the buffers) before the failure. */
const ROWS = 20_000;

describe('streamed exports', () => {
  let app: FastifyInstance;
  let base: string;
  /** Rows the last export wrote, and how it ended. */
  let written = 0;
  let ended: Promise<unknown> = Promise.resolve();
  beforeAll(async () => {
    app = Fastify({ logger: false, forceCloseConnections: true });
    app.get<{ Querystring: { fail?: string; format?: 'xlsx' | 'csv' } }>('/file', (request, reply) =>
      sendStream(
        request,
        reply,
        { format: request.query.format ?? 'xlsx', filename: 'big.xlsx', rows: ROWS + 1 },
        (out) => {
          const run = async () => {
            written = 0;
            out.sheet({ name: 'Data', frozen: { x: 1, y: 1 }, widths: [12, 12] });
            await out.row(['name', 'value']);
            for (let i = 0; i < ROWS; i++) {
              if (request.query.fail && i === ROWS / 2) throw new Error('the store went away');
              await out.row([`thing ${i}`, i * 1.5]);
              written++;
              // A slow source (a store read per chunk), so a cancel lands mid-file.
              if (i % 1000 === 999) await new Promise((r) => setTimeout(r, 5));
            }
            await out.end();
          };
          const done = run();
          ended = done.catch((error: unknown) => error);
          return done;
        },
      ),
    );
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('streams an xlsx with its rows, formats and frozen header, and says how many rows to expect', async () => {
    const res = await fetch(`${base}/file`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-export-rows')).toBe(String(ROWS + 1));
    expect(res.headers.get('content-length')).toBeNull();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.getWorksheet('Data')!;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', xSplit: 1, ySplit: 1 });
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.rowCount).toBe(ROWS + 1);
    expect(sheet.getRow(ROWS + 1).values).toEqual([undefined, `thing ${ROWS - 1}`, (ROWS - 1) * 1.5]);
    expect(sheet.getCell('B3').numFmt).toBe('#,##0.00');
  });

  it('a failure after the first byte cuts the download short: the client cannot read a whole file', async () => {
    for (const format of ['xlsx', 'csv']) {
      const res = await fetch(`${base}/file?fail=1&format=${format}`);
      expect(res.status).toBe(200);
      await expect(res.arrayBuffer(), format).rejects.toThrow();
    }
  });

  it('a cancelled download stops the export at its next row', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/file?format=csv`, { signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    const error = await ended;
    expect(error).toBeInstanceOf(ReaderGone);
    expect(written).toBeLessThan(ROWS);
  });
});
