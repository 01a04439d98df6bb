import type { LightMyRequestResponse } from 'fastify';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestService } from '../../../test/helpers/test-service.js';
import type { WebhookEnvelope } from '../../platform/outbox.js';
import type { SanctionsMatcher } from './sanctions.matcher.js';
import { FOUR_EYES_DECISIONS, type Decision } from './sanctions.rules.js';

export type Person = Record<string, string | undefined>;

/** Drives the sanctions API as one tenant would, plus the staff's back office and the webhooks that arrive. */
export class SanctionsDriver extends TenantDriver {
  private n = 0;

  static async start(): Promise<SanctionsDriver> {
    return new SanctionsDriver(...(await TenantDriver.parts()));
  }

  person(overrides: Person = {}): Person {
    return {
      user_id: `user-${++this.n}-${Math.random().toString(36).slice(2, 8)}`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      nationality: 'GB',
      email: 'ada@example.com',
      ...overrides,
    };
  }

  screen(body: object, apiKey = this.tenant.apiKey): Promise<LightMyRequestResponse> {
    return this.t.api(apiKey, 'POST', '/v1/sanctions/screen', body);
  }

  status(userId: string | undefined, apiKey = this.tenant.apiKey): Promise<LightMyRequestResponse> {
    const query = userId === undefined ? '' : `?user_id=${encodeURIComponent(userId)}`;
    return this.t.api(apiKey, 'GET', `/v1/sanctions/status${query}`);
  }

  /** A decision by the service's reviewer, signed in (a case is decided by a person, never the token). */
  decide(
    caseId: string,
    decision: string,
    reason = 'date of birth and nationality differ from the listed entity',
  ): Promise<LightMyRequestResponse> {
    return this.t.asStaff('reviewer', 'POST', `/sanctions/cases/${caseId}/decision`, { decision, reason });
  }

  /** A supervisor, signed in, approves the case's pending proposal. */
  approve(caseId: string): Promise<LightMyRequestResponse> {
    return this.t.asStaff('supervisor', 'POST', `/sanctions/cases/${caseId}/proposal/approve`);
  }

  reject(caseId: string, reason = 'the match needs another look'): Promise<LightMyRequestResponse> {
    return this.t.asStaff('supervisor', 'POST', `/sanctions/cases/${caseId}/proposal/reject`, { reason });
  }

  /**
   * A decision that takes effect now: a four-eyes one (confirmed) is proposed by the reviewer, then approved by a
   * supervisor. Returns the response that made the decision, or the one that refused it.
   */
  async decideAndApprove(caseId: string, decision: string, reason?: string): Promise<LightMyRequestResponse> {
    const response = await this.decide(caseId, decision, reason);
    if (response.statusCode !== 200 || !FOUR_EYES_DECISIONS.includes(decision as Decision)) return response;
    return this.approve(caseId);
  }

  /** Delivers due webhooks, then returns this tenant's, verified with standardwebhooks, of one event and user. */
  async webhooks(event: string, userId: string): Promise<WebhookEnvelope[]> {
    await this.t.deliverWebhooks();
    return this.receiver
      .verified(this.tenant.signingSecret)
      .filter((e) => e.event === event && e.data.user_id === userId);
  }
}

/**
 * Stands in for a new list publication on one service: its sandbox matcher also finds `entity` for users with this
 * last name. Re-screening is only interesting when the lists change, which the deterministic stub never does.
 */
export async function withListEntry<T>(
  t: TestService,
  lastName: string,
  entity: { entity_id: string; name: string; score: number },
  run: () => Promise<T>,
): Promise<T> {
  const matchers = t.platform.vendors.sanctions;
  const stub = matchers.sandbox;
  const published: SanctionsMatcher = {
    kind: 'sandbox',
    async screen(subject) {
      const result = await stub.screen(subject);
      if (subject.last_name !== lastName) return result;
      const matches = [...result.matches, { list: 'SANDBOX', ...entity }];
      return {
        matches,
        list_versions: { SANDBOX: { published_on: 'sandbox-2', format: 'sandbox', files: [] } },
      };
    },
  };
  matchers.sandbox = published;
  try {
    return await run();
  } finally {
    matchers.sandbox = stub;
  }
}
