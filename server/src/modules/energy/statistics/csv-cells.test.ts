import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tableWriter } from './exports.ts';

describe('statistics CSV cells', () => {
  it('makes names that start a formula inert and keeps negative numbers as numbers', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const writer = tableWriter('csv', out);
    writer.sheet({ name: 'Statistics' });
    await writer.row(['=HYPERLINK("http://evil","电表")', '+M1', '-cmd', '@SUM(A1)', '\tx', -12.345, null]);
    const ended = once(out, 'end');
    await writer.end();
    await ended;
    const text = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    expect(text).toBe(`"'=HYPERLINK(""http://evil"",""电表"")",'+M1,'-cmd,'@SUM(A1),'\tx,-12.35,\r\n`);
  });
});
