import { randomUUID } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Counter } from 'prom-client';
import { raiseAlert } from '../alerts.js';
import type { Platform } from '../context.js';
import type { Executor } from '../db/database.js';
import type { Mail } from '../db/platform-tables.js';
import { newId } from '../ids.js';
import { claimDueMail, countWaitingMail, insertMail, recordMailAttempt } from './mail.store.js';

export { findMail, listMail } from './mail.store.js';

/**
 * Waits before each retry of a mail the SMTP server did not take: about two hours in all. The service's mail is a
 * confirmation code valid for minutes; a message later than that is of no use to the player, who asks again.
 */
export const MAIL_RETRY_SECONDS = [10, 30, 60, 120, 300, 600, 1800, 3600] as const;
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY_SECONDS.length + 1;
const CLAIM_SECONDS = 60;
const BATCH = 10;

export interface OutgoingMail {
  tenantId: string | null;
  purpose: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The bodies carry a secret (a one-time code, a setup link): they are dropped in the statement that records the
   * mail as sent or given up on, and the outbox keeps who, when, the subject and the outcome.
   */
  secret?: boolean;
}

/**
 * Writes a message to the mail outbox in the caller's transaction: it exists only if the state change that sends it
 * commits, and it leaves through the workers (or stays in the outbox when no SMTP server is configured).
 */
export async function queueMail(tx: Executor, mail: OutgoingMail, at: Date): Promise<string> {
  const mailId = newId('mail');
  await insertMail(tx, {
    mail_id: mailId,
    tenant_id: mail.tenantId,
    purpose: mail.purpose,
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
    secret_body: mail.secret ?? false,
    created_at: at,
    status: 'pending',
    next_attempt_at: at,
  });
  return mailId;
}

/** Where a message stands after attempt number `attempt` (1 for the first) ended at `now`. */
export function afterMailAttempt(attempt: number, sent: boolean, now: Date) {
  if (sent) return { status: 'sent' as const, nextAttemptAt: null };
  if (attempt >= MAIL_MAX_ATTEMPTS) return { status: 'failed' as const, nextAttemptAt: null };
  return {
    status: 'pending' as const,
    nextAttemptAt: new Date(now.getTime() + MAIL_RETRY_SECONDS[attempt - 1]! * 1000),
  };
}

/**
 * The mail outbox's delivery: with SMTP_URL, a poller of the worker loop sends due messages through nodemailer,
 * retrying on MAIL_RETRY_SECONDS; a message that exhausts them is failed and alerted. Without it, messages stay
 * pending in the outbox for the back office and `compliance mail list` to show. Either way, the retention job
 * deletes messages 7 days after they were written (DATA_LIFECYCLE).
 */
export async function registerMail(platform: Platform): Promise<() => void> {
  const sent = platform.metrics.counter(
    'compliance_mail_sent_total',
    'Messages the SMTP server accepted, by purpose',
    ['purpose'],
  );
  const failed = platform.metrics.counter(
    'compliance_mail_failed_total',
    'Messages given up on after every retry, by purpose',
    ['purpose'],
  );
  platform.metrics.gauge(
    'compliance_mail_outbox_depth',
    'Mail in the outbox waiting to be sent (pending: a first attempt or a retry)',
    () => countWaitingMail(platform.db),
  );
  const { smtpUrl, smtpFrom } = platform.config;
  if (!smtpUrl) return () => {};
  const transport = nodemailer.createTransport(smtpUrl);
  platform.pollers.push({
    name: 'mail',
    run: async () => {
      const now = platform.clock.now();
      const token = randomUUID();
      const claimed = await claimDueMail(platform.db, {
        now,
        token,
        claimedUntil: new Date(now.getTime() + CLAIM_SECONDS * 1000),
        limit: BATCH,
      });
      await Promise.all(
        claimed.map((mail) => sendOne(platform, transport, smtpFrom, mail, token, { sent, failed })),
      );
      return claimed.length;
    },
  });
  return () => transport.close();
}

async function sendOne(
  platform: Platform,
  transport: Transporter,
  from: string,
  mail: Mail,
  token: string,
  counters: { sent: Counter; failed: Counter },
): Promise<void> {
  // The relay's reply is kept with the mail for the staff; logs and alerts get only its code, because a reply
  // may quote the recipient's address ("550 <jane@…>: no such user").
  let error: string | null = null;
  let code = '';
  try {
    await transport.sendMail({
      from,
      to: mail.to_address,
      subject: mail.subject,
      // Claimed mail is pending, so its bodies are still there.
      text: mail.text_body ?? '',
      html: mail.html_body ?? '',
    });
  } catch (cause) {
    const failure = cause as { message?: string; responseCode?: number; code?: string };
    error = String(failure.message ?? cause).slice(0, 500);
    code = String(failure.responseCode ?? failure.code ?? 'error');
  }
  const now = platform.clock.now();
  const attempt = mail.attempts + 1;
  const next = afterMailAttempt(attempt, error === null, now);
  await recordMailAttempt(platform.db, mail.mail_id, token, {
    status: next.status,
    attempts: attempt,
    nextAttemptAt: next.nextAttemptAt,
    sentAt: error === null ? now : null,
    error,
  });
  if (next.status === 'sent') counters.sent.inc({ purpose: mail.purpose });
  else if (next.status === 'failed') {
    counters.failed.inc({ purpose: mail.purpose });
    await raiseAlert(
      platform.db,
      platform.log,
      {
        kind: 'mail_failed',
        subject: mail.mail_id,
        message: `Mail ${mail.mail_id} (${mail.purpose}) was not accepted after ${attempt} attempts (last reply: ${code})`,
        details: { mail_id: mail.mail_id, purpose: mail.purpose, tenant_id: mail.tenant_id },
      },
      now,
    );
  } else platform.log.warn({ mail_id: mail.mail_id, attempt, code }, 'mail not accepted; will retry');
}
