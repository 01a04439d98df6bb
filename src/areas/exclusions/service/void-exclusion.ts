import type { Transaction } from 'kysely';
import { audit } from '../../../platform/audit.js';
import type { Platform, ServiceContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import { cancelJob } from '../../../platform/scheduler.js';
import { withTransaction } from '../../../platform/service-context.js';
import { announce } from '../exclusions.events.js';
import { EXPIRE_JOB } from '../exclusions.jobs.js';
import type { StaffExclusion } from '../exclusions.schemas.js';
import * as store from '../exclusions.store.js';

/**
 * Voiding, the staff's remedy for a row registered in error (an agent's typo in an email, say): the row stops
 * matching everywhere and every tenant entitled to know of it is told with exclusion.voided. It is not revoking:
 * the tenant API has no way to undo an exclusion. A permanent exclusion is voided only when a second member of
 * staff confirms the first one's proposal. The context's actor is the member of staff acting, as the request
 * names them.
 */

const notFound = (exclusionId: string) =>
  new AppError('exclusion_not_found', 404, `No exclusion ${exclusionId}`);

async function activeRow(tx: Transaction<DB>, exclusionId: string): Promise<store.ExclusionRow> {
  const row = await store.lockExclusion(tx, exclusionId);
  if (!row) throw notFound(exclusionId);
  if (row.status !== 'active') {
    throw new AppError(
      'exclusion_not_active',
      409,
      `Exclusion ${exclusionId} is ${row.status}: nothing to void`,
    );
  }
  return row;
}

function view(row: store.ExclusionRow, proposal: store.VoidProposal | undefined): StaffExclusion {
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
    void_proposal: proposal
      ? {
          reason: proposal.reason,
          proposed_by: proposal.proposed_by,
          proposed_at: proposal.proposed_at.toISOString(),
        }
      : null,
  };
}

/**
 * Writes the staff action to the registering tenant's audit log, or the service's (no tenant) for a regulator row;
 * the actor is `staff:<name>`, never to be read as a tenant's key prefix.
 */
function auditVoid(
  tx: Transaction<DB>,
  ctx: ServiceContext,
  row: store.ExclusionRow,
  action: string,
  details: Record<string, unknown>,
) {
  const staff = { ...ctx, tenantId: row.tenant_id, actor: `staff:${ctx.actor}` };
  return audit(tx, staff, action, { exclusion_id: row.exclusion_id, ...details });
}

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
  await auditVoid(tx, ctx, voided, 'exclusion.voided', {
    reason: input.reason,
    voided_by: input.voidedBy,
    confirmed_by: input.confirmedBy,
  });
  return voided;
}

export function getStaffExclusion(platform: Platform, exclusionId: string): Promise<StaffExclusion> {
  return platform.db.transaction().execute(async (tx) => {
    const row = await store.findExclusion(tx, exclusionId);
    if (!row) throw notFound(exclusionId);
    return view(row, await store.voidProposal(tx, exclusionId));
  });
}

/** Voids a timed row at once; for a permanent one, records the proposal that a second member of staff confirms. */
export function voidExclusion(
  ctx: ServiceContext,
  exclusionId: string,
  input: { reason: string },
): Promise<{ exclusion: StaffExclusion; voided: boolean }> {
  return withTransaction(ctx, async (tx, ctx) => {
    const row = await activeRow(tx, exclusionId);
    if (!row.is_permanent) {
      const voided = await applyVoid(tx, ctx, row, {
        reason: input.reason,
        voidedBy: ctx.actor,
        confirmedBy: null,
      });
      return { exclusion: view(voided, undefined), voided: true };
    }
    const pending = await store.voidProposal(tx, exclusionId);
    if (pending) {
      throw new AppError(
        'void_already_proposed',
        409,
        `${pending.proposed_by} proposed voiding ${exclusionId} at ${pending.proposed_at.toISOString()}; a second member of staff confirms it`,
      );
    }
    const proposal = {
      exclusion_id: exclusionId,
      reason: input.reason,
      proposed_by: ctx.actor,
      proposed_at: ctx.clock.now(),
    };
    await store.insertVoidProposal(tx, proposal);
    await auditVoid(tx, ctx, row, 'exclusion.void_proposed', { reason: input.reason });
    return { exclusion: view(row, proposal), voided: false };
  });
}

/** The second member of staff confirms a proposed void of a permanent exclusion; the proposer cannot. */
export function confirmVoid(ctx: ServiceContext, exclusionId: string): Promise<StaffExclusion> {
  return withTransaction(ctx, async (tx, ctx) => {
    const row = await activeRow(tx, exclusionId);
    const proposal = await store.voidProposal(tx, exclusionId);
    if (!proposal) {
      throw new AppError('no_void_proposed', 409, `No void of ${exclusionId} is awaiting confirmation`);
    }
    if (proposal.proposed_by === ctx.actor) {
      throw new AppError(
        'second_approver_required',
        403,
        'The member of staff who proposed a void cannot confirm it: a second one must',
      );
    }
    const voided = await applyVoid(tx, ctx, row, {
      reason: proposal.reason,
      voidedBy: proposal.proposed_by,
      confirmedBy: ctx.actor,
    });
    await store.deleteVoidProposal(tx, exclusionId);
    return view(voided, undefined);
  });
}
