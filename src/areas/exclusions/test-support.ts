import { randomBytes } from 'node:crypto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { TestService, TestTenant } from '../../../test/helpers/test-service.js';

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
