import { randomBytes } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Suite } from '../../../test/helpers/suite.js';
import type { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestService, TestTenant } from '../../../test/helpers/test-service.js';
import type { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import type { Environment } from '../../platform/db/platform-tables.js';

/** Test data for the self-exclusion tests. The register is national, so every test uses contact details of its own. */

export const uniqueEmail = () => `Player.${randomBytes(6).toString('hex')}@Example.COM`;

/** A valid US number no other test uses, in E.164. */
export function uniquePhone(): string {
  for (;;) {
    const digits = `415${2 + (randomBytes(1)[0]! % 8)}${(randomBytes(4).readUInt32BE() % 1_000_000).toString().padStart(6, '0')}`;
    const parsed = parsePhoneNumberFromString(`+1${digits}`);
    if (parsed?.isValid()) return parsed.number;
  }
}

/** +14155552671 as a person would type it: "+1 (415) 555-2671". */
export const formatted = (e164: string) => `+1 (${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

export const userId = () => `user_${randomBytes(4).toString('hex')}`;

/** A new tenant whose webhooks arrive at a receiver of its own, which the suite closes after its tests. */
export async function tenantWithHook(suite: Suite<TenantDriver>, environment: Environment = 'sandbox') {
  const { receiver: hook, tenant } = await suite.current.otherTenant({ environment });
  return { hook, tenant };
}

/** The data of every webhook of this event the tenant received, each verified with its signing secret. */
export const told = (hook: WebhookReceiver, tenant: TestTenant, event: string) =>
  hook
    .verified(tenant.signingSecret)
    .filter((e) => e.event === event)
    .map((e) => e.data);

export function exclude(t: TestService, tenant: TestTenant, body: Record<string, unknown>) {
  return t.api(tenant.apiKey, 'POST', '/v1/exclusions', body);
}

export function check(
  t: TestService,
  tenant: TestTenant,
  query: Record<string, string | boolean>,
  apiKey = tenant.apiKey,
) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return t.api(apiKey, 'GET', `/v1/exclusions/check?${params}`);
}

export function regulator(t: TestService, entries: Record<string, unknown>[]) {
  return t.backoffice('POST', '/regulator/exclusions', { entries });
}

export interface ContactShown {
  email?: string;
  phone?: string;
}

export function checkBatch(
  t: TestService,
  tenant: TestTenant,
  body: { contacts: Array<ContactShown & { reference: string }>; include_regulator?: boolean },
  apiKey = tenant.apiKey,
) {
  return t.api(apiKey, 'POST', '/v1/exclusions/check-batch', body);
}

/**
 * Shows the service these contacts as the tenant's daily reconciliation would (a check-batch, which records them
 * before it answers): from its return, the tenant is entitled to hear of other operators' rows for them.
 */
export async function show(t: TestService, tenant: TestTenant, contacts: ContactShown[]): Promise<void> {
  const response = await checkBatch(t, tenant, {
    contacts: contacts.map((contact, index) => ({ reference: `shown-${index}`, ...contact })),
  });
  if (response.statusCode !== 200) throw new Error(`check-batch failed: ${response.body}`);
}

/** How many contacts the service remembers the tenant has shown (stored as keyed hashes: counted, not read). */
export async function sightingsOf(t: TestService, tenantId: string): Promise<number> {
  const row = await t.db
    .selectFrom('contact_sightings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Waits until the tenant has at least `count` sightings, for at most `withinMs` (the live check records its
 * contact after it answers, "within one second"); fails if they are not there by then.
 */
export async function awaitSightings(
  t: TestService,
  tenantId: string,
  count: number,
  withinMs = 1_000,
): Promise<void> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    const seen = await sightingsOf(t, tenantId);
    if (seen >= count) return;
    if (performance.now() > deadline) {
      throw new Error(`tenant ${tenantId} has ${seen} contact sightings after ${withinMs} ms, not ${count}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
