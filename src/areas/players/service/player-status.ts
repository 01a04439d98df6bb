import type { Platform, TenantContext, TenantScopedContext } from '../../../platform/context.js';
import { underAmlReview } from '../../aml/index.js';
import { activeOwnExclusion, checkExclusion } from '../../exclusions/index.js';
import { withdrawalHeldForKyc } from '../../kyc/index.js';
import {
  listLimitsOfKind,
  playTimeRestriction,
  realityCheckIntervalOf,
  type KindLimitView,
} from '../../limits/index.js';
import { saferGamblingStanding } from '../../safer-gambling/index.js';
import { transactionsHeld } from '../../sanctions/index.js';
import { activeTimeOut } from '../../time-outs/index.js';
import { permissionsUnder } from '../players.rules.js';
import type { PlayerStatus, PlayerStatusQuery, Restriction, StatusLimit } from '../players.schemas.js';

/** An end of a restriction: a time, or null when open-ended. */
type Until = Date | null;

/**
 * The play-time controls, as the limits door answers them: the play_time limit that is exhausted now (until when),
 * and the player's reality-check interval.
 */
async function playTimeControls(
  ctx: TenantScopedContext,
  userId: string,
  now: Date,
): Promise<{ restriction: { until: Until } | null; realityCheckIntervalSeconds: number }> {
  const [restriction, realityCheckIntervalSeconds] = await Promise.all([
    playTimeRestriction(ctx.db, ctx.tenantId, userId, now),
    realityCheckIntervalOf(ctx.db, ctx.tenantId, userId),
  ]);
  return {
    restriction: restriction && { until: new Date(restriction.until) },
    realityCheckIntervalSeconds,
  };
}

/**
 * The self-exclusion in force: the tenant's own registrations of this user, and with an email or a phone the live
 * check's answer (the register and the regulator's list, always included). The latest end wins; permanent is null.
 */
async function selfExclusionUntil(
  platform: Platform,
  ctx: TenantContext,
  userId: string,
  query: PlayerStatusQuery,
  now: Date,
): Promise<Until | undefined> {
  const withContact = Boolean(query.email?.trim() || query.phone?.trim());
  const [own, check] = await Promise.all([
    // The one in force that ends last (permanent first), as play sessions ask it.
    activeOwnExclusion(ctx.db, ctx.tenantId, userId, now),
    withContact
      ? checkExclusion(platform, ctx, { ...query, include_regulator: true })
      : Promise.resolve(undefined),
  ]);
  const ends: Until[] = own ? [own.expires_at] : [];
  if (check?.is_excluded) ends.push(check.expires_at ? new Date(check.expires_at) : null);
  if (ends.length === 0) return undefined;
  if (ends.includes(null)) return null;
  return new Date(Math.max(...ends.map((end) => end!.getTime())));
}

/** A limit as the status lists it: the listing's own figures (those its kind has), the deposit limit's kind named. */
function toStatusLimit(view: KindLimitView): StatusLimit {
  const figures = view as Partial<StatusLimit>;
  return {
    limit_id: view.limit_id,
    limit_kind: figures.limit_kind ?? 'deposit',
    limit_type: view.limit_type,
    amount_cents: figures.amount_cents,
    currency: figures.currency,
    amount_seconds: figures.amount_seconds,
    spent_cents: figures.spent_cents,
    remaining_cents: figures.remaining_cents,
    spent_seconds: figures.spent_seconds,
    remaining_seconds: figures.remaining_seconds,
    next_reset_at: view.next_reset_at,
  };
}

/**
 * What a player may do now, and why not: every area's answer read through its door, all at once (the call is made
 * at every login and page load). A sanctions hold or any AML case shows as one account_under_review with no end and
 * nothing else of it (tipping-off). A user the service has never heard of has nothing restricting them.
 */
export async function playerStatus(
  platform: Platform,
  ctx: TenantContext,
  userId: string,
  query: PlayerStatusQuery,
): Promise<PlayerStatus> {
  const now = ctx.clock.now();
  const [excludedUntil, timeOut, playTime, sanctionsHeld, amlReview, kycHeld, limits, saferGambling] =
    await Promise.all([
      selfExclusionUntil(platform, ctx, userId, query, now),
      activeTimeOut(ctx.db, ctx.tenantId, userId, now),
      playTimeControls(ctx, userId, now),
      transactionsHeld(ctx, userId),
      underAmlReview(ctx, userId),
      withdrawalHeldForKyc(ctx, userId),
      listLimitsOfKind(ctx, userId, 'all'),
      saferGamblingStanding(ctx.db, ctx.tenantId, userId),
    ]);

  const restrictions: Restriction[] = [];
  const restrict = (code: Restriction['code'], until: Until) =>
    restrictions.push({ code, until: until && until.toISOString() });
  if (excludedUntil !== undefined) restrict('self_excluded', excludedUntil);
  if (timeOut) restrict('timed_out', timeOut.ends_at);
  if (playTime.restriction) restrict('play_time_exhausted', playTime.restriction.until);
  if (sanctionsHeld || amlReview) restrict('account_under_review', null);
  if (kycHeld) restrict('kyc_required', null);
  if (saferGambling.depositsStopped) restrict('safer_gambling_review', null);

  return {
    user_id: userId,
    ...permissionsUnder(
      restrictions.map((r) => r.code),
      !saferGambling.marketingAllowed,
    ),
    restrictions,
    limits: limits.map(toStatusLimit),
    reality_check_interval_seconds: playTime.realityCheckIntervalSeconds,
  };
}
