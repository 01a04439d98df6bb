import type { Platform, TenantContext } from '../../../platform/context.js';
import { AppError } from '../../../platform/errors.js';
import { databaseGroupCommit } from '../../../platform/group-commit.js';
import { canonicalEmail, normaliseContact, type Contact } from '../contact.js';
import { recordContactsShown } from '../exclusions.sightings.js';
import type { CheckBatchRequest, CheckBatchResult, CheckQuery, CheckResult } from '../exclusions.schemas.js';
import * as exclusionCheck from '../statements/exclusion-check.js';

/** Live checks arriving together are read by one statement (one round trip for the group). */
export const exclusionsCheckGroupCommit = (db: Platform['db'], config: Platform['config']) =>
  databaseGroupCommit(config, (checks: exclusionCheck.CheckParams[]) =>
    exclusionCheck.mostRestrictiveMatches(db, checks),
  );

declare module '../../../platform/group-commit.js' {
  interface GroupCommits {
    exclusionsCheck: ReturnType<typeof exclusionsCheckGroupCommit>;
  }
}

/**
 * Skipping the regulator's list is a diagnostic the spec forbids in production: never for a live tenant, and in
 * the sandbox for admin keys only.
 */
function allowSkippingRegulator(ctx: TenantContext, includeRegulator: boolean): void {
  if (includeRegulator) return;
  if (ctx.tenant.environment === 'live') {
    throw new AppError(
      'forbidden',
      'include_regulator=false is a sandbox diagnostic; live checks always include the regulator list',
    );
  }
  if (ctx.role !== 'admin') throw new AppError('forbidden', 'include_regulator=false needs an admin API key');
}

function checkParams(platform: Platform, ctx: TenantContext, contact: Contact, includeRegulator: boolean) {
  return {
    tenantId: ctx.tenant.tenant_id,
    environment: ctx.tenant.environment,
    email: contact.email === null ? null : canonicalEmail(contact.email),
    phone: contact.phone,
    includeRegulator,
    now: platform.clock.now(),
  };
}

function toCheckResult(match: exclusionCheck.CheckMatch | undefined): CheckResult {
  if (!match) return { is_excluded: false };
  return {
    is_excluded: true,
    exclusion_id: match.exclusion_id,
    duration: match.duration,
    expires_at: match.expires_at?.toISOString() ?? null,
    is_permanent: match.is_permanent,
    source: match.source,
  };
}

/**
 * The live check: the most restrictive exclusion active now for this email or phone, across the register. Asking
 * shows the service the contact; the answer does not wait for that to be recorded (the hot path of every signup,
 * login and deposit): it is, with the other checks' contacts, within a twentieth of a second.
 */
export async function checkExclusion(
  platform: Platform,
  ctx: TenantContext,
  query: CheckQuery,
): Promise<CheckResult> {
  allowSkippingRegulator(ctx, query.include_regulator);
  const contact = normaliseContact(query);
  void recordContactsShown(platform, ctx.tenant.tenant_id, [contact], { written: false });
  const match = await platform.groupCommits.exclusionsCheck.submit(
    checkParams(platform, ctx, contact, query.include_regulator),
  );
  return toCheckResult(match);
}

/**
 * The daily reconciliation without the register in bulk: each contact's live-check answer, for up to 1,000
 * contacts in one statement. The contacts count as shown, as in the live check.
 */
export async function checkBatch(
  platform: Platform,
  ctx: TenantContext,
  body: CheckBatchRequest,
): Promise<CheckBatchResult> {
  allowSkippingRegulator(ctx, body.include_regulator);
  const contacts = body.contacts.map((entry, index) => normaliseContact(entry, `contacts/${index}/`));
  const [matches] = await Promise.all([
    exclusionCheck.mostRestrictiveMatches(
      platform.db,
      contacts.map((contact) => checkParams(platform, ctx, contact, body.include_regulator)),
    ),
    recordContactsShown(platform, ctx.tenant.tenant_id, contacts),
  ]);
  return {
    results: body.contacts.map((entry, index) => ({
      reference: entry.reference,
      ...toCheckResult(matches[index]),
    })),
  };
}
