import type { Transaction } from 'kysely';
import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import * as fourEyes from '../../../platform/four-eyes.js';
import { cancelJob } from '../../../platform/scheduler.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { announce } from '../exclusions.events.js';
import { EXPIRE_JOB } from '../exclusions.jobs.js';
import type { StaffExclusion } from '../exclusions.schemas.js';
import * as store from '../exclusions.store.js';

/**
 * Voiding, the staff's remedy for a row registered in error (an agent's typo in an email, say): the row stops
 * matching everywhere and every tenant entitled to know of it is told with exclusion.voided. It is not revoking:
 * the tenant API has no way to undo an exclusion. Voiding is a person's act (a signed-in member of staff), and a
 * permanent exclusion's void is a four-eyes decision: it takes effect only when a second member of staff approves
 * the first one's proposal.
 */

const notFound = (exclusionId: string) => new AppError('exclusion_not_found', `No exclusion ${exclusionId}`);

async function activeRow(tx: Transaction<DB>, exclusionId: string): Promise<store.ExclusionRow> {
  const row = await store.lockExclusion(tx, exclusionId);
  if (!row) throw notFound(exclusionId);
  if (row.status !== 'active') {
    throw new AppError('exclusion_not_active', `Exclusion ${exclusionId} is ${row.status}: nothing to void`);
  }
  return row;
}

function view(row: store.ExclusionRow, pending: fourEyes.DecisionProposal | undefined): StaffExclusion {
  const iso = (value: Date | null) => value?.toISOString() ?? null;
  return {
    exclusion_id: row.exclusion_id,
    environment: row.environment,
    origin: row.origin,
    tenant_id: row.tenant_id,
    user_id: row.user_id,
    email: row.email,
    phone: row.phone,
    duration: row.duration,
    is_permanent: row.is_permanent,
    status: row.status,
    effective_from: row.effective_from.toISOString(),
    expires_at: iso(row.expires_at),
    voided_at: iso(row.voided_at),
    void_reason: row.void_reason,
    voided_by: row.voided_by,
    void_confirmed_by: row.void_confirmed_by,
    pending_proposal: pending ? fourEyes.proposalView(pending) : null,
  };
}

/** The void itself: the row, its expiry job, the event to every tenant entitled to it, and the audit row. */
async function applyVoid(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  row: store.ExclusionRow,
  input: { reason: string; voidedBy: string; confirmedBy: string | null },
) {
  const at = ctx.clock.now();
  const voided = await store.markVoided(tx, row.exclusion_id, { ...input, at });
  await cancelJob(tx, EXPIRE_JOB, row.exclusion_id);
  await announce(tx, { event: 'exclusion.voided', row: voided, at });
  // The registering tenant's audit log, or the service's (no tenant) for a regulator row.
  await audit(tx, forTenant(ctx, row.tenant_id), 'exclusion.voided', {
    exclusion_id: row.exclusion_id,
    reason: input.reason,
    voided_by: input.voidedBy,
    confirmed_by: input.confirmedBy,
  });
  return voided;
}

/** One register row as staff see it, with its pending void if any. */
export async function getStaffExclusion(ctx: ServiceContext, exclusionId: string): Promise<StaffExclusion> {
  const row = await store.findExclusion(ctx.db, exclusionId);
  if (!row) throw notFound(exclusionId);
  return view(row, await fourEyes.pendingProposal(ctx.db, 'exclusion', exclusionId));
}

/** Voids a timed row at once; for a permanent one, records the proposal that a second member of staff approves. */
export function voidExclusion(
  ctx: ServiceContext,
  exclusionId: string,
  input: { reason: string },
): Promise<{ exclusion: StaffExclusion; voided: boolean }> {
  return withTransaction(ctx, async (tx, ctx) => {
    const person = fourEyes.requirePerson(ctx);
    const row = await activeRow(tx, exclusionId);
    if (!row.is_permanent) {
      const voided = await applyVoid(tx, ctx, row, {
        reason: input.reason,
        voidedBy: person,
        confirmedBy: null,
      });
      return { exclusion: view(voided, undefined), voided: true };
    }
    const proposal = await fourEyes.propose(tx, ctx, {
      subject: 'exclusion',
      subjectId: exclusionId,
      tenantId: row.tenant_id,
      action: 'void',
      reason: input.reason,
    });
    return { exclusion: view(row, proposal), voided: false };
  });
}

/** A second member of staff approves a proposed void of a permanent exclusion: it takes effect now. */
export function confirmVoid(ctx: ServiceContext, exclusionId: string): Promise<StaffExclusion> {
  return withTransaction(ctx, async (tx, ctx) => {
    const row = await activeRow(tx, exclusionId);
    const proposal = await fourEyes.approvePending(tx, ctx, 'exclusion', exclusionId);
    const voided = await applyVoid(tx, ctx, row, {
      reason: proposal.reason,
      voidedBy: proposal.proposed_by,
      confirmedBy: proposal.decided_by,
    });
    return view(voided, undefined);
  });
}

/** A second member of staff rejects a proposed void: the row stays in force. */
export function rejectVoid(
  ctx: ServiceContext,
  exclusionId: string,
  reason: string,
): Promise<StaffExclusion> {
  return withTransaction(ctx, async (tx, ctx) => {
    const row = await activeRow(tx, exclusionId);
    await fourEyes.rejectPending(tx, ctx, 'exclusion', exclusionId, reason);
    return view(row, undefined);
  });
}
