import { audit } from '../../../platform/audit.js';
import type { Platform } from '../../../platform/context.js';
import { erasePlayerData, type TableErasure } from '../../../platform/data-erasure.js';
import { BASES, DATA_LIFECYCLE, keptFor } from '../../../platform/data-lifecycle.js';
import { pseudonymOf } from '../../../platform/data-lifecycle.store.js';
import type { Executor } from '../../../platform/db/database.js';
import { AppError } from '../../../platform/errors.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { scheduleJob } from '../../../platform/scheduler.js';
import { forTenant, withTransaction, type ServiceContext } from '../../../platform/service-context.js';
import { findTenant } from '../../../platform/tenants.store.js';
import { DAY_MS } from '../../../platform/utc-calendar.js';
import type { ErasureRequest, ErasureRequestBody, StaffErasureRequest } from '../players.schemas.js';
import * as store from '../players.store.js';
import type { ErasureRequestRow } from '../players.tables.js';

/** The follow-up of a request in progress: it erases what stopped protecting the player since, on the service clock. */
export const ERASURE_JOB = 'players.erasure';

type Key = Buffer;

/** The operator's view: every kind, what was done to it and why; no counts (they would tell what was held). */
export function toErasureRequest(row: ErasureRequestRow, userId: string): ErasureRequest {
  return {
    erasure_request_id: row.erasure_request_id,
    user_id: userId,
    status: row.status,
    received_at: row.received_at,
    recorded_at: row.recorded_at,
    completed_at: row.completed_at,
    data: row.outcome.map(({ table, action, in_force, kept_until }) => {
      const t = DATA_LIFECYCLE[table as keyof typeof DATA_LIFECYCLE];
      return {
        table,
        holds: t.holds,
        action,
        kept_because: action === 'deleted' ? null : BASES[t.basis],
        kept_for: action === 'deleted' ? null : keptFor(t),
        kept_until,
        ...(in_force && { in_force_until: in_force.until }),
      };
    }),
  };
}

/** The staff's view adds who asked and the records of each kind. */
export function toStaffErasureRequest(row: ErasureRequestRow, userId: string): StaffErasureRequest {
  const view = toErasureRequest(row, userId);
  return {
    ...view,
    requested_by: row.requested_by,
    data: view.data.map((d, i) => ({
      ...d,
      records: row.outcome[i]!.records,
      ...(row.outcome[i]!.in_force && { in_force_records: row.outcome[i]!.in_force!.records }),
    })),
  };
}

/** A later run's outcome added to the earlier ones': records summed, protection and dates as they stand now. */
const merged = (before: readonly TableErasure[], now: readonly TableErasure[]): TableErasure[] =>
  now.map((t) => ({ ...t, records: t.records + (before.find((b) => b.table === t.table)?.records ?? 0) }));

const inForce = (outcome: readonly TableErasure[]) => outcome.some((t) => t.in_force !== undefined);

/**
 * When to look again at a request in progress: when the first record protecting the player stops (a time-out's end,
 * an exclusion's expiry), and at least daily (an exclusion voided, a limit whose account closed).
 */
function followUpAt(outcome: readonly TableErasure[], now: Date): Date {
  const ends = outcome.flatMap((t) => (t.in_force?.until ? [new Date(t.in_force.until).getTime()] : []));
  return new Date(Math.min(now.getTime() + DAY_MS, ...ends));
}

/** Erases the player's data now, as the lifecycle says; the outcome and whether records still protect the player. */
async function erase(tx: Executor, key: Key, tenantId: string, userId: string, now: Date) {
  const closure = await store.findClosure(tx, tenantId, [userId, pseudonymOf(key, tenantId, userId)]);
  return erasePlayerData(tx, key, { tenantId, userId }, now, closure?.closed_at ?? null);
}

/**
 * A player's erasure request, from the operator (POST /v1/players/{user_id}/erasure-requests) or the staff: removes at
 * once what the law lets go, pseudonymises what must be kept, records what was kept, why and until when (docs/data.md).
 * Records that still protect the player stay until they stop; the request is in_progress until then. Idempotent on
 * the operator's erasure_request_id. A player of whom nothing is held, and who was never erased, is 404
 * player_not_found. Four-eyes-free, audited.
 */
