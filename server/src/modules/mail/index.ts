/**
 * Mail through an SMTP server: what the alarm centre's notifications and the scheduled reports
 * both send with. The server is read at each send (`createMailer`), so a change of the settings
 * applies at once; the settings themselves are the alarm centre's (notification settings).
 */

import { type Mail, type SmtpServer, sendMail } from './smtp.ts';

export { type Mail, SmtpNotConfigured, type SmtpServer, sendMail } from './smtp.ts';

/** A sender on the SMTP server `server()` answers at each send. Throws SmtpNotConfigured when none is set. */
export function createMailer(server: () => Promise<SmtpServer>) {
  return {
    async send(mail: Mail, stop?: AbortSignal): Promise<void> {
      await sendMail(await server(), mail, stop);
    },
  };
}
