import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  type AllowList,
  checkUrlHost,
  guardedLookup,
  InternalAddressRefused,
} from '../../../shared/outbound-address.ts';
import { SmtpNotConfigured, type SmtpServer, sendMail } from '../../mail/index.ts';
import { type NotifyMessage, SIGNATURE_HEADER, signature } from './message.ts';

export interface WebhookTarget {
  url: string;
  secret: string;
  timeoutMs: number;
}

/** The receiver answered, but not with a 2xx (a redirect included: redirects are not followed). */
class WebhookRefused extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
    this.name = 'WebhookRefused';
  }
}

/** No answer within the route's timeout. */
class WebhookTimeout extends Error {
  constructor() {
    super('no answer in time');
    this.name = 'WebhookTimeout';
  }
}

/**
 * The header naming a delivery: the same on every try of one notification, whichever replica makes
 * it, so a receiver that remembers keys sees a resend after a replica's death as the one it had
 * (the IETF draft's Idempotency-Key; docs/cluster.md).
 */
const DELIVERY_HEADER = 'idempotency-key';

/**
 * Posts the message's JSON body; anything but a 2xx answer, or no answer in time, is a failure.
 * Internal addresses are refused unless `allow` lists them (shared/outbound-address.ts): the typed
 * host before connecting, and every address the name resolves to inside the connection's lookup.
 * The receiver's body is drained, never kept: its words are not the server's to repeat.
 * `stop` cuts the call short when the server shuts down.
 */
export async function sendWebhook(
  target: WebhookTarget,
  message: NotifyMessage,
  allow: AllowList,
  stop?: AbortSignal,
  deliveryKey?: string,
): Promise<void> {
  const url = new URL(target.url);
  checkUrlHost(url, allow);
  const body = JSON.stringify(message.body);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'user-agent': 'Kilowatch-Alarms',
  };
  if (target.secret) headers[SIGNATURE_HEADER] = signature(target.secret, body);
  if (deliveryKey) headers[DELIVERY_HEADER] = deliveryKey;
  const timeout = AbortSignal.timeout(target.timeoutMs);
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(timeout.aborted ? new WebhookTimeout() : error);
    const call = request(
      url,
      { method: 'POST', headers, signal, lookup: guardedLookup(allow) },
      (response) => {
        response.on('error', fail);
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new WebhookRefused(status));
        });
        response.resume();
      },
    );
    call.on('error', fail);
    call.end(body);
  });
}

/** Why a test send failed, from a fixed set: never the remote's own words or error codes. */
export type FailureKey =
  | 'alarm.notify.test.refused'
  | 'alarm.notify.test.internal'
  | 'alarm.notify.test.timeout'
  | 'alarm.notify.test.unreachable'
  | 'alarm.notify.smtp.notConfigured'
  | 'alarm.notify.smtp.auth'
  | 'alarm.notify.smtp.tls'
  | 'alarm.notify.smtp.rejected'
  | 'alarm.notify.smtp.unreachable';

const TLS_CODE = /^(ERR_SSL|ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/;

/** The SMTP outcome of a nodemailer error: authentication, TLS, a mail refused once connected, or unreachable. */
function smtpFailure(error: Error & { code?: unknown; originalCode?: unknown }): FailureKey {
  const codes = [error.code, error.originalCode].filter((c): c is string => typeof c === 'string');
  if (codes.some((c) => c === 'EAUTH' || c === 'ENOAUTH')) return 'alarm.notify.smtp.auth';
  if (codes.some((c) => c === 'ETLS' || c === 'EREQUIRETLS' || TLS_CODE.test(c)))
    return 'alarm.notify.smtp.tls';
  if (codes.some((c) => c === 'EENVELOPE' || c === 'EMESSAGE')) return 'alarm.notify.smtp.rejected';
  return 'alarm.notify.smtp.unreachable';
}

/** A failed send as one of the fixed outcomes a test answers, with the parameters its message takes. */
export function failureOf(
  error: unknown,
  channel: 'webhook' | 'email',
): { key: FailureKey; params: Record<string, string | number> } {
  if (error instanceof WebhookRefused)
    return { key: 'alarm.notify.test.refused', params: { status: error.status } };
  if (error instanceof InternalAddressRefused)
    return { key: 'alarm.notify.test.internal', params: { host: error.host } };
  if (error instanceof WebhookTimeout) return { key: 'alarm.notify.test.timeout', params: {} };
  if (error instanceof SmtpNotConfigured) return { key: 'alarm.notify.smtp.notConfigured', params: {} };
  if (channel === 'email' && error instanceof Error) return { key: smtpFailure(error), params: {} };
  return { key: 'alarm.notify.test.unreachable', params: {} };
}

/**
 * Mails the message's subject and text to the recipients through the configured SMTP server; with
 * `deliveryKey`, every try carries the same Message-ID (mail stores drop a second copy of one).
 */
export function sendEmail(
  server: SmtpServer,
  recipients: readonly string[],
  message: NotifyMessage,
  stop?: AbortSignal,
  deliveryKey?: string,
): Promise<void> {
  return sendMail(
    server,
    {
      to: recipients,
      subject: message.subject,
      text: message.text,
      ...(deliveryKey ? { messageId: deliveryKey } : {}),
    },
    stop,
  );
}
