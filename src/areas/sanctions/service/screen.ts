import type { Transaction } from 'kysely';
import type { Platform, TenantContext, TenantScopedContext } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { AppError } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { scheduleReviewDeadlines } from '../../../platform/review-deadlines.js';
import { withTransaction } from '../../../platform/service-context.js';
import { emitHit } from '../sanctions.events.js';
import { matcherFor, type SanctionsMatch, type ScreeningResult } from '../sanctions.matcher.js';
import { AWAITING_REVIEW, ESTIMATED_REVIEW_TIME, REVIEW_SLA_HOURS } from '../sanctions.rules.js';
import type { Screening, ScreenRequest } from '../sanctions.schemas.js';
import * as store from '../sanctions.store.js';
import type { CaseListChange, CaseTrigger, SanctionsScreen } from '../sanctions.tables.js';

/**
 * The tenant-facing shape: the clear shape, or, while a hit awaits review, the hit shape with counts and the
 * case. After a decision: the status, the holds and the case. Never the matched entities (tipping-off).
 */
export function screeningView(
  screen: Pick<
    SanctionsScreen,
    | 'screen_id'
    | 'user_id'
    | 'status'
    | 'checked_at'
    | 'transactions_held'
    | 'case_id'
    | 'match_count'
    | 'highest_match_score'
  >,
): Screening {
  const base = {
    screen_id: screen.screen_id,
    user_id: screen.user_id,
    status: screen.status,
    checked_at: screen.checked_at.toISOString(),
    transactions_held: screen.transactions_held,
  };
  if (screen.case_id === null) return base;
  if (screen.status !== AWAITING_REVIEW) return { ...base, case_id: screen.case_id };
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

/** The columns a screening result sets: a hit holds the user's transactions pending review of caseId. */
export function resultColumns(result: ScreeningResult, caseId: string | null) {
  return {
    status: caseId ? AWAITING_REVIEW : ('clear' as const),
    transactions_held: caseId !== null,
    match_count: result.matches.length,
    highest_match_score: highest(result.matches),
    case_id: caseId,
    list_versions: JSON.stringify(result.list_versions),
  };
}

/**
 * Opens the review case of a hit already written to the screen, due REVIEW_SLA_HOURS from now with its "due soon"
 * and "overdue" alerts stored, and announces sanctions.hit, in tx.
 */
export async function openCase(
  platform: Pick<Platform, 'config'>,
  tx: Transaction<DB>,
  screen: SanctionsScreen,
  result: ScreeningResult,
  trigger: CaseTrigger,
  now: Date,
  listChange: CaseListChange | null = null,
): Promise<void> {
  const dueAt = new Date(now.getTime() + REVIEW_SLA_HOURS * 3_600_000);
  await store.insertCase(tx, {
    case_id: screen.case_id!,
    tenant_id: screen.tenant_id,
    screen_id: screen.screen_id,
    user_id: screen.user_id,
    status: AWAITING_REVIEW,
    matches: JSON.stringify(result.matches),
    list_versions: JSON.stringify(result.list_versions),
    highest_match_score: highest(result.matches),
    opened_at: now,
    due_at: dueAt,
    trigger,
    list_change: listChange && JSON.stringify(listChange),
  });
  await scheduleReviewDeadlines(tx, platform, {
    queue: 'sanctions',
    tenantId: screen.tenant_id,
    caseId: screen.case_id!,
    dueAt,
  });
  await emitHit(tx, screen, now);
}

/**
 * Screens a user at signup (201). The same request again returns the original answer (200), whatever happened
 * since; a different request for a user already screened is 409 already_screened (the status endpoint and
 * re-screening cover changes).
 */
export async function screenUser(platform: Platform, ctx: TenantContext, input: ScreenRequest) {
  const tenantId = ctx.tenantId;
  const email = input.email.trim().toLowerCase();
  const requestHash = requestFingerprint({ ...input, email });
  const conflict = () =>
    new AppError('already_screened', 'This user was already screened; use GET /v1/sanctions/status instead');
  const replay = (screen: SanctionsScreen) => ({ view: screen.screen_response, created: false });

  // A repeat needs no new vendor call: answer from what is stored.
  const existing = await store.findScreen(ctx.db, tenantId, input.user_id);
  if (existing) {
    if (existing.request_hash !== requestHash) throw conflict();
    return replay(existing);
  }

  const matcher = matcherFor(platform.vendors, ctx.tenant);
  const result = await matcher.screen(input);
  const now = ctx.clock.now();
  const screenId = newId('screen');
  const columns = resultColumns(result, result.matches.length > 0 ? newId('case') : null);
  const response = screeningView({
    ...columns,
    screen_id: screenId,
    user_id: input.user_id,
    checked_at: now,
  });
  return withTransaction(ctx, async (tx) => {
    const { row, created } = await store.insertScreenOnce(
      tx,
      {
        ...columns,
        screen_id: screenId,
        tenant_id: tenantId,
        user_id: input.user_id,
        first_name: input.first_name,
        last_name: input.last_name,
        date_of_birth: input.date_of_birth,
        nationality: input.nationality,
        email,
        vendor: matcher.kind,
        checked_at: now,
        updated_at: now,
        request_hash: requestHash,
        screen_response: JSON.stringify(response),
      },
      conflict,
    );
    if (!created) return replay(row);
    if (row.case_id) await openCase(platform, tx, row, result, 'signup', now);
    return { view: response, created };
  });
}

export async function screeningStatus(ctx: TenantScopedContext, userId: string): Promise<SanctionsScreen> {
  const screen = await store.findScreen(ctx.db, ctx.tenantId, userId);
  if (!screen) throw new AppError('screen_not_found', `User ${userId} has not been screened`);
  return screen;
}

/**
 * Whether the user's transactions are held by a sanctions hit: awaiting review, or confirmed. A yes or no for the
 * player status call, never the case or its matches (tipping-off); false for a user never screened.
 */
export async function transactionsHeld(ctx: TenantScopedContext, userId: string): Promise<boolean> {
  const screen = await store.findScreen(ctx.db, ctx.tenantId, userId);
  return screen?.transactions_held ?? false;
}
