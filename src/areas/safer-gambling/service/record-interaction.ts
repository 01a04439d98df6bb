import { audit } from '../../../platform/audit.js';
import type { Platform, TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { requestFingerprint } from '../../../platform/idempotency.js';
import { newId } from '../../../platform/ids.js';
import { MAX_FUTURE_SECONDS } from '../../../platform/schemas.js';
import { withTransaction } from '../../../platform/service-context.js';
import type { InteractionOutcome } from '../safer-gambling.markers.js';
import { reviewQuietUntil } from '../safer-gambling.rules.js';
import type { Interaction, RecordInteractionRequest } from '../safer-gambling.schemas.js';
import * as store from '../safer-gambling.store.js';
import type { SgInteractionRow } from '../safer-gambling.tables.js';
import { cancelOverdue, isActive, settleStanding } from './standing.js';

/** What each outcome does: whether it settles the interaction owed, and whether it reviews the active markers. */
const EFFECTS: Record<InteractionOutcome, { settles: boolean; reviews: boolean }> = {
  no_concern: { settles: true, reviews: true },
  limits_set: { settles: true, reviews: true },
  time_out: { settles: true, reviews: true },
  self_excluded: { settles: true, reviews: true },
  account_closed: { settles: true, reviews: true },
  // The operator tried and did not reach the player: the interaction is still owed.
  no_response: { settles: false, reviews: false },
  // The player disputes what was seen: the operator has acted, but the markers stand and the staff follow it up.
  contested: { settles: true, reviews: false },
};

export const toInteraction = (row: SgInteractionRow): Interaction => ({
  interaction_id: row.interaction_id,
  user_id: row.user_id,
  kind: row.kind,
  outcome: row.outcome,
  occurred_at: row.occurred_at,
  notes: row.notes,
  recorded_at: row.recorded_at,
  reviewed_markers: row.reviewed_markers,
  settled_due_at: row.settled_due_at,
});

/**
 * Records what the operator did for a player (POST /v1/players/{user_id}/interactions), in one transaction under
 * the player's lock: it settles the interaction owed and reviews the markers active now, as its outcome says
 * (EFFECTS), then the level follows (settleStanding: player.risk_changed when it moves). Idempotent on the
 * operator's interaction_id: the same request again answers the stored one, another is 409. Any user_id is taken,
 * one the area has never seen included: an operator may record a proactive call.
 */
export async function recordInteraction(
  platform: Pick<Platform, 'log'>,
  ctx: TenantContext,
  userId: string,
  input: RecordInteractionRequest,
): Promise<{ interaction: Interaction; created: boolean }> {
  const { tenantId } = ctx;
  const occurredAt = new Date(input.occurred_at);
  const requestHash = requestFingerprint({
    user_id: userId,
    kind: input.kind,
    outcome: input.outcome,
    occurred_at: occurredAt.toISOString(),
    notes: input.notes ?? null,
  });
  return withTransaction(ctx, async (tx, ctx) => {
    await store.lockPlayer(tx, tenantId, userId);
    const now = ctx.clock.now();
    const [player, markers] = await Promise.all([
      store.findPlayer(tx, tenantId, userId),
      store.playerMarkers(tx, tenantId, userId),
    ]);
    const effects = EFFECTS[input.outcome];
    // An interaction that took place before the one owed was required cannot answer it: it is kept as history.
    // The operator's clock may run behind ours by the skew a client timestamp is allowed.
    const answersDue =
      player?.interaction_due_at != null &&
      (player.interaction_required_at === null ||
        occurredAt.getTime() + MAX_FUTURE_SECONDS * 1000 >= player.interaction_required_at.getTime());
    const settledDueAt = effects.settles && answersDue ? player!.interaction_due_at : null;
    const answersMarkers = player?.interaction_due_at == null || answersDue;
    const reviewed =
      effects.reviews && answersMarkers
        ? markers
            .filter((m) => isActive(m, now))
            .map((m) => ({ code: m.code, measured_value: m.measured_value }))
        : [];

    const row = {
      tenant_id: tenantId,
      interaction_id: input.interaction_id ?? newId('interaction'),
      user_id: userId,
      kind: input.kind,
      outcome: input.outcome,
      occurred_at: occurredAt,
      notes: input.notes ?? null,
      recorded_at: now,
      reviewed_markers: JSON.stringify(reviewed),
      settled_due_at: settledDueAt,
      request_hash: requestHash,
    };
    // The unique key decides, not a read first: a concurrent repeat for another player waits on it.
    if (!(await store.insertInteraction(tx, row))) {
      const existing = (await store.findInteraction(tx, tenantId, row.interaction_id))!;
      if (existing.request_hash !== requestHash) {
        throw new AppError(
          'duplicate_interaction',
          `Interaction ${row.interaction_id} was recorded with other details`,
        );
      }
      return { interaction: toInteraction(existing), created: false };
    }

    const contested = input.outcome === 'contested';
    if (settledDueAt || contested) {
      if (settledDueAt) await cancelOverdue(tx, tenantId, userId);
      await store.upsertPlayer(tx, {
        tenant_id: tenantId,
        user_id: userId,
        risk_level: player?.risk_level ?? 'none',
        level_changed_at: player?.level_changed_at ?? now,
        interaction_required_at: player?.interaction_required_at ?? null,
        interaction_due_at: settledDueAt ? null : (player?.interaction_due_at ?? null),
        interaction_overdue_at: settledDueAt ? null : (player?.interaction_overdue_at ?? null),
        // The flag stays for the service's staff to clear: a later interaction does not undo a dispute.
        contested_at: contested ? now : (player?.contested_at ?? null),
        contested_interaction_id: contested ? row.interaction_id : (player?.contested_interaction_id ?? null),
        updated_at: now,
      });
    }
    await store.reviewMarkers(
      tx,
      tenantId,
      userId,
      reviewed.map((m) => m.code),
      { at: now, quietUntil: reviewQuietUntil(now), interactionId: row.interaction_id },
    );
    await settleStanding(tx, platform, tenantId, userId, now);
    await audit(tx, ctx, 'safer_gambling.interaction_recorded', {
      interaction_id: row.interaction_id,
      user_id: userId,
      kind: row.kind,
      outcome: row.outcome,
      settled_due_at: settledDueAt?.toISOString() ?? null,
      reviewed_markers: reviewed.map((m) => m.code),
    });
    return {
      interaction: toInteraction({ ...row, reviewed_markers: reviewed }),
      created: true,
    };
  });
}
