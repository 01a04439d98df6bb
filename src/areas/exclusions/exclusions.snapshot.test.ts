import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { exclude, regulator, uniqueEmail, uniquePhone, userId } from './test-support.js';

interface Page {
  exclusions: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A fresh service per test: the snapshot is the whole register of an environment, so counts must be exact. */
describe('GET /v1/exclusions/snapshot', () => {
  let t: TestService;
  beforeEach(async () => {
    t = await TestService.start();
  });
  afterEach(() => t.close());

  const page = async (tenant: TestTenant, query: string) => {
    const response = await t.api(tenant.apiKey, 'GET', `/v1/exclusions/snapshot${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<Page>();
  };

  it('walks every active row of the environment over several pages, including rows added mid-walk', async () => {
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const live = await t.createTenant({ environment: 'live' });
    const lapsed = (
      await exclude(t, a, { user_id: userId(), duration: 'duration_24h', email: uniqueEmail() })
    ).json();
    await t.advance(86_400);

    const ownUser = userId();
    const own = [
      (
        await exclude(t, a, { user_id: ownUser, duration: 'duration_permanent', email: uniqueEmail() })
      ).json(),
      (await exclude(t, a, { user_id: userId(), duration: 'duration_7d', phone: uniquePhone() })).json(),
    ];
    const others = [
      (await exclude(t, b, { user_id: 'user-of-b', duration: 'duration_30d', email: uniqueEmail() })).json(),
    ];
    const master = (
      await regulator(t, [
        ...Array.from({ length: 3 }, () => ({
          email: uniqueEmail(),
          duration: 'duration_1y',
          environment: 'sandbox',
        })),
        { email: uniqueEmail(), duration: 'duration_permanent', environment: 'live' },
      ])
    ).json<{ exclusions: { exclusion_id: string }[] }>().exclusions;
    await exclude(t, live, { user_id: userId(), duration: 'duration_7d', email: uniqueEmail() });

    const first = await page(a, '?limit=4');
    expect(first.exclusions).toHaveLength(4);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);

    // Rows registered during the walk sort after the cursor: they appear on a later page, nothing repeats.
    const addedOwn = (
      await exclude(t, a, { user_id: userId(), duration: 'duration_6m', email: uniqueEmail() })
    ).json();
    const addedMaster = (
      await regulator(t, [{ phone: uniquePhone(), duration: 'duration_24h', environment: 'sandbox' }])
    ).json().exclusions[0];

    const rows = [...first.exclusions];
    let cursor = first.next_cursor;
    let pages = 1;
    while (cursor) {
      const next = await page(a, `?limit=4&cursor=${cursor}`);
      rows.push(...next.exclusions);
      cursor = next.next_cursor;
      expect(next.has_more).toBe(cursor !== null);
      pages++;
    }
    expect(pages).toBe(2);
    const ids = rows.map((row) => row.exclusion_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(
      [...own, ...others, ...master.slice(0, 3), addedOwn, addedMaster].map((row) => row.exclusion_id).sort(),
    );
    expect(ids).not.toContain(lapsed.exclusion_id);
    expect(ids).toEqual([...ids].sort());

    const byId = new Map(rows.map((row) => [row.exclusion_id, row]));
    expect(byId.get(own[0].exclusion_id)).toEqual({
      exclusion_id: own[0].exclusion_id,
      user_id: ownUser,
      email: expect.stringMatching(/^player\.[0-9a-f]+@example\.com$/),
      phone: null,
      duration: 'duration_permanent',
      effective_from: own[0].effective_from,
      expires_at: null,
      is_permanent: true,
      source: 'operator',
    });
    expect(byId.get(others[0].exclusion_id)).toMatchObject({
      user_id: null,
      source: 'regulator_comprehensive',
    });
    expect(byId.get(master[0]!.exclusion_id)).toMatchObject({
      user_id: null,
      source: 'regulator_comprehensive',
    });
    expect(JSON.stringify(rows)).not.toContain('user-of-b');

    // The other tenant sees the same register, with the sources the other way round.
    const fromB = await page(b, '?limit=1000');
    expect(fromB.exclusions).toHaveLength(rows.length);
    expect(fromB.exclusions.find((row) => row.exclusion_id === others[0].exclusion_id)).toMatchObject({
      user_id: 'user-of-b',
      source: 'operator',
    });
    expect(fromB.exclusions.find((row) => row.exclusion_id === own[0].exclusion_id)).toMatchObject({
      user_id: null,
      source: 'regulator_comprehensive',
    });
    expect(fromB).toMatchObject({ has_more: false, next_cursor: null });

    // The live tenant sees only live rows.
    expect((await page(live, '')).exclusions.map((row) => row.source).sort()).toEqual([
      'operator',
      'regulator_comprehensive',
    ]);
  });

  it('defaults to 100 rows a page', async () => {
    const tenant = await t.createTenant();
    await regulator(
      t,
      Array.from({ length: 101 }, () => ({
        phone: uniquePhone(),
        duration: 'duration_1y',
        environment: 'sandbox',
      })),
    );
    const first = await page(tenant, '');
    expect(first.exclusions).toHaveLength(100);
    expect(first.has_more).toBe(true);
    const second = await page(tenant, `?cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.exclusions).toHaveLength(1);
  });
});

describe('GET /v1/exclusions/snapshot validation', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await TestService.start();
  });
  afterAll(() => t.close());

  it.each([
    ['limit=0', '?limit=0'],
    ['limit=1001', '?limit=1001'],
    ['a non-numeric limit', '?limit=ten'],
    ['a cursor that is not base64url', '?cursor=not%20a%20cursor!'],
    ['a base64url cursor of something else', `?cursor=${Buffer.from('exc_nothex').toString('base64url')}`],
    ['a raw exclusion id as cursor', '?cursor=exc_0193a0f1c2d4e5f6a7b8c9d0e1f2a3b4'],
  ])('answers %s with 400 invalid_payload', async (_name, query) => {
    const tenant = await t.createTenant();
    const response = await t.api(tenant.apiKey, 'GET', `/v1/exclusions/snapshot${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_payload',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  });

  it('accepts limit 1 and limit 1000', async () => {
    const tenant = await t.createTenant({ environment: 'live' });
    for (const limit of [1, 1000]) {
      const response = await t.api(tenant.apiKey, 'GET', `/v1/exclusions/snapshot?limit=${limit}`);
      expect([response.statusCode, response.json()]).toEqual([
        200,
        { exclusions: [], has_more: false, next_cursor: null },
      ]);
    }
  });
});
