import { DECISIONS, type DecisionAction } from './aml.case-rules.js';
import { recommendedAction } from './aml.rules.js';
import type { AmlCase } from './aml.tables.js';

/**
 * Every webhook the AML area emits. A screen sends none (its answer is the response); a case sends aml.flagged when
 * it opens or gains a rule code, and one event per staff decision. Tipping-off: codes, scores and transaction ids
 * only, never a rule's description or a case's context.
 */

/** aml.flagged, for a case that opened or gained a rule code. */
export function flagged(found: AmlCase) {
  return {
    event: 'aml.flagged' as const,
    data: {
      case_id: found.case_id,
      user_id: found.user_id,
      rules_triggered: found.rules_triggered,
      risk_score: found.risk_score,
      recommended_action: recommendedAction(found.risk_score),
      transactions_to_review: found.transaction_ids,
    },
  };
}

/** aml.held, aml.cleared, aml.escalated or aml.account_frozen: the staff's decision on a case (DECISIONS). */
export function decided(action: DecisionAction, found: AmlCase, reviewer: string) {
  return {
    event: DECISIONS[action].event,
    data: {
      case_id: found.case_id,
      user_id: found.user_id,
      status: found.status,
      withdrawal_id: found.withdrawal_id,
      rules_triggered: found.rules_triggered,
      reviewer,
    },
  };
}
