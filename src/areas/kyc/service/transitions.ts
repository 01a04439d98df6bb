import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { cancelReviewDeadlines, scheduleReviewDeadlines } from '../../../platform/review-deadlines.js';
import { cancelJob, scheduleJob } from '../../../platform/scheduler.js';
import {
  ABANDON_AFTER_SECONDS,
  higherOf,
  rank,
  REVIEW_DUE_AFTER_SECONDS,
  waitsOnPlayer,
  type KycStatus,
} from '../kyc.rules.js';
import { emitKycEvent, statusData } from '../kyc.events.js';
import { findUser, setVerifiedTier, updateCheck } from '../kyc.store.js';
import type { KycCheck } from '../kyc.tables.js';

/** The abandonment job of an open check: one per check, moved on every activity. */
export const EXPIRE_JOB = 'kyc.expire';

/** Activity on an open check; while the check waits on the player, the 7-day abandonment clock starts again. */
export async function recordActivity(
  tx: Transaction<DB>,
  check: KycCheck,
  now: Date,
  patch: { status?: KycStatus; vendor_token_hash?: string; vendor_token_expires_at?: Date } = {},
): Promise<KycCheck> {
  const updated = await updateCheck(tx, check.kyc_check_id, {
    ...patch,
    last_activity_at: now,
    updated_at: now,
  });
  if (waitsOnPlayer(updated.status)) {
    await scheduleJob(tx, {
      kind: EXPIRE_JOB,
      subjectId: check.kyc_check_id,
      tenantId: check.tenant_id,
      dueAt: new Date(now.getTime() + ABANDON_AFTER_SECONDS * 1000),
    });
  }
  return updated;
}

/** not_started → in_progress: the user began the vendor flow. */
export async function markStarted(tx: Transaction<DB>, check: KycCheck, now: Date): Promise<KycCheck> {
  const updated = await recordActivity(tx, check, now, { status: 'in_progress' });
  await emitKycEvent(tx, updated, 'kyc.started', statusData(updated), now);
  return updated;
}

/**
 * in_progress → pending_review: documents uploaded, awaiting review. The check now waits on reviewers: it no
 * longer expires, and is due for a decision REVIEW_DUE_AFTER_SECONDS from now, with its review alerts.
 */
export async function markSubmitted(
  platform: Pick<Platform, 'config'>,
  tx: Transaction<DB>,
  check: KycCheck,
  now: Date,
): Promise<KycCheck> {
  const dueAt = new Date(now.getTime() + REVIEW_DUE_AFTER_SECONDS * 1000);
  const updated = await updateCheck(tx, check.kyc_check_id, {
    status: 'pending_review',
    review_due_at: dueAt,
    last_activity_at: now,
    updated_at: now,
  });
  await cancelJob(tx, EXPIRE_JOB, check.kyc_check_id);
  await scheduleReviewDeadlines(tx, platform, {
    queue: 'kyc',
    tenantId: check.tenant_id,
    caseId: check.kyc_check_id,
    dueAt,
  });
  await emitKycEvent(
    tx,
    updated,
    'kyc.submitted',
    { ...statusData(updated), required_documents: updated.required_documents },
    now,
  );
  return updated;
}

async function decide(
  tx: Transaction<DB>,
  check: KycCheck,
  status: 'approved' | 'rejected',
  now: Date,
  decision: { by: string; reason: string | null },
): Promise<KycCheck> {
  await cancelJob(tx, EXPIRE_JOB, check.kyc_check_id);
  // Only a check that reached pending_review has review alerts (the start's instant decisions skip the deletes).
  if (check.status === 'pending_review') await cancelReviewDeadlines(tx, 'kyc', check.kyc_check_id);
  return updateCheck(tx, check.kyc_check_id, {
    status,
    decided_at: now,
    decided_by: decision.by,
    decision_reason: decision.reason,
    updated_at: now,
    last_activity_at: now,
  });
}

/**
 * Approves an open check: the user's verified tier rises to the check's tier (never lowers) and the held
 * withdrawal is released by kyc.approved; kyc.tier_upgraded follows when the tier actually rose. Caller holds
 * the user's lock.
 */
export async function approveCheck(
  tx: Transaction<DB>,
  check: KycCheck,
  now: Date,
  decision: { by: string; reason: string | null },
): Promise<KycCheck> {
  const approved = await decide(tx, check, 'approved', now, decision);
  const previous = (await findUser(tx, check.tenant_id, check.user_id))?.verified_tier ?? 'tier_0';
  const verified = higherOf(previous, check.required_tier);
  const raised = rank(verified) > rank(previous);
  if (raised) await setVerifiedTier(tx, check.tenant_id, check.user_id, verified, now);
  // The spec's data of kyc.approved, exactly.
  await emitKycEvent(
    tx,
    approved,
    'kyc.approved',
    {
      kyc_check_id: approved.kyc_check_id,
      user_id: approved.user_id,
      verified_tier: verified,
      release_withdrawal_id: approved.withdrawal_id,
    },
    now,
  );
  if (raised) {
    await emitKycEvent(
      tx,
      approved,
      'kyc.tier_upgraded',
      {
        ...statusData(approved),
        previous_tier: previous,
        verified_tier: verified,
        verified_at: now.toISOString(),
      },
      now,
    );
  }
  return approved;
}

/** Rejects an open check: the withdrawal stays blocked. */
export async function rejectCheck(
  tx: Transaction<DB>,
  check: KycCheck,
  now: Date,
  decision: { by: string; reason: string | null },
): Promise<KycCheck> {
  const rejected = await decide(tx, check, 'rejected', now, decision);
  await emitKycEvent(
    tx,
    rejected,
    'kyc.rejected',
    { ...statusData(rejected), withdrawal_id: rejected.withdrawal_id },
    now,
  );
  return rejected;
}

/**
 * Abandonment: a check waiting on the player (not_started, in_progress) with no activity for 7 days becomes
 * expired and its withdrawal is cancelled; a check in pending_review never does (it has a review due time). A job
 * that finds more recent activity (a move that lost a race) waits for the new due time instead.
 */
export async function expireCheck(tx: Transaction<DB>, check: KycCheck, now: Date): Promise<void> {
  if (!waitsOnPlayer(check.status)) return;
  const dueAt = new Date(check.last_activity_at.getTime() + ABANDON_AFTER_SECONDS * 1000);
  if (dueAt > now) {
    await scheduleJob(tx, {
      kind: EXPIRE_JOB,
      subjectId: check.kyc_check_id,
      tenantId: check.tenant_id,
      dueAt,
    });
    return;
  }
  const expired = await updateCheck(tx, check.kyc_check_id, { status: 'expired', updated_at: now });
  await emitKycEvent(
    tx,
    expired,
    'kyc.expired',
    { ...statusData(expired), cancelled_withdrawal_id: expired.withdrawal_id },
    now,
  );
}
