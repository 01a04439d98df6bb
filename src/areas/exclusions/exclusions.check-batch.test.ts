import { describe, expect, it, vi } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestTenant } from '../../../test/helpers/test-service.js';
import { DAY } from '../../../test/helpers/units.js';
import {
  check,
  checkBatch,
  exclude,
  formatted,
  regulator,
  sightingsOf,
  uniqueEmail,
  uniquePhone,
  userId,
  type ContactShown,
} from './exclusions.test-support.js';

type Contact = ContactShown & { reference: string };
type Result = Record<string, unknown>;

const NOT_EXCLUDED = { is_excluded: false };

/** A deterministic shuffle (a fixed-seed LCG), so a failure can be replayed. */
function shuffled<T>(items: T[], seed = 7): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('POST /v1/exclusions/check-batch', () => {
  const suite = useSuite(() => TenantDriver.start());

  const setExclusionsBudget = async (tenant: TestTenant, perMinute: number) => {
    const { t } = suite.current;
    const response = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/rate-limits`, {
      exclusions_per_minute: perMinute,
    });
    expect(response.statusCode).toBe(200);
  };

  const freshContacts = (n: number, prefix = 'c'): Contact[] =>
    Array.from({ length: n }, (_, i) => ({ reference: `${prefix}-${i}`, email: uniqueEmail() }));

  it('answers 1,000 mixed contacts, in order with their references, exactly as the live check answers each', async () => {
    const { t } = suite.current;
    const [a, b] = [await t.createTenant(), await t.createTenant()];
    const live = await t.createTenant({ environment: 'live' });
    // a registers and checks far more than the default budget of 100 a minute.
    await setExclusionsBudget(a, 1_000_000);

    // Rows that lapse before the checks: they must not match.
    const lapsed = [uniqueEmail(), uniquePhone()];
    await exclude(t, a, { user_id: userId(), duration: 'duration_24h', email: lapsed[0] });
    await regulator(t, [{ phone: lapsed[1], duration: 'duration_24h', environment: 'sandbox' }]);
    await t.advance(DAY);
    const now = t.platform.clock.now();

    const expected = new Map<string, Result>();
    const contacts: Contact[] = [];
    const ask = (contact: ContactShown, result: Result) => {
      const reference = `ref-${contacts.length}`;
      contacts.push({ reference, ...contact });
      expected.set(reference, { reference, ...result });
    };
    const match = (
      exclusion_id: string,
      duration: string,
      expires_at: string | null,
      source: 'operator' | 'regulator_comprehensive',
    ) => ({
      is_excluded: true,
      exclusion_id,
      duration,
      expires_at,
      is_permanent: expires_at === null,
      source,
    });

    /** Asks about a row's contact in three ways: as registered, written otherwise, and beside an unrelated one. */
    const askAbout = (row: { email?: string; phone?: string }, result: Result) => {
      if (row.email) {
        ask({ email: row.email }, result);
        ask({ email: ` ${row.email.toUpperCase()}` }, result);
        ask({ email: row.email, phone: uniquePhone() }, result);
      } else {
        ask({ phone: row.phone! }, result);
        ask({ phone: formatted(row.phone!) }, result);
        ask({ email: uniqueEmail(), phone: row.phone! }, result);
      }
    };

    // a's own rows, b's rows and the regulator's: by email and by phone, permanent and timed.
    for (let i = 0; i < 12; i++) {
      const contact = i % 2 === 0 ? { email: uniqueEmail() } : { phone: uniquePhone() };
      const duration = i % 3 === 0 ? 'duration_permanent' : 'duration_30d';
      const own = (await exclude(t, a, { user_id: userId(), duration, ...contact })).json();
      expect(own.expires_at).toBe(
        i % 3 === 0 ? null : new Date(now.getTime() + 30 * DAY * 1000).toISOString(),
      );
      askAbout(contact, match(own.exclusion_id, duration, own.expires_at, 'operator'));
    }
    for (let i = 0; i < 12; i++) {
      const contact = i % 2 === 1 ? { email: uniqueEmail() } : { phone: uniquePhone() };
      const duration = i % 4 === 0 ? 'duration_permanent' : 'duration_7d';
      const theirs = (await exclude(t, b, { user_id: userId(), duration, ...contact })).json();
      askAbout(contact, match(theirs.exclusion_id, duration, theirs.expires_at, 'regulator_comprehensive'));
    }
    const masterContacts = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0 ? { email: uniqueEmail() } : { phone: uniquePhone() },
    );
    const masterDuration = (i: number) => (i % 3 === 1 ? 'duration_permanent' : 'duration_24h');
    const master = (
      await regulator(
        t,
        masterContacts.map((contact, i) => ({
          ...contact,
          duration: masterDuration(i),
          environment: 'sandbox',
        })),
      )
    ).json<{ exclusions: { exclusion_id: string }[] }>().exclusions;
    masterContacts.forEach((contact, i) => {
      const expiresAt = i % 3 === 1 ? null : new Date(now.getTime() + DAY * 1000).toISOString();
      askAbout(
        contact,
        match(master[i]!.exclusion_id, masterDuration(i), expiresAt, 'regulator_comprehensive'),
      );
    });

    // Gmail variants of b's rows: dots, case, +tags and googlemail.com are one mailbox.
    for (let i = 0; i < 4; i++) {
      const id = `${userId().slice(5)}x${i}`;
      const theirs = (
        await exclude(t, b, {
          user_id: userId(),
          duration: 'duration_7d',
          email: `Gm.Player.${id}+casino@gmail.com`,
        })
      ).json();
      const result = match(theirs.exclusion_id, 'duration_7d', theirs.expires_at, 'regulator_comprehensive');
      ask({ email: `gmplayer${id}@googlemail.com` }, result);
      ask({ email: `GM.PLAYER.${id}+other@gmail.com` }, result);
      // Dots count everywhere but at gmail: the same name at another domain is another mailbox.
      ask({ email: `gmplayer${id}@example.com` }, NOT_EXCLUDED);
    }

    // Two rows for one player: email timed (a's), phone permanent (the regulator's). The permanent one wins.
    for (let i = 0; i < 4; i++) {
      const [email, phone] = [uniqueEmail(), uniquePhone()];
      await exclude(t, a, { user_id: userId(), duration: 'duration_30d', email });
      const [permanent] = (
        await regulator(t, [{ phone, duration: 'duration_permanent', environment: 'sandbox' }])
      ).json().exclusions;
      ask(
        { email, phone },
        match(permanent.exclusion_id, 'duration_permanent', null, 'regulator_comprehensive'),
      );
    }
    // Equal expiry, a's row and b's: the caller's own row first.
    for (let i = 0; i < 2; i++) {
      const email = uniqueEmail();
      await exclude(t, b, { user_id: userId(), duration: 'duration_30d', email });
      const own = (await exclude(t, a, { user_id: userId(), duration: 'duration_30d', email })).json();
      ask({ email }, match(own.exclusion_id, 'duration_30d', own.expires_at, 'operator'));
    }
    // Not excluded: lapsed rows, a live row (another environment), and contacts nobody registered.
    ask({ email: lapsed[0] }, NOT_EXCLUDED);
    ask({ phone: lapsed[1] }, NOT_EXCLUDED);
    const liveEmail = uniqueEmail();
    await exclude(t, live, { user_id: userId(), duration: 'duration_permanent', email: liveEmail });
    ask({ email: liveEmail }, NOT_EXCLUDED);
    for (let i = 0; contacts.length < 1000; i++) {
      const kind = i % 3;
      ask(
        kind === 0
          ? { email: uniqueEmail() }
          : kind === 1
            ? { phone: uniquePhone() }
            : { email: uniqueEmail(), phone: uniquePhone() },
        NOT_EXCLUDED,
      );
    }
    const excluded = [...expected.values()].filter((result) => result.is_excluded).length;
    expect(excluded).toBe(3 * 36 + 8 + 4 + 2);

    const sent = shuffled(contacts);
    const response = await checkBatch(t, a, { contacts: sent });
    expect(response.statusCode).toBe(200);
    const { results } = response.json<{ results: Result[] }>();
    expect(results.map((result) => result.reference)).toEqual(sent.map((contact) => contact.reference));
    expect(results).toEqual(sent.map((contact) => expected.get(contact.reference)));

    // The live check of each contact, asked many at once as a busy operator would.
    const liveAnswers: Result[] = [];
    for (let start = 0; start < sent.length; start += 100) {
      const chunk = sent.slice(start, start + 100);
      const answers = await Promise.all(
        chunk.map(async ({ reference: _reference, ...contact }) => {
          const answer = await check(t, a, contact);
          expect(answer.statusCode).toBe(200);
          return answer.json<Result>();
        }),
      );
      liveAnswers.push(...answers);
    }
    expect(results).toEqual(liveAnswers.map((answer, i) => ({ reference: sent[i]!.reference, ...answer })));
  }, 120_000);

  it('reads the register in one statement per batch, for 1 contact or 1,000', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const spy = vi.spyOn(t.db.getExecutor(), 'executeQuery');
    try {
      for (const size of [1, 1000]) {
        spy.mockClear();
        const response = await checkBatch(t, tenant, {
          contacts: Array.from({ length: size }, (_, i) => ({
            reference: `r${i}`,
            email: uniqueEmail(),
            phone: uniquePhone(),
          })),
        });
        expect(response.statusCode).toBe(200);
        const registerReads = spy.mock.calls.filter(([query]) => query.sql.includes('from "exclusions"'));
        expect([size, registerReads.length]).toEqual([size, 1]);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('draws on the exclusions bucket as one request per 100 contacts: 1,000 contacts are ten', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    await setExclusionsBudget(tenant, 12);
    expect((await checkBatch(t, tenant, { contacts: freshContacts(1000) })).statusCode).toBe(200);
    expect((await check(t, tenant, { email: uniqueEmail() })).statusCode).toBe(200);
    expect((await check(t, tenant, { email: uniqueEmail() })).statusCode).toBe(200);
    const over = await check(t, tenant, { email: uniqueEmail() });
    expect([over.statusCode, over.json().error]).toEqual([429, 'rate_limited']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts 101 contacts as two requests, and refuses a batch beyond the budget whole, showing nothing', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    await setExclusionsBudget(tenant, 3);
    expect((await checkBatch(t, tenant, { contacts: freshContacts(101) })).statusCode).toBe(200);
    expect(await sightingsOf(t, tenant.tenantId)).toBe(101);
    // 101 + 100: the third request of the minute fits, the fourth does not.
    const refused = await checkBatch(t, tenant, { contacts: freshContacts(101, 'later') });
    expect([refused.statusCode, refused.json().error]).toEqual([429, 'rate_limited']);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await sightingsOf(t, tenant.tenantId)).toBe(101);
    expect((await check(t, tenant, { email: uniqueEmail() })).statusCode).toBe(429);
  });

  it('answers a contact that matches nothing with exactly its reference and is_excluded false', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await checkBatch(t, tenant, {
      contacts: [
        { reference: 'player-1', email: uniqueEmail() },
        { reference: 'player-1', phone: uniquePhone() },
      ],
    });
    expect([response.statusCode, response.json()]).toEqual([
      200,
      {
        results: [
          { reference: 'player-1', is_excluded: false },
          { reference: 'player-1', is_excluded: false },
        ],
      },
    ]);
  });

  it('counts its contacts as shown once it has answered, one sighting per distinct contact', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const [email, phone] = [uniqueEmail(), uniquePhone()];
    const response = await checkBatch(t, tenant, {
      contacts: [
        { reference: 'a', email, phone },
        { reference: 'b', email: email.toUpperCase() },
        { reference: 'c', phone: formatted(phone) },
        { reference: 'd', email: uniqueEmail() },
      ],
    });
    expect(response.statusCode).toBe(200);
    expect(await sightingsOf(t, tenant.tenantId)).toBe(3);
  });

  it.each([
    ['no contacts', { contacts: [] }],
    [
      '1,001 contacts',
      { contacts: Array.from({ length: 1001 }, (_, i) => ({ reference: `r${i}`, email: 'a@b.com' })) },
    ],
    ['a contact with neither email nor phone', { contacts: [{ reference: 'r' }] }],
    ['a contact without a reference', { contacts: [{ email: 'a@b.com' }] }],
    ['an empty reference', { contacts: [{ reference: '', email: 'a@b.com' }] }],
    ['an unknown field on a contact', { contacts: [{ reference: 'r', email: 'a@b.com', user_id: 'u' }] }],
    [
      'an unknown field on the batch',
      { contacts: [{ reference: 'r', email: 'a@b.com' }], since: 'yesterday' },
    ],
    ['no contacts field', {}],
    [
      'a non-boolean include_regulator',
      { contacts: [{ reference: 'r', email: 'a@b.com' }], include_regulator: 'no' },
    ],
  ])('answers %s with 400 invalid_payload and records nothing', async (_name, body) => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await t.api(tenant.apiKey, 'POST', '/v1/exclusions/check-batch', body);
    expect([response.statusCode, response.json()]).toEqual([
      400,
      { error: 'invalid_payload', message: expect.any(String), request_id: expect.any(String) },
    ]);
    expect(await sightingsOf(t, tenant.tenantId)).toBe(0);
  });

  it('names the contact that is not a valid email or phone, and records none of the batch', async () => {
    const { t } = suite.current;
    const tenant = await t.createTenant();
    const response = await checkBatch(t, tenant, {
      contacts: [
        { reference: 'ok', email: uniqueEmail() },
        { reference: 'ok too', phone: uniquePhone() },
        { reference: 'bad', email: 'nobody' },
      ],
    });
    expect([response.statusCode, response.json().error]).toEqual([400, 'invalid_payload']);
    expect(response.json().message).toContain('contacts/2/email');
    expect(await sightingsOf(t, tenant.tenantId)).toBe(0);
  });

  it('allows include_regulator=false to sandbox admin keys only, as the live check does', async () => {
    const { t } = suite.current;
    const sandbox = await t.createTenant();
    const live = await t.createTenant({ environment: 'live' });
    const [sandboxAdmin, liveAdmin] = [
      await t.issueKey(sandbox.tenantId, 'admin'),
      await t.issueKey(live.tenantId, 'admin'),
    ];
    const [ownEmail, masterEmail] = [uniqueEmail(), uniqueEmail()];
    const own = (
      await exclude(t, sandbox, { user_id: userId(), duration: 'duration_7d', email: ownEmail })
    ).json();
    await regulator(t, [{ email: masterEmail, duration: 'duration_permanent', environment: 'sandbox' }]);
    const body = {
      contacts: [
        { reference: 'own', email: ownEmail },
        { reference: 'master', email: masterEmail },
      ],
      include_regulator: false,
    };
    const allowed = await checkBatch(t, sandbox, body, sandboxAdmin);
    expect([allowed.statusCode, allowed.json()]).toEqual([
      200,
      {
        results: [
          {
            reference: 'own',
            is_excluded: true,
            exclusion_id: own.exclusion_id,
            duration: 'duration_7d',
            expires_at: own.expires_at,
            is_permanent: false,
            source: 'operator',
          },
          { reference: 'master', is_excluded: false },
        ],
      },
    ]);
    for (const [tenant, key] of [
      [sandbox, sandbox.apiKey],
      [live, live.apiKey],
      [live, liveAdmin],
    ] as const) {
      const refused = await checkBatch(t, tenant, body, key);
      expect([refused.statusCode, refused.json()]).toEqual([
        403,
        { error: 'forbidden', message: expect.any(String), request_id: expect.any(String) },
      ]);
    }
    expect(await sightingsOf(t, live.tenantId)).toBe(0);
  });

  it('requires a bearer key', async () => {
    const { t } = suite.current;
    const response = await t.inject({
      method: 'POST',
      url: '/v1/exclusions/check-batch',
      payload: { contacts: [{ reference: 'r', email: 'a@b.com' }] },
    });
    expect([response.statusCode, response.json().error]).toEqual([401, 'missing_credentials']);
  });

  it('is documented in the OpenAPI document under the exclusions tag, with how it counts against the budget', async () => {
    const { t } = suite.current;
    const doc = (await t.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { tags?: string[]; description?: string }>>;
    }>();
    const route = doc.paths['/v1/exclusions/check-batch']!.post!;
    expect(route.tags).toEqual(['exclusions']);
    expect(route.description).toMatch(/one request per 100 contacts/);
  });
});
