export { batchOf, columnBatch, createMemoryLive, type Live, type LiveBatch } from './live.ts';
