import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { TEST_CLOCK_START } from '../../../test/helpers/test-service.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';

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

/**
 * Drives the reports as one tenant and the staff would: the tenant's money events, the staff's reads of its reports.
 * A report counts the tenant's rows of a day fixed by the test clock's start, so each test has a service of its own
 * (`useSuite(() => ReportsDriver.start(), { perTest: true })`).
 */
export class ReportsDriver extends TenantDriver {
  /**
   * Moves the test clock on a day at a time, `days` times: each 00:15 run compiles its day as it would in service
   * (one jump of a month would compile only the first batch of missed days; the rest follow a second later).
   */
  async advanceDays(days: number): Promise<void> {
    for (let i = 0; i < days; i++) await this.t.advance(DAY);
  }

  /** Sends one AML money event as the tenant would; expects it queued. */
  async moneyEvent(event: {
    user_id: string;
    event_type: 'deposit' | 'withdrawal';
    transaction_id: string;
    amount_cents: number;
    currency?: string;
    occurred_at: string;
    status?: 'succeeded' | 'failed' | 'pending';
  }): Promise<void> {
    const response = await this.api('POST', '/v1/aml/event', {
      user_id: event.user_id,
      event_type: event.event_type,
      transaction_id: event.transaction_id,
      amount_cents: event.amount_cents,
      currency: event.currency ?? 'USD',
      payment_method: 'card',
      metadata: event.status ? { status: event.status } : {},
      occurred_at: event.occurred_at,
    });
    if (response.statusCode !== 202)
      throw new Error(`event refused: ${response.statusCode} ${response.body}`);
  }

  /** The versions of one of the tenant's reports, oldest first. */
  async versions(type: string, period: string): Promise<ReportRecord[]> {
    const response = await this.t.backoffice(
      'GET',
      `/reports?tenant_id=${this.tenant.tenantId}&report_type=${type}&period=${period}`,
    );
    if (response.statusCode !== 200)
      throw new Error(`listing failed: ${response.statusCode} ${response.body}`);
    return response.json<{ reports: ReportRecord[] }>().reports.reverse();
  }

  async content(reportId: string, format: 'csv' | 'json'): Promise<string> {
    const response = await this.t.backoffice('GET', `/reports/${reportId}/content?format=${format}`);
    if (response.statusCode !== 200)
      throw new Error(`content failed: ${response.statusCode} ${response.body}`);
    return response.body;
  }
}
