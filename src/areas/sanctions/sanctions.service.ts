import type { Transaction } from 'kysely';
import type { Platform, TenantContext } from '../../platform/context.js';
import type { Tenant } from '../../platform/db/platform-tables.js';
import type { DB } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { insertOnce, requestFingerprint } from '../../platform/idempotency.js';
import { emitEvent } from '../../platform/outbox.js';
import { selectVendor } from '../../platform/vendors.js';
import {
  sandboxMatcher,
  type SanctionsMatch,
  type SanctionsMatcher,
  type ScreeningResult,
} from './sanctions.matcher.js';
import type { ScreenRequest } from './sanctions.schemas.js';
import type { SanctionsScreen } from './sanctions.tables.js';

/** The generic wording tenants may pass on; it names no list and no entity. */
export const ESTIMATED_REVIEW_TIME = '48 hours';

/** The production matcher is set once it exists (its own issue); until then a cut-over live tenant gets 503. */
export const sanctionsMatchers: { sandbox: SanctionsMatcher; production?: SanctionsMatcher } = {
  sandbox: sandboxMatcher,
};

export function matcherFor(tenant: Tenant): SanctionsMatcher {
  return selectVendor(tenant, 'sanctions', sanctionsMatchers);
}

/** The tenant-facing shape: the clear shape, or the hit shape with counts and the case, never the entities. */
export function screeningView(screen: SanctionsScreen) {
  const base = {
    screen_id: screen.screen_id,
    user_id: screen.user_id,
    status: screen.status,
    checked_at: screen.checked_at,
    transactions_held: screen.transactions_held,
  };
  if (screen.case_id === null) return base;
  return {
    ...base,
    match_count: screen.match_count,
    highest_match_score: Number(screen.highest_match_score),
    case_id: screen.case_id,
    signup_allowed: true,
    estimated_review_time: ESTIMATED_REVIEW_TIME,
  };
}

const highest = (matches: SanctionsMatch[]) => Math.max(0, ...matches.map((m) => m.score));

/** Opens a review case for a hit, holds the user's transactions, and announces sanctions.hit, all in tx. */
export async function openCase(
  tx: Transaction<DB>,
  screen: SanctionsScreen,
  result: ScreeningResult,
  trigger: 'signup' | 'rescreen',
  now: Date,
): Promise<SanctionsScreen> {
  const caseId = newId('case');
  await tx
    .insertInto('sanctions_cases')
    .values({
      case_id: caseId,
      tenant_id: screen.tenant_id,
      screen_id: screen.screen_id,
      user_id: screen.user_id,
      status: 'hit_review_pending',
      matches: JSON.stringify(result.matches),
      highest_match_score: highest(result.matches),
      opened_at: now,
      trigger,
    })
    .execute();
  const held = await tx
    .updateTable('sanctions_screens')
    .set({
      status: 'hit_review_pending',
      transactions_held: true,
      match_count: result.matches.length,
      highest_match_score: highest(result.matches),
      case_id: caseId,
      list_versions: JSON.stringify(result.list_versions),
      updated_at: now,
    })
    .where('screen_id', '=', screen.screen_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await emitEvent(tx, {
    tenantIds: screen.tenant_id,
    event: 'sanctions.hit',
    data: {
      screen_id: held.screen_id,
      case_id: caseId,
      user_id: held.user_id,
      status: held.status,
      match_count: held.match_count,
      highest_match_score: Number(held.highest_match_score),
      transactions_held: true,
      signup_allowed: true,
    },
    at: now,
  });
  return held;
}

/**
 * Screens a user at signup. The same request again returns the original screening (200); a different request
 * for a user already screened is 409 already_screened (the status endpoint and re-screening cover changes).
 */
export async function screenUser(platform: Platform, ctx: TenantContext, input: ScreenRequest) {
  const tenantId = ctx.tenant.tenant_id;
  const requestHash = requestFingerprint({ ...input, email: input.email.trim().toLowerCase() });
  const conflict = () =>
    new AppError(
      'already_screened',
      409,
      'This user was already screened; use GET /v1/sanctions/status instead',
    );

  // A repeat needs no new vendor call: answer from what is stored.
  const existing = await platform.db
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', input.user_id)
    .executeTakeFirst();
  if (existing) {
    if (existing.request_hash !== requestHash) throw conflict();
    return { screen: existing, created: false };
  }

  const matcher = matcherFor(ctx.tenant);
  const result = await matcher.screen(input);
  const now = platform.clock.now();
  return platform.db.transaction().execute(async (tx) => {
    const { row, created } = await insertOnce<SanctionsScreen>(tx, {
      table: 'sanctions_screens',
      key: ['tenant_id', 'user_id'],
      values: {
        screen_id: newId('screen'),
        tenant_id: tenantId,
        user_id: input.user_id,
        first_name: input.first_name,
        last_name: input.last_name,
        date_of_birth: input.date_of_birth,
        nationality: input.nationality,
        email: input.email.trim().toLowerCase(),
        status: 'clear',
        transactions_held: false,
        match_count: 0,
        highest_match_score: 0,
        case_id: null,
        vendor: matcher.kind,
        list_versions: JSON.stringify(result.list_versions),
        checked_at: now,
        updated_at: now,
        request_hash: requestHash,
      },
      conflict,
    });
    if (!created || result.matches.length === 0) return { screen: row, created };
    return { screen: await openCase(tx, row, result, 'signup', now), created };
  });
}

export async function screeningStatus(
  platform: Platform,
  ctx: TenantContext,
  userId: string,
): Promise<SanctionsScreen> {
  const screen = await platform.db
    .selectFrom('sanctions_screens')
    .selectAll()
    .where('tenant_id', '=', ctx.tenant.tenant_id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!screen) throw new AppError('screen_not_found', 404, `User ${userId} has not been screened`);
  return screen;
}
