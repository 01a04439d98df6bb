import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

/**
 * Drives the player status call as one tenant would, for the current player (a fresh one per test: newUser), with
 * the calls of the other areas that restrict a player: an exclusion, a time-out, a sanctions screen, an AML
 * withdrawal screen and its staff decisions, a KYC start and its review, limits and deposits.
 */
export class PlayersDriver extends TenantDriver {
  /** A key of the tenant's with the admin role (KYC manual review). */
  adminKey = '';

  protected override async setUp(): Promise<void> {
    this.adminKey = await this.t.issueKey(this.tenant.tenantId, 'admin');
  }

  statusOf(userId: string, query: Record<string, string> = {}) {
    const search = new URLSearchParams(query).toString();
    return this.api('GET', `/v1/players/${encodeURIComponent(userId)}/status${search ? `?${search}` : ''}`);
  }

  /** The current player's status, expected 200. */
  async status(query: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const response = await this.statusOf(this.userId, query);
    if (response.statusCode !== 200)
      throw new Error(`status failed: ${response.statusCode} ${response.body}`);
    return response.json();
  }

  /** The current player's restrictions as [code, until] pairs. */
  async restrictions(query: Record<string, string> = {}): Promise<[unknown, unknown][]> {
    const { restrictions } = (await this.status(query)) as {
      restrictions: { code: string; until: unknown }[];
    };
    return restrictions.map((r) => [r.code, r.until]);
  }

  /** Expects a call of another area to succeed (2xx) and answers its body. */
  private async ok(request: Promise<LightMyRequestResponse>): Promise<Record<string, string>> {
    const response = await request;
    if (response.statusCode >= 300) throw new Error(`refused: ${response.statusCode} ${response.body}`);
    return response.json();
  }

  exclude(duration: string, contact: object) {
    return this.ok(this.api('POST', '/v1/exclusions', { user_id: this.userId, duration, ...contact }));
  }

  takeTimeOut(duration: string) {
    return this.ok(this.api('POST', '/v1/time-outs', { user_id: this.userId, duration }));
  }

  /** A sanctions screen at signup; the sandbox stub hits `SanctionedSam`. */
  screenSanctions(firstName: string) {
    return this.ok(
      this.api('POST', '/v1/sanctions/screen', {
        user_id: this.userId,
        first_name: firstName,
        last_name: 'Smith',
        date_of_birth: '1980-01-01',
        nationality: 'GB',
        email: `${this.userId}@example.com`,
      }),
    );
  }

  /** A real-time withdrawal screen in USD cents: USD 10,000 or more is held (R-001). */
  screenWithdrawal(amountCents: number) {
    return this.ok(
      this.api('POST', '/v1/aml/screen', {
        user_id: this.userId,
        withdrawal_id: `wd-${randomBytes(4).toString('hex')}`,
        amount_cents: amountCents,
        currency: 'USD',
        payment_method: 'bank_transfer',
        destination_country: 'CA',
      }),
    );
  }

  /** A decision on a case by a signed-in reviewer, approved by a supervisor where it takes four eyes. */
  async decide(area: 'aml' | 'sanctions', caseId: string, decision: Record<string, string>) {
    const body = { ...decision, reason: 'reviewed for the status test' };
    await this.ok(this.t.asStaff('reviewer', 'POST', `/${area}/cases/${caseId}/decision`, body));
    if (['freeze', 'escalate', 'confirmed'].includes(decision.action ?? decision.decision ?? '')) {
      await this.ok(this.t.asStaff('supervisor', 'POST', `/${area}/cases/${caseId}/proposal/approve`));
    }
  }

  /** A withdrawal above the player's verified tier: a KYC check that holds it. */
  startKyc(withdrawalCents: number) {
    return this.ok(
      this.api('POST', '/v1/kyc/start', {
        user_id: this.userId,
        email: 'player@example.com',
        phone: '+15555550100',
        withdrawal_amount_cents: withdrawalCents,
        currency: 'USD',
        withdrawal_id: `wd-${this.userId}`,
      }),
    );
  }

  reviewKyc(checkId: string, decision: 'approve' | 'reject') {
    return this.ok(
      this.t.api(this.adminKey, 'POST', '/v1/kyc/manual-review', {
        kyc_check_id: checkId,
        decision,
        reason: 'documents checked by hand',
      }),
    );
  }

  /** A limit of any kind: money kinds in USD cents, play_time in seconds. */
  setLimit(limit_kind: string, limit_type: string, amount: number) {
    const amounts =
      limit_kind === 'play_time' ? { amount_seconds: amount } : { amount_cents: amount, currency: 'USD' };
    return this.ok(
      this.api('POST', '/v1/limits', {
        user_id: this.userId,
        limit_kind,
        limit_type,
        ...amounts,
        requested_at: this.now(),
      }),
    );
  }

  commitDeposit(amountCents: number) {
    return this.ok(
      this.api('POST', '/v1/limits/commit', {
        user_id: this.userId,
        transaction_id: `tx-${randomBytes(6).toString('hex')}`,
        amount_cents: amountCents,
        currency: 'USD',
        committed_at: this.now(),
      }),
    );
  }

  /** A stake or a payout as the operator reports it to AML (the loss and wager limits count them). */
  amlEvent(event_type: 'wager' | 'settlement', amountCents: number) {
    return this.ok(
      this.api('POST', '/v1/aml/event', {
        user_id: this.userId,
        event_type,
        transaction_id: `tx-${randomBytes(6).toString('hex')}`,
        amount_cents: amountCents,
        currency: 'USD',
        payment_method: 'wallet',
        metadata: {},
        occurred_at: this.now(),
      }),
    );
  }
}
