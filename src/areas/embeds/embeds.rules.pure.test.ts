import { describe, expect, it } from 'vitest';
import { CODE_LIMITS, codeLimitDecision } from './embeds.rules.js';

const now = new Date('2030-01-01T12:00:00Z');
const minutesAgo = (...minutes: number[]) => minutes.map((m) => new Date(now.getTime() - m * 60_000));

describe('the hourly code limits', () => {
  it('refuse the tenant at its limit, with the wait until its oldest code leaves the hour', () => {
    expect(CODE_LIMITS.per_tenant_per_hour).toBe(5);
    expect(
      codeLimitDecision({ tenantRequestedAt: minutesAgo(55, 40, 30, 20, 10), mailedInHour: 5, now }),
    ).toEqual({
      outcome: 'refuse',
      retry_after_seconds: 5 * 60,
    });
    expect(
      codeLimitDecision({ tenantRequestedAt: minutesAgo(40, 30, 20, 10), mailedInHour: 4, now }),
    ).toEqual({
      outcome: 'issue',
      mail: true,
    });
  });

  it('issue the code without its mail once the email has had the ceiling, which is above the tenant limit', () => {
    expect(CODE_LIMITS.service_wide_per_hour).toBeGreaterThan(CODE_LIMITS.per_tenant_per_hour);
    const ceiling = CODE_LIMITS.service_wide_per_hour;
    expect(codeLimitDecision({ tenantRequestedAt: [], mailedInHour: ceiling - 1, now })).toEqual({
      outcome: 'issue',
      mail: true,
    });
    expect(codeLimitDecision({ tenantRequestedAt: minutesAgo(5), mailedInHour: ceiling, now })).toEqual({
      outcome: 'issue',
      mail: false,
    });
  });

  it("tell a tenant of its own limit first: past both, the answer is its 429, never the ceiling's silence", () => {
    const decision = codeLimitDecision({
      tenantRequestedAt: minutesAgo(50, 40, 30, 20, 10),
      mailedInHour: CODE_LIMITS.service_wide_per_hour,
      now,
    });
    expect(decision).toEqual({ outcome: 'refuse', retry_after_seconds: 10 * 60 });
  });
});
