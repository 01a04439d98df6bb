import type { Insertable, Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import { lockSubject } from '../../platform/db/subject-lock.js';
import type {
  CodeStatus,
  EmbedCode,
  EmbedCodesTable,
  EmbedSession,
  EmbedSessionsTable,
} from './embeds.tables.js';

export type { EmbedCode, EmbedSession } from './embeds.tables.js';

export async function insertSession(db: Executor, row: Insertable<EmbedSessionsTable>): Promise<void> {
  await db.insertInto('embed_sessions').values(row).execute();
}

/** The session a token's hash names; `forUpdate` holds it until the transaction ends. */
export function findSessionByTokenHash(
  db: Executor,
  tokenHash: string,
  forUpdate = false,
): Promise<EmbedSession | undefined> {
  const query = db.selectFrom('embed_sessions').selectAll().where('token_hash', '=', tokenHash);
  return (forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export async function completeSession(
  tx: Transaction<DB>,
  sessionId: string,
  exclusionId: string,
  at: Date,
): Promise<void> {
  await tx
    .updateTable('embed_sessions')
    .set({ completed_at: at, exclusion_id: exclusionId })
    .where('embed_session_id', '=', sessionId)
    .execute();
}

/** The session's latest code, whatever its state. */
export function latestCode(db: Executor, sessionId: string): Promise<EmbedCode | undefined> {
  return db
    .selectFrom('embed_codes')
    .selectAll()
    .where('embed_session_id', '=', sessionId)
    .orderBy('created_at', 'desc')
    .orderBy('code_id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Serialises code requests for one email (across sessions and tenants) until the transaction ends. */
export const lockEmail = (tx: Transaction<DB>, emailHash: string) =>
  lockSubject(tx, 'embed-codes', '-', emailHash);

/** When the tenant asked for codes to this email since `since`, mailed or not, oldest first. */
export function tenantCodesSince(
  db: Executor,
  tenantId: string,
  emailHash: string,
  since: Date,
): Promise<{ created_at: Date }[]> {
  return db
    .selectFrom('embed_codes')
    .innerJoin('embed_sessions', 'embed_sessions.embed_session_id', 'embed_codes.embed_session_id')
    .select('embed_codes.created_at')
    .where('embed_sessions.tenant_id', '=', tenantId)
    .where('embed_codes.email_hash', '=', emailHash)
    .where('embed_codes.created_at', '>', since)
    .orderBy('embed_codes.created_at')
    .execute();
}

/** How many codes were mailed to this email since `since`, by every tenant. */
export async function codesMailedSince(db: Executor, emailHash: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('embed_codes')
    .select((eb) => eb.fn.countAll<number>().as('mailed'))
    .where('email_hash', '=', emailHash)
    .where('created_at', '>', since)
    .where('mailed', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.mailed);
}

export async function insertCode(db: Executor, row: Insertable<EmbedCodesTable>): Promise<void> {
  await db.insertInto('embed_codes').values(row).execute();
}

export async function endCode(db: Executor, codeId: string, status: CodeStatus, at: Date): Promise<void> {
  await db.updateTable('embed_codes').set({ status, ended_at: at }).where('code_id', '=', codeId).execute();
}

export async function recordWrongCode(db: Executor, codeId: string, wrongAttempts: number): Promise<void> {
  await db
    .updateTable('embed_codes')
    .set({ wrong_attempts: wrongAttempts })
    .where('code_id', '=', codeId)
    .execute();
}
