import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { formatLogLine } from './log-format.ts';

describe('formatLogLine', () => {
  it('writes a pino line for a person: time, level, module, message, fields', () => {
    const time = new Date(2026, 10, 23, 12, 3, 4).getTime();
    const line = JSON.stringify({
      level: 30,
      time,
      pid: 1,
      hostname: 'h',
      module: 'mqtt',
      port: 1883,
      msg: 'up',
    });
    expect(formatLogLine(line, false)).toBe('12:03:04 INFO  [mqtt] up port=1883');
    const error = JSON.stringify({
      level: 50,
      time,
      msg: 'failed',
      err: { message: 'x', stack: 'Error: x\n    at y' },
    });
    expect(formatLogLine(error, false)).toBe('12:03:04 ERROR failed\nError: x\n    at y');
    expect(formatLogLine('not json', false)).toBe('not json');
  });
});

describe('request logging', () => {
  async function linesOf(level: string) {
    const dataDir = mkdtempSync(join(tmpdir(), 'kilowatch-log-'));
    const lines: Record<string, unknown>[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: level,
      ADMIN_PASSWORD: 'Admin123',
      MQTT_PORT: '0',
      WEB_DIST: join(dataDir, 'none'),
    });
    const app = await buildApp(config, { logStream });
    try {
      await app.inject({ method: 'GET', url: '/api/health?token=secret' });
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    return lines.filter((l) => l.url !== undefined || l.req !== undefined || l.res !== undefined);
  }

  it('says nothing per request at info', async () => {
    expect(await linesOf('info')).toEqual([]);
  });

  it('writes one line per request at debug, the token redacted', async () => {
    const lines = await linesOf('debug');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 20,
      msg: 'request',
      method: 'GET',
      url: '/api/health?token=[redacted]',
      statusCode: 200,
    });
  });
});
