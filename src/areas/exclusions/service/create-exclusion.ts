import { audit } from '../../../platform/audit.js';
import type { Platform, TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { newId } from '../../../platform/ids.js';
import { withTransaction } from '../../../platform/service-context.js';
import { normaliseContact } from '../contact.js';
import { expiresAt, isPermanent } from '../exclusions.rules.js';
import { announce } from '../exclusions.events.js';
import { expireLapsed, scheduleExpiry } from '../exclusions.jobs.js';
import { contactColumns, recordContactsShown } from '../exclusions.sightings.js';
import type { CreateExclusionRequest, Exclusion } from '../exclusions.schemas.js';
import * as store from '../exclusions.store.js';

const alreadyExcluded = (message: string) => new AppError('already_excluded', message);

function toExclusion(row: store.ExclusionRow): Exclusion {
  return {
    exclusion_id: row.exclusion_id,
    user_id: row.user_id!,
    duration: row.duration,
    effective_from: row.effective_from.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    is_permanent: row.is_permanent,
    regulator_propagated: row.regulator_propagated,
  };
}

/** One of the tenant's own exclusions, as POST /v1/exclusions answered it; undefined for any other. */
export async function ownExclusion(ctx: TenantContext, exclusionId: string): Promise<Exclusion | undefined> {
  const row = await store.findExclusion(ctx.db, exclusionId);
  return row?.tenant_id === ctx.tenantId ? toExclusion(row) : undefined;
}

/**
 * Registers an exclusion, idempotent on (tenant, user, duration) while that exclusion is active. "The same request"
 * is the same user, duration, normalised email and normalised phone; reason and initiated_at are context of the
 * first submission and do not make a retry different. Any timed request while a permanent exclusion of the user
 * is active would weaken it: 409, the permanent one stands. `channel` records where it came in (the tenant API or a
 * hosted embed) for the reports; the registration is the same either way.
 */
export async function createExclusion(
  platform: Platform,
  ctx: TenantContext,
  input: CreateExclusionRequest,
  channel: 'api' | 'embed' = 'api',
): Promise<{ exclusion: Exclusion; created: boolean }> {
  const contact = normaliseContact(input);
  const { tenant_id: tenantId, environment } = ctx.tenant;
  const now = ctx.clock.now();
  const row: store.NewExclusion = {
    exclusion_id: newId('exclusion'),
    environment,
    origin: 'operator',
    channel,
    tenant_id: tenantId,
    user_id: input.user_id,
    ...contactColumns(platform, contact),
    duration: input.duration,
    is_permanent: isPermanent(input.duration),
    reason: input.reason ?? 'self_initiated',
    initiated_at: input.initiated_at === undefined ? null : new Date(input.initiated_at),
    effective_from: now,
    expires_at: expiresAt(input.duration, now),
    // Matched for every tenant from this commit, but handed to the regulator only by the daily export: true once the
    // regulator acknowledges an export holding it (the regulator-exports area).
    regulator_propagated: false,
    request_hash: requestFingerprint({ user_id: input.user_id, duration: input.duration, ...contact }),
  };

  await recordContactsShown(platform, tenantId, [contact]);
  return withTransaction(ctx, async (tx, ctx) => {
    await store.lockUser(tx, tenantId, input.user_id);
    await expireLapsed(
      tx,
      await store.lapsedRows(tx, { tenantId, userId: input.user_id, duration: input.duration }, now),
      now,
    );
    const { row: stored, created } = await store.insertOperatorExclusion(tx, row, (existing) =>
      alreadyExcluded(
        `User ${input.user_id} already has an active ${existing.duration} exclusion (${existing.exclusion_id}) with other contact details`,
      ),
    );
    if (!created) return { exclusion: toExclusion(stored), created };
    // Rolled back with the insert above: the permanent exclusion stands unchanged.
    if (!stored.is_permanent && (await store.hasActivePermanent(tx, tenantId, input.user_id))) {
      throw alreadyExcluded(
        `User ${input.user_id} is permanently excluded; a timed exclusion cannot replace it`,
      );
    }
    await scheduleExpiry(tx, stored);
    await announce(tx, {
      event: stored.is_permanent ? 'exclusion.permanent' : 'exclusion.created',
      row: stored,
      at: now,
    });
    await audit(tx, ctx, 'exclusion.created', {
      exclusion_id: stored.exclusion_id,
      user_id: stored.user_id,
      duration: stored.duration,
    });
    return { exclusion: toExclusion(stored), created };
  });
}
