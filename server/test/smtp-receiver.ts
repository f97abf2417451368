import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the receiver got it: the envelope and the raw message (headers and MIME body). */
export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
  /** Who logged in, when the receiver asks for a password. */
  user: string | undefined;
}

/**
 * A plain SMTP server on 127.0.0.1 (no TLS) keeping the mails it receives, for tests that send
 * through the SMTP settings (alarm notifications, report schedules). With `login`, it accepts
 * only that user and password; without, it asks for none.
 */
export async function smtpReceiver(login?: { username: string; password: string }) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: login !== undefined,
    logger: false,
    onAuth(auth, _session, callback) {
      if (login && auth.username === login.username && auth.password === login.password)
        callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
