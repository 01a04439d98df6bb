import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';
import { DAY } from '../helpers/units.js';

describe('security log retention', () => {
  const suite = useSuite(() => TestService.start({ securityLogRetentionDays: 90 }));

  /** A failed authentication no tenant can be named for: one security-log entry. */
  async function failure(): Promise<string> {
    const t = suite.current;
    const response = await t.inject({
      method: 'GET',
      url: '/v1/exclusions/check?email=player@example.com',
      headers: { authorization: 'Bearer not-a-key' },
    });
    expect(response.statusCode).toBe(401);
    return response.json<{ request_id: string }>().request_id;
  }

  const kept = async (requestId: string) =>
    (
      await suite.current.db
        .selectFrom('security_log')
        .select('request_id')
        .where('request_id', '=', requestId)
        .execute()
    ).length === 1;

  it('keeps an entry 90 days on the service clock, then the daily job deletes it', async () => {
    const t = suite.current;
    const first = await failure();
    await t.advance(60 * DAY);
    const second = await failure();
    expect(await kept(first)).toBe(true);

    await t.advance(29 * DAY);
    expect(await kept(first)).toBe(true);

    // Past 90 days, the next daily run deletes the first entry; the second is 31 days old and stays.
    await t.advance(2 * DAY);
    expect(await kept(first)).toBe(false);
    expect(await kept(second)).toBe(true);

    await t.advance(60 * DAY);
    expect(await kept(second)).toBe(false);
  });
});