export async function requestErasure(
  platform: Pick<Platform, 'secrets'>,
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  input: ErasureRequestBody,
): Promise<{ request: ErasureRequestRow; created: boolean }> {
  const key = platform.secrets.pseudonymKey();
  return withTransaction(forTenant(ctx, tenantId), async (tx, ctx) => {
    if (!(await findTenant(tx, tenantId))) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
    const now = ctx.clock.now();
    const receivedAt = input.received_at ? new Date(input.received_at) : now;
    const requestHash = requestFingerprint({
      user_id: userId,
      erasure_request_id: input.erasure_request_id,
      received_at: input.received_at ?? null,
    });
    const stored = await store.findErasureRequest(tx, tenantId, input.erasure_request_id);
    if (stored) {
      if (stored.request_hash !== requestHash)
        throw new AppError(
          'duplicate_erasure_request',
          `Erasure request ${input.erasure_request_id} was made with another player or body`,
        );
      return { request: stored, created: false };
    }
    const pseudonym = pseudonymOf(key, tenantId, userId);
    const outcome = await erase(tx, key, tenantId, userId, now);
    const held = outcome.some((t) => t.records > 0 || t.in_force);
    if (!held && (await store.erasureRequestsOf(tx, tenantId, pseudonym)).length === 0)
      throw new AppError('player_not_found', `Nothing is held about user ${userId} of tenant ${tenantId}`);
    const waiting = inForce(outcome);
    const request = await store.insertErasureRequest(tx, {
      tenant_id: tenantId,
      erasure_request_id: input.erasure_request_id,
      pseudonym,
      user_id: waiting ? userId : null,
      requested_by: ctx.actor,
      received_at: receivedAt,
      recorded_at: now,
      status: waiting ? 'in_progress' : 'completed',
      completed_at: waiting ? null : now,
      outcome: JSON.stringify(outcome),
      request_hash: requestHash,
    });
    if (waiting) await scheduleFollowUp(tx, request, now);
    // The audit entry names the player by pseudonym: the erasure has just pseudonymised every earlier one.
    await audit(tx, ctx, 'player.erasure_requested', {
      user_id: pseudonym,
      erasure_request_id: input.erasure_request_id,
      status: request.status,
      deleted: outcome.filter((t) => t.action === 'deleted' && t.records > 0).map((t) => t.table),
      pseudonymised: outcome.filter((t) => t.action === 'pseudonymised' && t.records > 0).map((t) => t.table),
    });
    return { request, created: true };
  });
}

const scheduleFollowUp = (tx: Executor, request: ErasureRequestRow, now: Date) =>
  scheduleJob(tx, {
    kind: ERASURE_JOB,
    subjectId: request.erasure_request_id,
    tenantId: request.tenant_id,
    dueAt: followUpAt(request.outcome, now),
  });

/** The follow-up: erases what stopped protecting the player since; completes the request once nothing does. */
export async function continueErasure(
  tx: Executor,
  key: Key,
  tenantId: string,
  erasureRequestId: string,
  now: Date,
): Promise<void> {
  const request = await store.findErasureRequest(tx, tenantId, erasureRequestId);
  if (!request || request.status !== 'in_progress' || request.user_id === null) return;
  const outcome = merged(request.outcome, await erase(tx, key, tenantId, request.user_id, now));
  const waiting = inForce(outcome);
  const updated = await store.updateErasureRequest(tx, tenantId, erasureRequestId, {
    outcome: JSON.stringify(outcome),
    ...(!waiting && { status: 'completed', completed_at: now, user_id: null }),
  });
  if (waiting) await scheduleFollowUp(tx, updated, now);
}

/** An account closed: the requests waiting on its limits and time-outs look again now. */
export async function accountClosed(
  tx: Executor,
  tenantId: string,
  userId: string,
  now: Date,
): Promise<void> {
  for (const { erasure_request_id } of await store.erasuresInProgress(tx, tenantId, userId))
    await scheduleJob(tx, { kind: ERASURE_JOB, subjectId: erasure_request_id, tenantId, dueAt: now });
}

/** A player's erasure requests (GET), found by the player's pseudonym: the answer of both views. */
export async function erasureRequestsOf(
  platform: Pick<Platform, 'secrets' | 'db'>,
  tenantId: string,
  userId: string,
): Promise<ErasureRequestRow[]> {
  return store.erasureRequestsOf(
    platform.db,
    tenantId,
    pseudonymOf(platform.secrets.pseudonymKey(), tenantId, userId),
  );
}

/** One request of the player's (GET); 404 erasure_request_not_found when it is another player's or none. */
export async function erasureRequestOf(
  platform: Pick<Platform, 'secrets' | 'db'>,
  tenantId: string,
  userId: string,
  erasureRequestId: string,
): Promise<ErasureRequestRow> {
  const row = await store.findErasureRequest(platform.db, tenantId, erasureRequestId);
  if (!row || row.pseudonym !== pseudonymOf(platform.secrets.pseudonymKey(), tenantId, userId))
    throw new AppError(
      'erasure_request_not_found',
      `No erasure request ${erasureRequestId} of user ${userId}`,
    );
  return row;
}

export function registerErasureJobs(platform: Platform): void {
  platform.scheduler.register(ERASURE_JOB, async (tx, job, now) => {
    if (job.tenant_id)
      await continueErasure(tx, platform.secrets.pseudonymKey(), job.tenant_id, job.subject_id, now);
  });
}
