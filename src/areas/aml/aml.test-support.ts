import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { WebhookEnvelope } from '../../platform/outbox.js';
import { FOUR_EYES_ACTIONS, type DecisionAction } from './aml.case-rules.js';

export interface EventOptions {
  /** Seconds relative to the service clock's now (negative: in the past). */
  at?: number;
  transaction_id?: string;
  payment_method?: string;
  metadata?: Record<string, unknown>;
  currency?: string;
}

/** Drives the AML API as one tenant would: events, screens, case reads, and the webhooks that arrive. */
export class AmlDriver extends TenantDriver {
  private n = 0;

  body(userId: string, eventType: string, amountCents: number, options: EventOptions = {}) {
    return {
      user_id: userId,
      event_type: eventType,
      transaction_id: options.transaction_id ?? `tx-${++this.n}-${Math.random().toString(36).slice(2, 10)}`,
      amount_cents: amountCents,
      currency: options.currency ?? 'USD',
      payment_method: options.payment_method ?? `card-${userId}`,
      metadata: options.metadata ?? {},
      occurred_at: this.at(options.at ?? 0),
    };
  }

  post(body: object): Promise<LightMyRequestResponse> {
    return this.api('POST', '/v1/aml/event', body);
  }

  /** Sends an event and expects it queued; returns its transaction id. */
  async event(
    userId: string,
    eventType: string,
    amountCents: number,
    options: EventOptions = {},
  ): Promise<string> {
    const body = this.body(userId, eventType, amountCents, options);
    const response = await this.post(body);
    if (response.statusCode !== 202)
      throw new Error(`event refused: ${response.statusCode} ${response.body}`);
    return body.transaction_id;
  }

  screen(body: object): Promise<LightMyRequestResponse> {
    return this.api('POST', '/v1/aml/screen', body);
  }

  screenBody(userId: string, amountCents: number, extra: Record<string, unknown> = {}) {
    return {
      user_id: userId,
      withdrawal_id: `wd-${++this.n}-${Math.random().toString(36).slice(2, 8)}`,
      amount_cents: amountCents,
      currency: 'USD',
      payment_method: 'bank_transfer',
      destination_country: 'CA',
      ...extra,
    };
  }

  async cases(userId: string) {
    const response = await this.api('GET', `/v1/aml/cases?user_id=${encodeURIComponent(userId)}`);
    return response.json<{
      user_id: string;
      open_cases: number;
      cases: {
        case_id: string;
        opened_at: string;
        status: string;
        rules_triggered: string[];
        risk_score: number;
      }[];
    }>();
  }

  /** A staff decision by the service's reviewer, signed in (a case is decided by a person, never the token). */
  decide(caseId: string, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
    return this.t.asStaff('reviewer', 'POST', `/aml/cases/${caseId}/decision`, body);
  }

  /** A supervisor, signed in, approves the case's pending proposal. */
  approve(caseId: string): Promise<LightMyRequestResponse> {
    return this.t.asStaff('supervisor', 'POST', `/aml/cases/${caseId}/proposal/approve`);
  }

  reject(caseId: string, reason = 'not enough to act on yet'): Promise<LightMyRequestResponse> {
    return this.t.asStaff('supervisor', 'POST', `/aml/cases/${caseId}/proposal/reject`, { reason });
  }

  /**
   * A decision that takes effect now: a four-eyes one (freeze, escalate) is proposed by the reviewer, then approved
   * by a supervisor. Returns the response that made the decision, or the one that refused it.
   */
  async decideAndApprove(caseId: string, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
    const response = await this.decide(caseId, body);
    if (response.statusCode !== 200 || !FOUR_EYES_ACTIONS.includes(body.action as DecisionAction))
      return response;
    return this.approve(caseId);
  }

  /** One worker pass (scheduler, AML evaluation, webhook delivery). */
  pass(): Promise<void> {
    return this.t.deliverWebhooks();
  }

  flagged(userId: string): WebhookEnvelope[] {
    return this.received('aml.flagged', userId);
  }

  /** The codes a user's cases hold (all cases). */
  async rulesOf(userId: string): Promise<string[]> {
    return [...new Set((await this.cases(userId)).cases.flatMap((c) => c.rules_triggered))].sort();
  }
}

/**
 * Poisons evaluation through the database, not through a hook in the service: a trigger refuses the findings of
 * users named poison-…, as a broken constraint or a bad deploy would. cureFindings removes it (the fix). No code path
 * of the service knows about it, so the production path cannot reach it.
 */
export async function poisonFindings(db: Executor): Promise<void> {
  await sql`create function aml_test_poison() returns trigger language plpgsql as $$
    begin
      if new.user_id like 'poison-%' then raise exception 'findings refused for %', new.user_id; end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger aml_test_poison before insert on aml_rule_trips
    for each row execute function aml_test_poison()`.execute(db);
}

export async function cureFindings(db: Executor): Promise<void> {
  await sql`drop trigger aml_test_poison on aml_rule_trips`.execute(db);
  await sql`drop function aml_test_poison()`.execute(db);
}
