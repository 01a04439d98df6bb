import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export const SMTP_USER = 'compliance';
export const SMTP_PASSWORD = 'smtp-test-password';

/**
 * A real SMTP server on loopback that keeps what it is sent, parsed as a mail client would (mailparser). It asks
 * for credentials, as a production relay does; the service reaches it with `url`.
 */
export class SmtpInbox {
  readonly received: ParsedMail[] = [];
  /** Refuse every message with a temporary error while true (a relay that is down). */
  refusing = false;
  private server!: SMTPServer;
  url = '';

  static async start(): Promise<SmtpInbox> {
    const inbox = new SmtpInbox();
    inbox.server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD)
          return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        if (inbox.refusing) {
          stream.resume();
          // As real relays do, the refusal quotes the recipient.
          const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
          const error = Object.assign(new Error(`Mailbox <${to}> temporarily unavailable`), {
            responseCode: 451,
          });
          return stream.on('end', () => callback(error));
        }
        simpleParser(stream)
          .then((mail) => {
            inbox.received.push(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
    await new Promise<void>((resolve) => inbox.server.listen(0, '127.0.0.1', resolve));
    const { port } = inbox.server.server.address() as AddressInfo;
    inbox.url = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`;
    return inbox;
  }

  /** The messages sent to this address, oldest first. */
  to(address: string): ParsedMail[] {
    return this.received.filter((mail) => [mail.to].flat().some((to) => to?.text.includes(address)));
  }

  /** The 6-digit code of the latest message to this address, read from its text as a player would read it. */
  latestCode(address: string): string {
    const mail = this.to(address).at(-1);
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    if (!code) throw new Error(`no code in the mail to ${address}`);
    return code;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
