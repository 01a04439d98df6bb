import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import {
  check,
  regulator,
  show,
  tenantWithHook,
  uniqueEmail,
  uniquePhone,
} from './exclusions.test-support.js';

describe('POST /backoffice/v1/regulator/exclusions', () => {
  const suite = useSuite(() => TenantDriver.start());

  const countRows = async () =>
    Number(
      (
        await suite.current.t.db
          .selectFrom('exclusions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('adds master-list rows that match for every tenant of the environment as regulator_comprehensive', async () => {
    const { t } = suite.current;
    const [{ tenant: a }, { tenant: b }] = [await tenantWithHook(suite), await tenantWithHook(suite)];
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    const response = await regulator(t, [
      { email: ` ${email} `, duration: 'duration_6m', environment: 'sandbox' },
      { phone, duration: 'duration_permanent', environment: 'sandbox' },
    ]);
    expect(response.statusCode).toBe(201);
    const [timed, permanent] = response.json<{ exclusions: { exclusion_id: string; created: boolean }[] }>()
      .exclusions;
    expect(timed).toEqual({ exclusion_id: expect.stringMatching(/^exc_/), created: true });
    for (const tenant of [a, b]) {
      expect((await check(t, tenant, { email })).json()).toMatchObject({
        exclusion_id: timed!.exclusion_id,
        source: 'regulator_comprehensive',
      });
      expect((await check(t, tenant, { phone })).json()).toMatchObject({
        exclusion_id: permanent!.exclusion_id,
        is_permanent: true,
      });
    }
    const row = await t.db
      .selectFrom('exclusions')
      .selectAll()
      .where('exclusion_id', '=', timed!.exclusion_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      origin: 'regulator',
      tenant_id: null,
      user_id: null,
      email: email.toLowerCase(),
      environment: 'sandbox',
    });
    const job = await t.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('subject_id', '=', timed!.exclusion_id)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ kind: 'exclusion.expire', due_at: row.expires_at });
  });

  it('accepts one entry on its own, not wrapped in a batch', async () => {
    const { t } = suite.current;
    const { tenant } = await tenantWithHook(suite, 'live');
    const email = uniqueEmail();
    const response = await t.backoffice('POST', '/regulator/exclusions', {
      email,
      duration: 'duration_7d',
      environment: 'live',
    });
    expect(response.statusCode).toBe(201);
    const [entry] = response.json<{ exclusions: { exclusion_id: string; created: boolean }[] }>().exclusions;
    expect(entry).toEqual({ exclusion_id: expect.stringMatching(/^exc_/), created: true });
    expect((await check(t, tenant, { email })).json()).toMatchObject({
      exclusion_id: entry!.exclusion_id,
      duration: 'duration_7d',
      source: 'regulator_comprehensive',
    });
  });

  it('does not add or announce an entry identical to an active master-list row again', async () => {
    const { t } = suite.current;
    const { tenant } = await tenantWithHook(suite);
    const entries = [
      { email: uniqueEmail(), phone: uniquePhone(), duration: 'duration_1y', environment: 'sandbox' },
      { email: uniqueEmail(), duration: 'duration_24h', environment: 'sandbox' },
    ];
    // The tenant has shown both players' contacts, so it is told of each new master-list row.
    await show(t, tenant, [{ phone: entries[0]!.phone }, { email: entries[1]!.email }]);
    const first = await regulator(t, entries);
    const events = () =>
      t.db
        .selectFrom('events')
        .select('event_id')
        .where('tenant_id', '=', tenant.tenantId)
        .where('event', '=', 'exclusion.regulator_synced')
        .execute();
    expect(await events()).toHaveLength(2);
    const again = await regulator(t, [
      { ...entries[0], email: entries[0]!.email.toUpperCase() },
      entries[1]!,
    ]);
    expect(again.statusCode).toBe(200);
    expect(again.json().exclusions).toEqual(
      first.json().exclusions.map((e: object) => ({ ...e, created: false })),
    );
    expect(await events()).toHaveLength(2);
    // Another duration is another entry.
    const longer = await regulator(t, [{ ...entries[1]!, duration: 'duration_7d' }]);
    expect([longer.statusCode, longer.json().exclusions[0].created]).toEqual([201, true]);
    expect(await events()).toHaveLength(3);
  });

  it('accepts a batch of 1000 entries', async () => {
    const { t } = suite.current;
    const entries = Array.from({ length: 1000 }, (_, i) => ({
      email: `bulk-${i}-${uniqueEmail()}`,
      duration: 'duration_30d',
      environment: 'live',
    }));
    const response = await regulator(t, entries);
    expect(response.statusCode).toBe(201);
    expect(
      new Set(response.json().exclusions.map((e: { exclusion_id: string }) => e.exclusion_id)).size,
    ).toBe(1000);
  });

  it.each([
    ['no entries', []],
    ['one entry with neither email nor phone', { duration: 'duration_7d', environment: 'sandbox' }],
    [
      '1001 entries',
      Array.from({ length: 1001 }, () => ({
        email: 'a@b.com',
        duration: 'duration_7d',
        environment: 'sandbox',
      })),
    ],
    ['an entry with neither email nor phone', [{ duration: 'duration_7d', environment: 'sandbox' }]],
    ['an unknown environment', [{ email: 'a@b.com', duration: 'duration_7d', environment: 'staging' }]],
    ['an unknown duration', [{ email: 'a@b.com', duration: 'forever', environment: 'sandbox' }]],
    [
      'one bad phone among good entries',
      [
        { email: 'good@example.com', duration: 'duration_7d', environment: 'sandbox' },
        { phone: '+1 555', duration: 'duration_7d', environment: 'sandbox' },
      ],
    ],
  ])('answers %s with 400 invalid_payload and writes nothing', async (_name, entries) => {
    const { t } = suite.current;
    const before = await countRows();
    const response = Array.isArray(entries)
      ? await regulator(t, entries)
      : await t.backoffice('POST', '/regulator/exclusions', entries);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_payload');
    expect(await countRows()).toBe(before);
  });

  it('names the failing entry', async () => {
    const { t } = suite.current;
    const response = await regulator(t, [
      { email: 'good@example.com', duration: 'duration_7d', environment: 'sandbox' },
      { phone: '555', duration: 'duration_7d', environment: 'sandbox' },
    ]);
    expect(response.json().message).toContain('entries/1/phone');
  });

  it('is for the staff only: a tenant key or no token is refused', async () => {
    const { t } = suite.current;
    const { tenant } = await tenantWithHook(suite);
    const body = { entries: [{ email: uniqueEmail(), duration: 'duration_7d', environment: 'sandbox' }] };
    const none = await t.inject({
      method: 'POST',
      url: '/backoffice/v1/regulator/exclusions',
      payload: body,
    });
    expect([none.statusCode, none.json().error]).toEqual([401, 'missing_credentials']);
    const withKey = await t.api(tenant.apiKey, 'POST', '/backoffice/v1/regulator/exclusions', body);
    expect([withKey.statusCode, withKey.json().error]).toEqual([401, 'invalid_credentials']);
    expect((await t.api(tenant.apiKey, 'POST', '/v1/regulator/exclusions', body)).statusCode).toBe(404);
  });
});
