import type { zh } from './zh.ts';

/** Every language carries exactly the Chinese catalogue's keys; a missing one fails typecheck. */
export type MessageKey = keyof typeof zh;
export type Messages = Record<MessageKey, string>;
export type MessageParams = Record<string, string | number>;
