import type { Transaction } from 'kysely';
import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db/database.js';
import type { DB } from '../../../platform/db/schema.js';
import { sha256 } from '../../../platform/digest.js';
import { AppError } from '../../../platform/errors.js';
import * as fourEyes from '../../../platform/four-eyes.js';
import { newId } from '../../../platform/ids.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import type { ScreeningResult, ScreeningSubject } from '../sanctions.matcher.js';
import { raisedAgain } from '../sanctions.rules.js';
import * as store from '../sanctions.dismissals.store.js';
import type { SanctionsCase, SanctionsDismissal } from '../sanctions.tables.js';

/**
 * The reviewers' remembered dismissals: written when a case is cleared, read by every screening of a player already
 * screened (re-screens and list changes), listed and withdrawn by staff.
 */

/** The digest of the details a player was screened with: a correction makes a new one. */
export const subjectDigest = (subject: ScreeningSubject): string =>
  sha256([subject.first_name, subject.last_name, subject.date_of_birth, subject.nationality].join('\n'));

const pairKey = (m: { list: string; entity_id: string }) => `${m.list}/${m.entity_id}`;

/**
 * For these screens, a filter that drops the matches a reviewer's dismissal still covers (sanctions.rules.ts,
 * raisedAgain), and returns with each kept match the earlier dismissal it reopens, if any.
 */
export async function rememberedDismissals(
  db: Executor,
  screenIds: string[],
): Promise<(screenId: string, subject: ScreeningSubject, result: ScreeningResult) => ScreeningResult> {
  const byScreen = new Map<string, Map<string, SanctionsDismissal>>();
  for (const dismissal of await store.dismissalsInForce(db, screenIds)) {
    const own = byScreen.get(dismissal.screen_id) ?? new Map<string, SanctionsDismissal>();
    own.set(pairKey(dismissal), dismissal);
    byScreen.set(dismissal.screen_id, own);
  }
  return (screenId, subject, result) => {
    const own = byScreen.get(screenId);
    if (!own) return result;
    const digest = subjectDigest(subject);
    return {
      ...result,
      matches: result.matches.filter((match) => {
        const dismissal = own.get(pairKey(match));
        return !dismissal || raisedAgain(match, dismissal, digest);
      }),
    };
  };
}

/** A cleared case's matches, remembered as dismissed for its player (ending any earlier dismissal of the same). */
export async function rememberDismissals(
  tx: Transaction<DB>,
  found: SanctionsCase,
  subject: ScreeningSubject,
  reviewer: string | null,
  now: Date,
): Promise<void> {
  const digest = subjectDigest(subject);
  await store.recordDismissals(
    tx,
    found.matches.map((match) => ({
      dismissal_id: newId('dismissal'),
      tenant_id: found.tenant_id,
      screen_id: found.screen_id,
      user_id: found.user_id,
      case_id: found.case_id,
      list: match.list,
      entity_id: match.entity_id,
      entity_name: match.name,
      entity_digest: match.entity_digest ?? null,
      subject_digest: digest,
      score: match.score,
      dismissed_at: now,
      dismissed_by: reviewer,
    })),
    now,
  );
}

/** A dismissal as staff see it: which match, when and by whom, and whether it is still in force. */
export const dismissalView = (d: SanctionsDismissal) => ({
  dismissal_id: d.dismissal_id,
  tenant_id: d.tenant_id,
  user_id: d.user_id,
  case_id: d.case_id,
  list: d.list,
  entity_id: d.entity_id,
  entity_name: d.entity_name,
  score: Number(d.score),
  content_remembered: d.entity_digest !== null,
  dismissed_at: d.dismissed_at.toISOString(),
  dismissed_by: d.dismissed_by,
  in_force: d.ended_at === null,
  ended_at: d.ended_at?.toISOString() ?? null,
  ended_by: d.ended_by,
  end_reason: d.end_reason,
});
export type DismissalView = ReturnType<typeof dismissalView>;

/** A player's remembered dismissals, those in force first. */
export async function playerDismissals(ctx: ServiceContext, target: { tenantId: string; userId: string }) {
  const rows = await store.listDismissals(ctx.db, target.tenantId, target.userId);
  return { dismissals: rows.map(dismissalView) };
}

/**
 * A signed-in reviewer withdraws a dismissal: the next screening of the player considers that entity again.
 * Audited with the reason; a dismissal no longer in force is 409.
 */
export function withdrawDismissal(ctx: ServiceContext, dismissalId: string, reason: string) {
  return withTransaction(ctx, async (tx, ctx) => {
    fourEyes.requirePerson(ctx);
    const found = await store.lockDismissal(tx, dismissalId);
    if (!found) throw new AppError('dismissal_not_found', `No dismissal ${dismissalId}`);
    if (found.ended_at) {
      throw new AppError(
        'dismissal_not_in_force',
        `Dismissal ${dismissalId} already ended: ${found.end_reason}`,
      );
    }
    const ended = await store.endDismissal(tx, dismissalId, {
      ended_at: ctx.clock.now(),
      ended_by: ctx.actor,
      end_reason: `withdrawn: ${reason}`,
    });
    await audit(tx, forTenant(ctx, found.tenant_id), 'sanctions.dismissal_withdrawn', {
      dismissal_id: dismissalId,
      case_id: found.case_id,
      user_id: found.user_id,
      list: found.list,
      entity_id: found.entity_id,
      reason,
    });
    return dismissalView(ended);
  });
}
