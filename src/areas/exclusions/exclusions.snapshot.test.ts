import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import { DAY } from '../../../test/helpers/units.js';
import {
  exclude,
  regulator,
  show,
  tenantWithHook,
  uniqueEmail,
  uniquePhone,
  userId,
} from './exclusions.test-support.js';

interface Page {
  exclusions: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Tenants of their own per test: a snapshot holds a tenant's own rows and the rows of others it has shown, so its
 * counts are exact on a service the other tests share.
 */
describe('GET /v1/exclusions/snapshot', () => {
  const suite = useSuite(() => TenantDriver.start());
  const newTenant = async (environment: 'sandbox' | 'live' = 'sandbox') =>
    (await tenantWithHook(suite, environment)).tenant;

  const page = async (tenant: TestTenant, query: string) => {
    const response = await suite.current.t.api(tenant.apiKey, 'GET', `/v1/exclusions/snapshot${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<Page>();
  };

  it("walks the tenant's own rows and the shown rows of others over several pages, including rows added mid-walk", async () => {
    const { t } = suite.current;
    const [a, b] = [await newTenant(), await newTenant()];
    const live = await newTenant('live');
    const lapsed = (
      await exclude(t, a, { user_id: userId(), duration: 'duration_24h', email: uniqueEmail() })
    ).json();
    await t.advance(DAY);

    const ownUser = userId();
    const [ownEmail, ownPhone] = [uniqueEmail(), uniquePhone()];
    const own = [
      (await exclude(t, a, { user_id: ownUser, duration: 'duration_permanent', email: ownEmail })).json(),
      (await exclude(t, a, { user_id: userId(), duration: 'duration_7d', phone: ownPhone })).json(),
    ];
    const [othersEmail, hiddenEmail] = [uniqueEmail(), uniqueEmail()];
    const others = [
      (await exclude(t, b, { user_id: 'user-of-b', duration: 'duration_30d', email: othersEmail })).json(),
    ];
    // A row of b's that a never shows: a never sees it.
    const hiddenOther = (
      await exclude(t, b, { user_id: 'hidden-user-of-b', duration: 'duration_30d', email: hiddenEmail })
    ).json();
    const masterEmails = [uniqueEmail(), uniqueEmail(), uniqueEmail(), uniqueEmail()];
    const liveMasterEmail = uniqueEmail();
    const master = (
      await regulator(t, [
        ...masterEmails.map((email) => ({ email, duration: 'duration_1y', environment: 'sandbox' })),
        { email: liveMasterEmail, duration: 'duration_permanent', environment: 'live' },
      ])
    ).json<{ exclusions: { exclusion_id: string }[] }>().exclusions;
    await exclude(t, live, { user_id: userId(), duration: 'duration_7d', email: uniqueEmail() });
    // a has shown b's first row and three of the four master-list rows (the fourth stays hidden from it).
    await show(t, a, [{ email: othersEmail }, ...masterEmails.slice(0, 3).map((email) => ({ email }))]);

    const first = await page(a, '?limit=4');
    expect(first.exclusions).toHaveLength(4);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);

    // Rows registered during the walk sort after the cursor: they appear on a later page, nothing repeats.
    const addedOwn = (
      await exclude(t, a, { user_id: userId(), duration: 'duration_6m', email: uniqueEmail() })
    ).json();
    const addedPhone = uniquePhone();
    const addedMaster = (
      await regulator(t, [{ phone: addedPhone, duration: 'duration_24h', environment: 'sandbox' }])
    ).json().exclusions[0];
    await show(t, a, [{ phone: addedPhone }]);

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
    expect(ids).not.toContain(hiddenOther.exclusion_id);
    expect(ids).not.toContain(master[3]!.exclusion_id);
    expect(ids).toEqual([...ids].sort());

    const byId = new Map(rows.map((row) => [row.exclusion_id, row]));
    expect(byId.get(own[0].exclusion_id)).toEqual({
      exclusion_id: own[0].exclusion_id,
      user_id: ownUser,
      email: ownEmail.toLowerCase(),
      phone: null,
      duration: 'duration_permanent',
      effective_from: own[0].effective_from,
      expires_at: null,
      is_permanent: true,
      regulator_propagated: false,
      source: 'operator',
    });
    expect(byId.get(own[1].exclusion_id)).toMatchObject({ phone: ownPhone, email: null, source: 'operator' });
    expect(byId.get(others[0].exclusion_id)).toEqual({
      exclusion_id: others[0].exclusion_id,
      user_id: null,
      email: othersEmail.toLowerCase(),
      phone: null,
      duration: 'duration_30d',
      effective_from: others[0].effective_from,
      expires_at: others[0].expires_at,
      is_permanent: false,
      regulator_propagated: false,
      source: 'regulator_comprehensive',
    });
    expect(byId.get(master[0]!.exclusion_id)).toMatchObject({
      user_id: null,
      email: masterEmails[0]!.toLowerCase(),
      source: 'regulator_comprehensive',
    });
    expect(byId.get(addedMaster.exclusion_id)).toMatchObject({
      email: null,
      phone: addedPhone,
      source: 'regulator_comprehensive',
    });
    expect(JSON.stringify(rows)).not.toContain('user-of-b');
    expect(JSON.stringify(rows)).not.toContain(hiddenEmail.toLowerCase());

    // b sees its own rows, and of a's only the one whose email it has shown: the sources the other way round.
    await show(t, b, [{ email: ownEmail }]);
    const fromB = await page(b, '?limit=1000');
    expect(fromB.exclusions.map((row) => row.exclusion_id)).toEqual(
      [own[0], others[0], hiddenOther].map((row) => row.exclusion_id).sort(),
    );
    expect(fromB.exclusions.find((row) => row.exclusion_id === others[0].exclusion_id)).toMatchObject({
      user_id: 'user-of-b',
      source: 'operator',
    });
    expect(fromB.exclusions.find((row) => row.exclusion_id === hiddenOther.exclusion_id)).toMatchObject({
      user_id: 'hidden-user-of-b',
      email: hiddenEmail.toLowerCase(),
      source: 'operator',
    });
    expect(fromB.exclusions.find((row) => row.exclusion_id === own[0].exclusion_id)).toMatchObject({
      user_id: null,
      email: ownEmail.toLowerCase(),
      source: 'regulator_comprehensive',
    });
    expect(fromB).toMatchObject({ has_more: false, next_cursor: null });

    // The live tenant sees only live rows: its own, and the live master-list row once it has shown its email (a
    // sandbox row it shows stays out of its snapshot).
    expect((await page(live, '')).exclusions.map((row) => row.source)).toEqual(['operator']);
    await show(t, live, [{ email: liveMasterEmail }, { email: masterEmails[3]! }]);
    expect((await page(live, '')).exclusions.map((row) => [row.source, row.email])).toEqual([
      ['regulator_comprehensive', liveMasterEmail.toLowerCase()],
      ['operator', expect.any(String)],
    ]);
  });

  it('defaults to 100 rows a page', async () => {
    const { t } = suite.current;
    const tenant = await newTenant();
    const phones = Array.from({ length: 101 }, () => uniquePhone());
    await regulator(
      t,
      phones.map((phone) => ({ phone, duration: 'duration_1y', environment: 'sandbox' })),
    );
    await show(
      t,
      tenant,
      phones.map((phone) => ({ phone })),
    );
    const first = await page(tenant, '');
    expect(first.exclusions).toHaveLength(100);
    expect(first.has_more).toBe(true);
    const second = await page(tenant, `?cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.exclusions).toHaveLength(1);
  });

  it('lists only its own rows to a tenant that has shown nothing', async () => {
    const { t } = suite.current;
    const [quiet, b] = [await newTenant(), await newTenant()];
    await regulator(t, [{ email: uniqueEmail(), duration: 'duration_1y', environment: 'sandbox' }]);
    await exclude(t, b, { user_id: userId(), duration: 'duration_permanent', phone: uniquePhone() });
    expect(await page(quiet, '')).toEqual({ exclusions: [], has_more: false, next_cursor: null });
    const own = (
      await exclude(t, quiet, { user_id: userId(), duration: 'duration_7d', email: uniqueEmail() })
    ).json();
    expect((await page(quiet, '')).exclusions.map((row) => row.exclusion_id)).toEqual([own.exclusion_id]);
  });
});

describe('GET /v1/exclusions/snapshot validation', () => {
  const suite = useSuite(() => TenantDriver.start());

  it.each([
    ['limit=0', '?limit=0'],
    ['limit=1001', '?limit=1001'],
    ['a non-numeric limit', '?limit=ten'],
    ['a cursor that is not base64url', '?cursor=not%20a%20cursor!'],
    ['a base64url cursor of something else', `?cursor=${Buffer.from('exc_nothex').toString('base64url')}`],
    ['a raw exclusion id as cursor', '?cursor=exc_0193a0f1c2d4e5f6a7b8c9d0e1f2a3b4'],
  ])('answers %s with 400 invalid_payload', async (_name, query) => {
    const { t } = suite.current;
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
    const { t } = suite.current;
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
