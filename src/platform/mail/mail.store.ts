import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import type { Mail, MailStatus, NewMail } from '../db/platform-tables.js';

/** Mail waiting to be sent: a first attempt or a retry pending (by the mail_outbox_due partial index). */
export async function countWaitingMail(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', sql.lit('pending'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertMail(db: Executor, row: NewMail): Promise<void> {
  await db.insertInto('mail_outbox').values(row).execute();
}

/**
 * Claims due mail, oldest first, in one statement (SKIP LOCKED and a claim token), so several processes never send
 * one message twice; a claim that lapses (its process died mid-send) makes the mail due again.
 */
export async function claimDueMail(
  db: Executor,
  input: { now: Date; token: string; claimedUntil: Date; limit: number },
): Promise<Mail[]> {
  const { rows } = await sql<Mail>`
    update mail_outbox set claim_token = ${input.token}, claimed_until = ${input.claimedUntil}::timestamptz
    where mail_id in (
      select mail_id from mail_outbox
      where status = 'pending' and next_attempt_at <= ${input.now}::timestamptz
        and (claimed_until is null or claimed_until <= ${input.now}::timestamptz)
      order by next_attempt_at
      limit ${input.limit}
      for update skip locked
    )
    returning *`.execute(db);
  return rows;
}

/**
 * Records an attempt's outcome, if this claim still holds the mail. A mail with a secret body that is sent or given
 * up on loses its bodies in the same statement: no moment has the outcome recorded and the code still kept.
 */
export async function recordMailAttempt(
  db: Executor,
  mailId: string,
  token: string,
  outcome: {
    status: MailStatus;
    attempts: number;
    nextAttemptAt: Date | null;
    sentAt: Date | null;
    error: string | null;
  },
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: outcome.status,
      attempts: outcome.attempts,
      next_attempt_at: outcome.nextAttemptAt,
      sent_at: outcome.sentAt,
      last_error: outcome.error,
      claim_token: null,
      claimed_until: null,
      ...(outcome.status === 'pending'
        ? {}
        : {
            text_body: sql<string | null>`case when secret_body then null else text_body end`,
            html_body: sql<string | null>`case when secret_body then null else html_body end`,
          }),
    })
    .where('mail_id', '=', mailId)
    .where('claim_token', '=', token)
    .execute();
}

/** Newest first, keyset-paginated on (created_at, mail_id). */
export function listMail(
  db: Executor,
  query: {
    limit: number;
    before?: { createdAt: Date; mailId: string } | undefined;
    tenantId?: string | undefined;
  },
): Promise<Mail[]> {
  let q = db.selectFrom('mail_outbox').selectAll();
  if (query.tenantId) q = q.where('tenant_id', '=', query.tenantId);
  if (query.before) {
    const { createdAt, mailId } = query.before;
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '<', createdAt),
        eb.and([eb('created_at', '=', createdAt), eb('mail_id', '<', mailId)]),
      ]),
    );
  }
  return q.orderBy('created_at', 'desc').orderBy('mail_id', 'desc').limit(query.limit).execute();
}

export function findMail(db: Executor, mailId: string): Promise<Mail | undefined> {
  return db.selectFrom('mail_outbox').selectAll().where('mail_id', '=', mailId).executeTakeFirst();
}
