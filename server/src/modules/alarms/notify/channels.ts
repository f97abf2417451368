import nodemailer from 'nodemailer';
import { type NotifyMessage, SIGNATURE_HEADER, signature } from './message.ts';

export interface WebhookTarget {
  url: string;
  secret: string;
  timeoutMs: number;
}

export interface SmtpServer {
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
  username: string;
  password: string;
  from: string;
}

/** How long an SMTP server may take for each step (connect, greeting, each command), ms. */
const SMTP_TIMEOUT_MS = 15_000;

/**
 * Posts the message's JSON body; anything but a 2xx answer, or no answer in time, is a failure.
 * `stop` cuts the call short when the server shuts down.
 */
export async function sendWebhook(
  target: WebhookTarget,
  message: NotifyMessage,
  stop?: AbortSignal,
): Promise<void> {
  const body = JSON.stringify(message.body);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'user-agent': 'Kilowatch-Alarms',
  };
  if (target.secret) headers[SIGNATURE_HEADER] = signature(target.secret, body);
  const response = await fetch(target.url, {
    method: 'POST',
    headers,
    body,
    redirect: 'error',
    signal: stop
      ? AbortSignal.any([AbortSignal.timeout(target.timeoutMs), stop])
      : AbortSignal.timeout(target.timeoutMs),
  });
  // Drain the body so the connection is released; its text says why on a failure.
  const answer = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}${answer ? `: ${answer.slice(0, 200)}` : ''}`);
}

/** Thrown when no SMTP server is set (alarm centre → notification settings): a state, not a fault. */
export class SmtpNotConfigured extends Error {
  constructor() {
    super('SMTP server not configured');
    this.name = 'SmtpNotConfigured';
  }
}

/** A mail as the alarm centre's and the scheduled reports' senders hand it over. */
export interface Mail {
  to: readonly string[];
  subject: string;
  text: string;
  attachments?: readonly { filename: string; content: Buffer; contentType: string }[];
}

/**
 * Sends one mail through the SMTP server; `stop` cuts a send under way short (server shutdown).
 * Throws SmtpNotConfigured when no server or sender address is set.
 */
export async function sendMail(server: SmtpServer, mail: Mail, stop?: AbortSignal): Promise<void> {
  if (!server.host || !server.from) throw new SmtpNotConfigured();
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.security === 'tls',
    requireTLS: server.security === 'starttls',
    ignoreTLS: server.security === 'none',
    ...(server.username ? { auth: { user: server.username, pass: server.password } } : {}),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  // Closing the transport drops its connection, so a send under way fails at once.
  const cut = () => transport.close();
  stop?.addEventListener('abort', cut, { once: true });
  try {
    stop?.throwIfAborted();
    await transport.sendMail({
      from: server.from,
      to: [...mail.to],
      subject: mail.subject,
      text: mail.text,
      ...(mail.attachments ? { attachments: mail.attachments.map((a) => ({ ...a })) } : {}),
    });
  } finally {
    stop?.removeEventListener('abort', cut);
    transport.close();
  }
}

/** Mails the message's subject and text to the recipients through the configured SMTP server. */
export function sendEmail(
  server: SmtpServer,
  recipients: readonly string[],
  message: NotifyMessage,
  stop?: AbortSignal,
): Promise<void> {
  return sendMail(server, { to: recipients, subject: message.subject, text: message.text }, stop);
}
