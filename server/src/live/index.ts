export { createMemoryLive, type Live, type LiveErrorSink, type LiveListener, type Series } from './live.ts';
