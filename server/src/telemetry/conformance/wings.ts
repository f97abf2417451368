/**
 * The two wings for the conformance suite: DuckDB (in memory, or in a folder when reopened) and
 * VictoriaMetrics, a single node this file starts from Debian's binary on a temporary folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DuckDBTelemetryStore,
  type OpenedTelemetryStore,
  openTelemetryStore,
  type RetentionDays,
  VictoriaTelemetryStore,
} from '../index.ts';

const RETENTION: RetentionDays = { rawDays: 90, minuteDays: 400, hourDays: 1830 };

export interface WingOptions {
  timeZone: string;
  now: () => number;
  /** The same key opens the same stored data again (a restart); none: a fresh, empty store. */
  key?: string;
}

export interface Wing {
  name: 'duckdb' | 'victoria';
  open(options: WingOptions): Promise<OpenedTelemetryStore>;
  /**
   * Rows the wing derived from the points that differ from what the points give now (DuckDB's
   * minute, hour and day rollups; none for VictoriaMetrics, which keeps raw samples only).
   */
  staleRows(store: OpenedTelemetryStore): Promise<number>;
}

const VM_BIN = process.env.VICTORIA_METRICS_BIN ?? '/usr/bin/victoria-metrics';

/** Why the VictoriaMetrics wing cannot run here (undefined: it can). */
export function victoriaMissing(): string | undefined {
  return existsSync(VM_BIN)
    ? undefined
    : `${VM_BIN} not found (install Debian's victoria-metrics package, or set VICTORIA_METRICS_BIN)`;
}

let seq = 0;

/** A fresh namespace per store: series are stored under their own metric name, so tests never meet. */
const freshName = () => `kwtest_${process.pid}_${Date.now().toString(36)}_${++seq}`;

export function duckdbWing(dirs: string[]): Wing {
  const folders = new Map<string, string>();
  return {
    name: 'duckdb',
    async open({ timeZone, now, key }) {
      let dataDir = ':memory:';
      if (key !== undefined) {
        dataDir = folders.get(key) ?? mkdtempSync(join(tmpdir(), 'kw-conformance-'));
        if (!folders.has(key)) dirs.push(dataDir);
        folders.set(key, dataDir);
      }
      return openTelemetryStore({ dataDir, timeZone, retention: RETENTION, now });
    },
    async staleRows(store) {
      const { minute, hour, day } = await (store as DuckDBTelemetryStore).checkRollups();
      return minute + hour + day;
    },
  };
}

export interface VictoriaProcess {
  url: string;
  /** Stops it (SIGTERM: it writes everything out) and removes its folder; the folder's bytes before that. */
  stop(): Promise<number>;
}

function sizeOf(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of readdirSync(path)) n += sizeOf(join(path, e));
  return n;
}

async function freePort(): Promise<number> {
  const fixed = Number(process.env.VICTORIA_TEST_PORT);
  if (Number.isInteger(fixed) && fixed > 0) return fixed;
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a single-node victoria-metrics on a temporary folder and waits for /health. */
export async function startVictoria(): Promise<VictoriaProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'kw-victoria-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    VM_BIN,
    [
      `-storageDataPath=${dir}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      '-retentionPeriod=100y',
      '-loggerLevel=ERROR',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-2000);
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    const bytes = sizeOf(dir);
    rmSync(dir, { recursive: true, force: true });
    return bytes;
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`victoria-metrics exited with ${child.exitCode}: ${stderr}`);
    }
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`victoria-metrics did not answer /health on ${url} within 15 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, stop };
}

export function victoriaWing(vm: () => VictoriaProcess): Wing {
  const names = new Map<string, string>();
  return {
    name: 'victoria',
    async open({ timeZone, now, key }) {
      let name = freshName();
      if (key !== undefined) {
        name = names.get(key) ?? name;
        names.set(key, name);
      }
      // Every query whose buckets are whole hours reads the rollups, however small (the default
      // reads small ones raw): the suite holds the rollups to the same answers.
      return VictoriaTelemetryStore.open({
        url: vm().url,
        timeZone,
        retention: RETENTION,
        now,
        name,
        rollupMinHours: 0,
      });
    },
    staleRows: async () => 0,
  };
}
