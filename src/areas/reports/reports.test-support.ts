import { TEST_CLOCK_START, type TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';

/**
 * Moves the test clock on a day at a time, `days` times: each 00:15 run compiles its day as it would in service
 * (one jump of a month would compile only the first batch of missed days; the rest follow a second later).
 */
export async function advanceDays(t: TestService, days: number): Promise<void> {
  for (let i = 0; i < days; i++) await t.advance(DAY);
}

export { sha256 } from '../../platform/digest.js';

export interface ReportRecord {
  report_id: string;
  tenant_id: string;
  report_type: string;
  period_kind: string;
  period: string;
  version: number;
  version_kind: string;
  reason: string | null;
  requested_by: string;
  generator_version: string;
  high_water_mark: string;
  row_count: number;
  daily_counts: Record<string, number>;
  sha256_csv: string;
  sha256_json: string;
}

/** The test clock starts at 2030-01-01T12:00Z: an ISO time `hours` from then (negative: earlier that day). */
export const at = (hours: number) => new Date(TEST_CLOCK_START.getTime() + hours * HOUR * 1000).toISOString();

/** Sends one AML money event as the tenant would; expects it queued. */
export async function moneyEvent(
  t: TestService,
  tenant: TestTenant,
  event: {
    user_id: string;
    event_type: 'deposit' | 'withdrawal';
    transaction_id: string;
    amount_cents: number;
    currency?: string;
    occurred_at: string;
    status?: 'succeeded' | 'failed' | 'pending';
  },
): Promise<void> {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/aml/event', {
    user_id: event.user_id,
    event_type: event.event_type,
    transaction_id: event.transaction_id,
    amount_cents: event.amount_cents,
    currency: event.currency ?? 'USD',
    payment_method: 'card',
    metadata: event.status ? { status: event.status } : {},
    occurred_at: event.occurred_at,
  });
  if (response.statusCode !== 202) throw new Error(`event refused: ${response.statusCode} ${response.body}`);
}

/** The versions of one report, oldest first. */
export async function versions(t: TestService, tenantId: string, type: string, period: string) {
  const response = await t.backoffice(
    'GET',
    `/reports?tenant_id=${tenantId}&report_type=${type}&period=${period}`,
  );
  if (response.statusCode !== 200) throw new Error(`listing failed: ${response.statusCode} ${response.body}`);
  return response.json<{ reports: ReportRecord[] }>().reports.reverse();
}

export async function content(t: TestService, reportId: string, format: 'csv' | 'json') {
  const response = await t.backoffice('GET', `/reports/${reportId}/content?format=${format}`);
  if (response.statusCode !== 200) throw new Error(`content failed: ${response.statusCode} ${response.body}`);
  return response.body;
}
