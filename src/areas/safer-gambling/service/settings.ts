import { audit } from '../../../platform/audit.js';
import type { ServiceContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { forTenant, withTransaction } from '../../../platform/service-context.js';
import { findTenant } from '../../../platform/tenants.store.js';
import { MARKER_CODES } from '../safer-gambling.markers.js';
import {
  financialProfileOf,
  overrideProblems,
  policyOf,
  policyProblems,
  thresholdsOf,
  type FinancialProfileOverrides,
  type MarkerOverrides,
} from '../safer-gambling.rules.js';
import type { SaferGamblingSettings, SaferGamblingSettingsRequest } from '../safer-gambling.schemas.js';
import * as store from '../safer-gambling.store.js';

/** A tenant's safer-gambling settings, set by the staff (audited) as the AML settings are: absent, the defaults. */

async function assertTenant(ctx: ServiceContext, tenantId: string): Promise<void> {
  if (!(await findTenant(ctx.db, tenantId))) throw new AppError('tenant_not_found', `No tenant ${tenantId}`);
}

/** Each level and window at most once: a profile is a set of thresholds, not a list of attempts. */
function profileProblems(profile: FinancialProfileOverrides): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { level, window } of profile.thresholds ?? []) {
    const key = `${level} ${window}`;
    if (seen.has(key)) problems.push(`financial_profile has the ${level} check over ${window} twice`);
    seen.add(key);
  }
  return problems;
}

export async function saferGamblingSettings(
  ctx: ServiceContext,
  tenantId: string,
): Promise<SaferGamblingSettings> {
  await assertTenant(ctx, tenantId);
  const row = await store.findTenantSettings(ctx.db, tenantId);
  const overrides: MarkerOverrides = row?.marker_overrides ?? {};
  return {
    tenant_id: tenantId,
    time_zone: row?.time_zone ?? 'UTC',
    marker_overrides: overrides,
    policy: row?.policy ?? {},
    financial_profile: row?.financial_profile ?? {},
    in_force: {
      thresholds: Object.fromEntries(MARKER_CODES.map((code) => [code, thresholdsOf(code, overrides)])),
      policy: policyOf(row?.policy),
      financial_profile: financialProfileOf(row?.financial_profile),
    },
    updated_at: row?.updated_at ?? null,
    updated_by: row?.updated_by ?? null,
  };
}

/**
 * Sets what the request gives (each field replaces the stored one; an absent field keeps it), refused whole when any
 * part is out of its bounds (400 invalid_request naming each problem). New evaluations and new requirements take
 * it; what is already recorded (trips, due times) stays as it was decided.
 */
export async function setSaferGamblingSettings(
  ctx: ServiceContext,
  tenantId: string,
  input: SaferGamblingSettingsRequest,
): Promise<SaferGamblingSettings> {
  await assertTenant(ctx, tenantId);
  const problems = [
    ...overrideProblems((input.marker_overrides ?? {}) as MarkerOverrides),
    ...policyProblems(input.policy ?? {}),
    ...profileProblems(input.financial_profile ?? {}),
  ];
  if (input.time_zone !== undefined && !(await store.timeZoneKnown(ctx.db, input.time_zone)))
    problems.push(`time_zone ${input.time_zone} is not an IANA time zone name`);
  if (problems.length > 0) throw new AppError('invalid_request', problems.join('; '), { problems });

  await withTransaction(ctx, async (tx, ctx) => {
    const stored = await store.findTenantSettings(tx, tenantId);
    await store.saveTenantSettings(tx, {
      tenant_id: tenantId,
      time_zone: input.time_zone ?? stored?.time_zone ?? 'UTC',
      marker_overrides: JSON.stringify(input.marker_overrides ?? stored?.marker_overrides ?? {}),
      policy: JSON.stringify(input.policy ?? stored?.policy ?? {}),
      financial_profile: JSON.stringify(input.financial_profile ?? stored?.financial_profile ?? {}),
      updated_at: ctx.clock.now(),
      updated_by: ctx.actor,
    });
    await audit(tx, forTenant(ctx, tenantId), 'safer_gambling.settings_changed', { ...input });
  });
  return saferGamblingSettings(ctx, tenantId);
}
