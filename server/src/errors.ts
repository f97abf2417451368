import type { ErrorCode } from '@kilowatch/contract';
import type { MessageKey, MessageParams } from './i18n/index.ts';

export interface AppErrorOptions {
  /** A more specific message than the code's own, e.g. why a request was malformed. */
  message?: MessageKey;
  /** Sent with the error response, e.g. Retry-After. */
  headers?: Record<string, string>;
}

/**
 * An expected failure, answered as `{ code, message }` with `status`; the message is looked up
 * in the request's language when the response is written, so services stay language-free.
 * @example throw new AppError('TOO_MANY_ATTEMPTS', 429, { minutes: 15 })
 */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    readonly params: MessageParams = {},
    readonly options: AppErrorOptions = {},
  ) {
    super(code);
  }
}
