import { randomBytes } from 'node:crypto';
import { AmlDriver } from '../aml/aml.test-support.js';
import type { MarkerOverrides, FinancialProfileOverrides } from './safer-gambling.rules.js';

/**
 * Drives what the markers read as one tenant would: AML events (AmlDriver), limits and their checks, play sessions;
 * and reads what the tenant receives (player.risk_changed, player.financial_check_required) and the evidence kept.
 */
export class MarkersDriver extends AmlDriver {
  /**
   * The tenant's safer-gambling settings. Written to the table here: the back office's settings route is another
   * part of the issue, and only the values matter to the evaluation.
   */
  async settings(input: {
    time_zone?: string;
    marker_overrides?: MarkerOverrides;
    financial_profile?: FinancialProfileOverrides;
  }): Promise<void> {
    const row = {
      tenant_id: this.tenant.tenantId,
      time_zone: input.time_zone ?? 'UTC',
      marker_overrides: JSON.stringify(input.marker_overrides ?? {}),
      policy: '{}',
      financial_profile: JSON.stringify(input.financial_profile ?? {}),
      updated_at: this.t.platform.clock.now(),
      updated_by: 'test',
    };
    const { tenant_id: _t, ...changes } = row;
    await this.t.db
      .insertInto('sg_tenant_settings')
      .values(row)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(changes))
      .execute();
  }

  /** The back office sets a currency's reference rate (USD per unit). */
  async rate(currency: string, usdPerUnit: number): Promise<void> {
    const response = await this.t.backoffice('PUT', `/fx-rates/${currency}`, { usd_per_unit: usdPerUnit });
    if (response.statusCode !== 200) throw new Error(`rate refused: ${response.body}`);
  }

  deposit(userId: string, amountCents: number, at = 0, currency = 'USD') {
    return this.event(userId, 'deposit', amountCents, { at, currency });
  }

  failedDeposit(userId: string, at = 0) {
    return this.event(userId, 'deposit', 5_000, { at, metadata: { status: 'failed' } });
  }

  stake(userId: string, amountCents: number, at = 0) {
    return this.event(userId, 'wager', amountCents, { at });
  }

  /** The player.risk_changed webhooks the tenant received for the player, after one worker pass. */
  async riskChanges(userId: string) {
    await this.pass();
    return this.received('player.risk_changed', userId).map((e) => e.data);
  }

  /** The evidence of the player's trips (sg_marker_trips), oldest first. */
  trips(userId: string) {
    return this.t.db
      .selectFrom('sg_marker_trips')
      .select(['code', 'measured_value', 'threshold', 'details', 'catalogue_version', 'source'])
      .where('tenant_id', '=', this.tenant.tenantId)
      .where('user_id', '=', userId)
      .orderBy('tripped_at')
      .execute();
  }

  /** The codes of the markers tripped for the player so far, after one worker pass. */
  async tripped(userId: string): Promise<string[]> {
    await this.pass();
    return [...new Set((await this.trips(userId)).map((t) => t.code))].sort();
  }

  setLimit(userId: string, amountCents: number, limitType = 'limit_daily', extra: object = {}) {
    return this.api('POST', '/v1/limits', {
      user_id: userId,
      limit_type: limitType,
      amount_cents: amountCents,
      currency: 'USD',
      requested_at: this.now(),
      ...extra,
    });
  }

  depositCheck(userId: string, amountCents: number) {
    return this.api('POST', '/v1/limits/check', {
      user_id: userId,
      amount_cents: amountCents,
      currency: 'USD',
    });
  }

  wagerCheck(userId: string, amountCents: number) {
    return this.api('POST', '/v1/limits/wager-check', {
      user_id: userId,
      amount_cents: amountCents,
      currency: 'USD',
    });
  }

  async startSession(userId: string, sessionId = `ps-${randomBytes(4).toString('hex')}`): Promise<string> {
    const response = await this.api('POST', '/v1/play-sessions', {
      user_id: userId,
      session_id: sessionId,
      started_at: this.now(),
    });
    if (response.statusCode !== 201)
      throw new Error(`session refused: ${response.statusCode} ${response.body}`);
    return sessionId;
  }

  async endSession(sessionId: string): Promise<void> {
    const response = await this.api('POST', `/v1/play-sessions/${encodeURIComponent(sessionId)}/end`, {
      ended_at: this.now(),
    });
    if (response.statusCode !== 200) throw new Error(`end refused: ${response.statusCode} ${response.body}`);
  }
}
