import nodemailer from 'nodemailer';

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

/** Thrown when no SMTP server is set (alarm centre → notification settings): a state, not a fault. */
export class SmtpNotConfigured extends Error {
  constructor() {
    super('SMTP server not configured');
    this.name = 'SmtpNotConfigured';
  }
}

/** The domain of a From address ('Name <a@b.example>' or 'a@b.example'). */
const domainOf = (from: string) => /@([^>\s]+)/.exec(from)?.[1] ?? 'kilowatch.invalid';

/** A mail as the alarm centre's and the scheduled reports' senders hand it over. */
export interface Mail {
  to: readonly string[];
  subject: string;
  text: string;
  /**
   * The Message-ID's left part (the sender's domain is added), when every try of one mail must
   * carry the same: mail stores keep one copy of a Message-ID.
   */
  messageId?: string;
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
      ...(mail.messageId ? { messageId: `<${mail.messageId}@${domainOf(server.from)}>` } : {}),
      ...(mail.attachments ? { attachments: mail.attachments.map((a) => ({ ...a })) } : {}),
    });
  } finally {
    stop?.removeEventListener('abort', cut);
    transport.close();
  }
}
