import { randomBytes } from 'node:crypto';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';

/** Drives the limits API as one tenant would, for the current player (a fresh one per test: newUser). */
export class LimitsDriver extends TenantDriver {
  setLimit(amount_cents: unknown, limit_type = 'limit_daily', extra: object = {}) {
    return this.api('POST', '/v1/limits', {
      user_id: this.userId,
      limit_type,
      amount_cents,
      currency: 'USD',
      requested_at: this.now(),
      ...extra,
    });
  }

  commit(amount_cents: number, extra: object = {}) {
    return this.api('POST', '/v1/limits/commit', {
      user_id: this.userId,
      transaction_id: `tx-${randomBytes(6).toString('hex')}`,
      amount_cents,
      currency: 'USD',
      committed_at: this.now(),
      ...extra,
    });
  }

  check(amount_cents: number, currency = 'USD') {
    return this.api('POST', '/v1/limits/check', {
      user_id: this.userId,
      amount_cents,
      currency,
    });
  }

  release(transaction_id: string, amount_cents: number, extra: object = {}) {
    return this.api('POST', '/v1/limits/release', {
      user_id: this.userId,
      transaction_id,
      amount_cents,
      currency: 'USD',
      ...extra,
    });
  }

  list(limitKind?: string) {
    const kind = limitKind ? `&limit_kind=${limitKind}` : '';
    return this.api('GET', `/v1/limits?user_id=${this.userId}${kind}`);
  }

  /** A limit of another kind than deposit: money kinds in USD cents, play_time in seconds. */
  setKindLimit(limit_kind: string, amount: number, limit_type = 'limit_daily') {
    const money =
      limit_kind === 'play_time' ? { amount_seconds: amount } : { amount_cents: amount, currency: 'USD' };
    return this.api('POST', '/v1/limits', {
      user_id: this.userId,
      limit_kind,
      limit_type,
      ...money,
      requested_at: this.now(),
    });
  }

  wagerCheck(amount_cents: number, currency = 'USD') {
    return this.api('POST', '/v1/limits/wager-check', { user_id: this.userId, amount_cents, currency });
  }

  /** An AML event of the current player, acknowledged (202) as the operator sends it for every bet and payout. */
  async amlEvent(event_type: 'wager' | 'settlement', amount_cents: number, metadata: object = {}) {
    const response = await this.api('POST', '/v1/aml/event', {
      user_id: this.userId,
      event_type,
      transaction_id: `tx-${randomBytes(6).toString('hex')}`,
      amount_cents,
      currency: 'USD',
      payment_method: 'wallet',
      metadata,
      occurred_at: this.now(),
    });
    if (response.statusCode !== 202)
      throw new Error(`event refused: ${response.statusCode} ${response.body}`);
  }

  /** POST /v1/play-sessions for the current player, started now unless told. */
  startSession(session_id: string, extra: object = {}) {
    return this.api('POST', '/v1/play-sessions', {
      user_id: this.userId,
      session_id,
      started_at: this.now(),
      ...extra,
    });
  }

  endSession(sessionId: string, ended_at = this.now()) {
    return this.api('POST', `/v1/play-sessions/${encodeURIComponent(sessionId)}/end`, { ended_at });
  }

  session(sessionId: string) {
    return this.api('GET', `/v1/play-sessions/${encodeURIComponent(sessionId)}`);
  }

  setRealityCheck(interval_seconds: number | null, userId = this.userId) {
    return this.api('PUT', `/v1/players/${encodeURIComponent(userId)}/reality-check`, { interval_seconds });
  }

  cancel(limitId: string, apiKey = this.tenant.apiKey) {
    return this.t.api(apiKey, 'DELETE', `/v1/limits/${limitId}`);
  }

  /** The names of every event of the current player, sorted (delivery order is not part of the contract). */
  async eventNames(): Promise<string[]> {
    await this.t.deliverWebhooks();
    return this.received(undefined, this.userId)
      .map((e) => e.event)
      .sort();
  }
}
