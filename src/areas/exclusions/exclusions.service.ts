import { recordAudit } from '../../platform/audit.js';
import type { Platform, TenantContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { groupCommitOf } from '../../platform/group-commit.js';
import { requestFingerprint } from '../../platform/idempotency.js';
import { newId } from '../../platform/ids.js';
import { canonicalEmail, invalidPayload, normaliseContact, type Contact } from './contact.js';
import { expiresAt, isPermanent } from './durations.js';
import { announce } from './exclusions.events.js';
import { expireLapsed, scheduleExpiry } from './exclusions.jobs.js';
import { contactColumns, recordContactsShown } from './exclusions.sightings.js';
import type {
  CheckBatchRequest,
  CheckBatchResult,
  CheckQuery,
  CheckResult,
  CreateExclusionRequest,
  Exclusion,
  SnapshotPage,
} from './exclusions.schemas.js';
import { SOURCE_NAMES } from './exclusions.rules.js';
import * as store from './exclusions.store.js';
import * as exclusionCheck from './hot/exclusion-check.js';

/** The self-exclusion verbs of the tenant API. They know nothing of HTTP: routes, jobs and CLI may all call them. */

const alreadyExcluded = (message: string) => new AppError('already_excluded', 409, message);

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

/**
 * Registers an exclusion, idempotent on (tenant, user, duration) while that exclusion is active. "The same request"
 * is the same user, duration, normalised email and normalised phone; reason and initiated_at are context of the
 * first submission and do not make a retry different. Any timed request while a permanent exclusion of the user
 * is active would weaken it: 409, the permanent one stands.
 */
export async function createExclusion(
  platform: Platform,
  ctx: TenantContext,
  input: CreateExclusionRequest,
): Promise<{ exclusion: Exclusion; created: boolean }> {
  const contact = normaliseContact(input);
  const { tenant_id: tenantId, environment } = ctx.tenant;
  const now = platform.clock.now();
  const row: store.NewExclusion = {
    exclusion_id: newId('exclusion'),
    environment,
    origin: 'operator',
    tenant_id: tenantId,
    user_id: input.user_id,
    ...contactColumns(platform, contact),
    duration: input.duration,
    is_permanent: isPermanent(input.duration),
    reason: input.reason ?? 'self_initiated',
    initiated_at: input.initiated_at === undefined ? null : new Date(input.initiated_at),
    effective_from: now,
    expires_at: expiresAt(input.duration, now),
    // Matched for every tenant from this commit, but handed to the regulator only by the daily export: until the
    // regulator has acknowledged an export holding it, the record says so.
    regulator_propagated: false,
    request_hash: requestFingerprint({ user_id: input.user_id, duration: input.duration, ...contact }),
  };

  await recordContactsShown(platform, tenantId, [contact]);
  return platform.db.transaction().execute(async (tx) => {
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
    await recordAudit(tx, {
      tenantId,
      actor: ctx.keyPrefix,
      action: 'exclusion.created',
      requestId: ctx.requestId,
      details: { exclusion_id: stored.exclusion_id, user_id: stored.user_id, duration: stored.duration },
      at: now,
    });
    return { exclusion: toExclusion(stored), created };
  });
}

/** Live checks arriving together are read by one statement (one round trip for the group). */
const liveChecks = (platform: Platform) =>
  groupCommitOf(platform, 'exclusions_check', (checks: exclusionCheck.CheckParams[]) =>
    exclusionCheck.mostRestrictiveMatches(platform.db, checks),
  );

/**
 * Skipping the regulator's list is a diagnostic the spec forbids in production: never for a live tenant, and in
 * the sandbox for admin keys only.
 */
function allowSkippingRegulator(ctx: TenantContext, includeRegulator: boolean): void {
  if (includeRegulator) return;
  if (ctx.tenant.environment === 'live') {
    throw new AppError(
      'forbidden',
      403,
      'include_regulator=false is a sandbox diagnostic; live checks always include the regulator list',
    );
  }
  if (ctx.role !== 'admin')
    throw new AppError('forbidden', 403, 'include_regulator=false needs an admin API key');
}

function checkParams(platform: Platform, ctx: TenantContext, contact: Contact, includeRegulator: boolean) {
  return {
    tenantId: ctx.tenant.tenant_id,
    environment: ctx.tenant.environment,
    email: contact.email === null ? null : canonicalEmail(contact.email),
    phone: contact.phone,
    includeRegulator,
    now: platform.clock.now(),
  };
}

function toCheckResult(match: exclusionCheck.CheckMatch | undefined): CheckResult {
  if (!match) return { is_excluded: false };
  return {
    is_excluded: true,
    exclusion_id: match.exclusion_id,
    duration: match.duration,
    expires_at: match.expires_at?.toISOString() ?? null,
    is_permanent: match.is_permanent,
    source: match.source,
  };
}

/**
 * The live check: the most restrictive exclusion active now for this email or phone, across the register. Asking
 * shows the service the contact; the answer does not wait for that to be recorded (the hot path of every signup,
 * login and deposit): it is, with the other checks' contacts, within a twentieth of a second.
 */
export async function checkExclusion(
  platform: Platform,
  ctx: TenantContext,
  query: CheckQuery,
): Promise<CheckResult> {
  allowSkippingRegulator(ctx, query.include_regulator);
  const contact = normaliseContact(query);
  void recordContactsShown(platform, ctx.tenant.tenant_id, [contact], { written: false });
  const match = await liveChecks(platform).submit(
    checkParams(platform, ctx, contact, query.include_regulator),
  );
  return toCheckResult(match);
}

/**
 * The daily reconciliation without the register in bulk: each contact's live-check answer, for up to 1,000
 * contacts in one statement. The contacts count as shown, as in the live check.
 */
export async function checkBatch(
  platform: Platform,
  ctx: TenantContext,
  body: CheckBatchRequest,
): Promise<CheckBatchResult> {
  allowSkippingRegulator(ctx, body.include_regulator);
  const contacts = body.contacts.map((entry, index) => normaliseContact(entry, `contacts/${index}/`));
  const [matches] = await Promise.all([
    exclusionCheck.mostRestrictiveMatches(
      platform.db,
      contacts.map((contact) => checkParams(platform, ctx, contact, body.include_regulator)),
    ),
    recordContactsShown(platform, ctx.tenant.tenant_id, contacts),
  ]);
  return {
    results: body.contacts.map((entry, index) => ({
      reference: entry.reference,
      ...toCheckResult(matches[index]),
    })),
  };
}

const CURSOR_ID = /^exc_[0-9a-f]{32}$/;

/** The cursor is the last row's exclusion_id (ids sort by creation time), base64url-encoded to stay opaque. */
export const encodeCursor = (exclusionId: string) => Buffer.from(exclusionId, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): string {
  const id = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  if (!CURSOR_ID.test(id)) throw invalidPayload('cursor is not a cursor this endpoint issued');
  return id;
}

/**
 * A page of every row the tenant must enforce now: its own and the national register's. Keyset on exclusion_id,
 * so rows added during a walk sort after the rows already returned and no row repeats across pages.
 */
export async function snapshotPage(
  platform: Platform,
  ctx: TenantContext,
  query: { cursor?: string | undefined; limit: number },
): Promise<SnapshotPage> {
  const after = query.cursor === undefined || query.cursor === '' ? null : decodeCursor(query.cursor);
  const rows = await store.activePage(platform.db, {
    tenantId: ctx.tenant.tenant_id,
    environment: ctx.tenant.environment,
    after,
    limit: query.limit + 1,
    now: platform.clock.now(),
    sources: SOURCE_NAMES,
  });
  const page = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  return {
    exclusions: page.map((row) => ({
      ...row,
      effective_from: row.effective_from.toISOString(),
      expires_at: row.expires_at?.toISOString() ?? null,
    })),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(page[page.length - 1]!.exclusion_id) : null,
  };
}
