/**
 * Data chunks filled as typed arrays, and the slices a large commit is cut into: the writer runs
 * on the main thread, so no stretch of its JavaScript or DuckDB work may hold realtime queries
 * and acknowledgements longer than a few ms.
 */
import { endianness } from 'node:os';
import {
  type DuckDBConnection,
  DuckDBDataChunk,
  DuckDBTableFunction,
  type DuckDBType,
  type DuckDBVector,
  INTEGER,
} from '@duckdb/node-api';

/** Rows per data chunk (DuckDB's vector size). */
export const CHUNK = 2048;

/** How long the writer works before it lets the event loop run, ms. */
const SLICE_MS = 4;

/**
 * Chunks an appender takes before it is flushed into the transaction. DuckDB flushes on its own
 * only every 100 chunks (tens of ms on the main thread at once); a flush per chunk costs about
 * 1 ms each (120 chunks flushed one by one took 2× as long as in eights).
 */
const FLUSH_CHUNKS = 8;

/**
 * The typed array behind a fixed-width vector of a new data chunk, which `flush()` copies into the
 * chunk. @duckdb/node-api 1.5 keeps it in a field its typings mark private (it has no public
 * bulk setter; `setItem` would need a BigInt per timestamp), so its shape is checked here: a
 * release that changes it fails the first write loudly, not silently.
 */
export function itemsOf<A extends Int32Array | BigInt64Array | Float64Array>(
  vector: DuckDBVector,
  kind: { new (length: number): A },
): A {
  const items = (vector as unknown as { items?: unknown }).items;
  if (!(items instanceof kind) || items.length !== vector.itemCount)
    throw new Error(`@duckdb/node-api: a ${vector.type} vector holds no ${kind.name} of its items`);
  return items;
}

/** Which 32-bit half of a native int64 comes first in memory. */
const [LOW, HIGH] = endianness() === 'LE' ? [0, 1] : [1, 0];

/** An int64 vector's items as 32-bit words, set by `setInt64` without a BigInt per value. */
export function int64Words(vector: DuckDBVector): Uint32Array {
  const items = itemsOf(vector, BigInt64Array);
  return new Uint32Array(items.buffer, items.byteOffset, items.length * 2);
}

/** Stores an integer below 2^53 (a time, a gap) in row `row` of `int64Words`' array. */
export function setInt64(words: Uint32Array, row: number, value: number): void {
  words[2 * row + LOW] = value >>> 0;
  words[2 * row + HIGH] = Math.floor(value / 0x1_0000_0000);
}

/** Lets the event loop run whenever the work since the last pause took a slice. */
export class Slices {
  private since = performance.now();

  /** Resolves at once inside a slice; after a slice, once the loop has run. */
  async pause(): Promise<void> {
    if (performance.now() - this.since < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}

/** Rows inserted a data chunk at a time by insertChunks(). */
export interface ChunkSource {
  /** The target table's column types, in its column order. */
  readonly types: readonly DuckDBType[];
  /** How many rows in all. */
  readonly rows: number;
  /** Writes the next `rows` rows (1 to CHUNK) into `out`'s vectors and flushes them. */
  fill(out: DuckDBDataChunk, rows: number): void;
}

/** The sources of the inserts under way, by the id their scan is called with. */
const sources = new Map<number, { source: ChunkSource; done: number }>();
let nextSource = 0;
const registered = new WeakSet<DuckDBConnection>();

/**
 * A scan of the source registered under its argument. DuckDB calls it from its own thread for
 * each chunk, and the call runs as a task of the event loop: only `fill` is on the main thread.
 */
const scan = DuckDBTableFunction.create({
  name: 'kw_chunks',
  parameterTypes: [INTEGER],
  bindFunction: (info) => {
    const entry = sources.get(Number(info.getParameter(0)));
    if (!entry) {
      info.setError('kw_chunks: no source under this id');
      return;
    }
    entry.source.types.forEach((type, k) => {
      info.addResultColumn(`c${k}`, type);
    });
    info.setCardinality(entry.source.rows, true);
    info.setBindData(entry);
  },
  initFunction: (info) => info.setMaxThreads(1),
  mainFunction: (info, out) => {
    const entry = info.bindData as { source: ChunkSource; done: number };
    const rows = Math.min(CHUNK, entry.source.rows - entry.done);
    out.rowCount = rows;
    if (rows === 0) return;
    try {
      entry.source.fill(out, rows);
      entry.done += rows;
    } catch (error) {
      out.rowCount = 0;
      info.setError(error instanceof Error ? error.message : String(error));
    }
  },
});

/**
 * Registers the `kw_chunks` table function on a connection, outside any transaction: a function
 * registered inside one goes with its rollback, and every later insert on the connection would
 * fail (the writer's first commit failing would have stopped all ingest until a restart).
 */
export function registerChunks(c: DuckDBConnection): void {
  if (registered.has(c)) return;
  c.registerTableFunction(scan);
  registered.add(c);
}

/**
 * `INSERT INTO table SELECT * FROM` the source, in the connection's transaction. An appender
 * would append and flush each chunk synchronously on the main thread (its `flushSync` and
 * `closeSync` were 13–16 % of the main thread during ingest); here DuckDB does that on its own
 * threads and the main thread only fills each chunk's typed arrays, between other tasks.
 */
export async function insertChunks(c: DuckDBConnection, table: string, source: ChunkSource): Promise<void> {
  if (source.rows === 0) return;
  if (!registered.has(c)) throw new Error('kw_chunks is not registered on this connection (registerChunks)');
  const id = nextSource++ % 0x7fff_ffff;
  sources.set(id, { source, done: 0 });
  try {
    await c.run(`INSERT INTO ${table} SELECT * FROM kw_chunks(${id})`);
  } finally {
    sources.delete(id);
  }
}

/** How a commit's rows go into a table: insertChunks(), or appendChunks() with its slices. */
export type InsertRows = (c: DuckDBConnection, table: string, source: ChunkSource) => Promise<void>;

/**
 * The source's rows appended through an appender, a data chunk at a time, the event loop running
 * between slices. No round trip per chunk as in insertChunks(): each of those waits for a turn of
 * the event loop, which the demo history's generation holds for up to 8 ms, so a 250,000-point
 * commit's 122 chunks took longer than its appends (bench/README.md, demo history). The appends
 * and flushes are on the main thread instead; for writes nobody waits on (the history).
 */
export async function appendChunks(
  c: DuckDBConnection,
  table: string,
  source: ChunkSource,
  slices: Slices,
): Promise<void> {
  if (source.rows === 0) return;
  const app = await c.createAppender(table);
  let chunks = 0;
  try {
    for (let done = 0; done < source.rows; ) {
      const rows = Math.min(CHUNK, source.rows - done);
      const chunk = DuckDBDataChunk.create(source.types, rows);
      source.fill(chunk, rows);
      app.appendDataChunk(chunk);
      if (++chunks % FLUSH_CHUNKS === 0) app.flushSync();
      done += rows;
      await slices.pause();
    }
  } catch (error) {
    // An appender flushes what it holds when it is closed or collected: after the caller's
    // rollback that would land outside any transaction.
    app.clear();
    app.closeSync();
    throw error;
  }
  app.closeSync();
}
