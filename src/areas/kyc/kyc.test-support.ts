import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

/**
 * Drives the KYC API as one tenant would, for the current player (a fresh one per test: newUser; a test may set its
 * own, for the sandbox triggers), with a key of the admin role for manual review. Its calls are arrow functions, so a
 * test may take them apart: `const { start, tier } = suite.current`.
 */
export class KycDriver extends TenantDriver {
  /** A key of the tenant's with the admin role (manual review). */
  adminKey = '';

  protected override async setUp(): Promise<void> {
    this.adminKey = await this.t.issueKey(this.tenant.tenantId, 'admin');
  }

  start = (amount: number, id = this.userId, withdrawal_id = `wd-${id}`) =>
    this.api('POST', '/v1/kyc/start', {
      user_id: id,
      email: 'player@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: amount,
      currency: 'USD',
      withdrawal_id,
    });

  /** Reports a cleared withdrawal (USD), which advances the user's lifetime total. */
  completed = (amount_cents: number, id = this.userId, withdrawal_id = `done-${Math.random()}`) =>
    this.api('POST', '/v1/kyc/withdrawal-completed', {
      user_id: id,
      withdrawal_id,
      amount_cents,
      currency: 'USD',
      completed_at: this.now(),
    });

  status = async (checkId: string) =>
    (await this.api('GET', `/v1/kyc/status?kyc_check_id=${checkId}`)).json();

  tier = async (id = this.userId) => (await this.api('GET', `/v1/kyc/tier?user_id=${id}`)).json();

  vendor = (token: string, step: 'begin' | 'submit') =>
    this.t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${token}/${step}` });

  review = (kyc_check_id: string, decision: string, key = this.adminKey) =>
    this.t.api(key, 'POST', '/v1/kyc/manual-review', {
      kyc_check_id,
      decision,
      reason: 'documents checked by hand',
    });
}
