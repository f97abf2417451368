export { createMemoryLive, type Live } from './live.ts';
