import type { TenantContext } from '../../../platform/context.js';
import { isOpen } from '../aml.case-rules.js';
import { casesOfUser } from '../aml.cases.store.js';

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
