import type { TenantContext, TenantScopedContext } from '../../../platform/context.js';
import { isOpen, UNDER_REVIEW_STATUSES } from '../aml.case-rules.js';
import { casesOfUser, hasCaseIn } from '../aml.cases.store.js';

/** The tenant's view of a user's cases: codes and scores, never descriptions or context (tipping-off). */
export async function casesForUser(ctx: TenantContext, userId: string) {
  const cases = await casesOfUser(ctx.db, ctx.tenantId, userId);
  return {
    user_id: userId,
    open_cases: cases.filter((c) => isOpen(c.status)).length,
    cases: cases.map((c) => ({
      case_id: c.case_id,
      opened_at: c.opened_at,
      status: c.status,
      rules_triggered: c.rules_triggered,
      risk_score: c.risk_score,
    })),
  };
}

/** Whether the user's account is under AML review (UNDER_REVIEW_STATUSES): a yes or no, never which case or why. */
export function underAmlReview(ctx: TenantScopedContext, userId: string): Promise<boolean> {
  return hasCaseIn(ctx.db, ctx.tenantId, userId, UNDER_REVIEW_STATUSES);
}
