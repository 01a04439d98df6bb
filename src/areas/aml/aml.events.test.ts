import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { Workers } from '../../platform/workers.js';
import { BATCH_SIZE, evaluatePending } from './aml.evaluator.js';
import { AmlDriver } from './aml.test-support.js';
import { usd } from '../../../test/helpers/units.js';

describe('POST /v1/aml/event', () => {
  const suite = useSuite(() => AmlDriver.start());

  const queued = (eventId?: string) => {
    const d = suite.current;
    let query = d.t.db.selectFrom('aml_evaluation_queue').select((eb) => eb.fn.countAll<number>().as('n'));
    if (eventId) query = query.where('event_id', '=', eventId);
    return query.executeTakeFirstOrThrow().then((row) => Number(row.n));
  };

  it('stores the event, then answers 202 queued with received_at in milliseconds', async () => {
    const d = suite.current;
    const body = d.body(d.newUser(), 'deposit', usd(25));
    const response = await d.post(body);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({
      event_id: expect.stringMatching(/^amlevt_/),
      transaction_id: body.transaction_id,
      received_at: d.t.platform.clock.now().toISOString(),
      processing: 'queued',
    });
    expect(response.json().received_at).toMatch(/\.\d{3}Z$/);
    const stored = await d.t.db
      .selectFrom('aml_events')
      .selectAll()
      .where('transaction_id', '=', body.transaction_id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      amount_cents: usd(25),
      usd_cents: usd(25),
      // payment_method is a kind of instrument, never a fingerprint.
      fingerprint: null,
      status: 'succeeded',
    });
    expect(await queued(response.json().event_id)).toBe(1);
  });

  it('stores text and metadata exactly, whatever characters they hold, from events sent together', async () => {
    const d = suite.current;
    // Concurrent events share one multi-row insert whose columns travel as arrays: quoting must not leak.
    const awkward = ['a,b', '{brace}', 'quote " and \\ backslash', 'NULL', 'ünïcødé ✓', 'tab\there'];
    const bodies = awkward.map((text, i) =>
      d.body(d.newUser(), 'deposit', usd(10 + i), {
        payment_method: `pm ${text}`,
        metadata: { session_id: text, nested: { list: [text, null, 1.5] } },
      }),
    );
    const responses = await Promise.all(bodies.map((body) => d.post(body)));
    expect(responses.map((r) => r.statusCode)).toEqual(bodies.map(() => 202));
    for (const body of bodies) {
      const stored = await d.t.db
        .selectFrom('aml_events')
        .select(['payment_method', 'metadata', 'amount_cents'])
        .where('transaction_id', '=', body.transaction_id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({
        payment_method: body.payment_method,
        metadata: body.metadata,
        amount_cents: body.amount_cents,
      });
    }
  });

  it('answers the identical event again with 202 duplicate_already_queued and does not evaluate it again', async () => {
    const d = suite.current;
    const body = d.body(d.newUser(), 'deposit', usd(25), {
      metadata: { session_id: 's1', ip_country: 'GB' },
    });
    const first = (await d.post(body)).json();
    await d.pass();
    expect(await queued()).toBe(0);

    await d.t.advance(60);
    // Key order of metadata and a different (equivalent) timestamp spelling do not make a different event.
    const again = await d.post({
      ...body,
      metadata: { ip_country: 'GB', session_id: 's1' },
      occurred_at: body.occurred_at.replace('Z', '+00:00'),
    });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ ...first, processing: 'duplicate_already_queued' });
    expect(await queued()).toBe(0);
    expect(await evaluatePending(d.t.platform)).toBe(0);
  });

  it('answers a different event under the same transaction_id with 409 duplicate_event', async () => {
    const d = suite.current;
    const body = d.body(d.newUser(), 'deposit', usd(25));
    await d.post(body);
    const response = await d.post({ ...body, amount_cents: usd(26) });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'duplicate_event',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  });

  it('keeps transaction ids per tenant', async () => {
    const d = suite.current;
    const other = await d.otherTenant();
    try {
      const body = d.body(d.newUser(), 'deposit', usd(25));
      expect((await d.post(body)).json().processing).toBe('queued');
      expect((await other.post(body)).json().processing).toBe('queued');
    } finally {
      await other.receiver.close();
    }
  });

  it.each([
    ['an unknown event_type', { event_type: 'bonus' }],
    ['a negative amount', { amount_cents: -1 }],
    ['a fractional amount', { amount_cents: 10.5 }],
    ['an amount as text', { amount_cents: '100' }],
    ['a zero deposit', { amount_cents: 0 }],
    ['a bad currency', { currency: 'usd' }],
    ['a bad occurred_at', { occurred_at: 'yesterday' }],
    ['a missing user_id', { user_id: undefined }],
    ['metadata that is not an object', { metadata: 'GB' }],
    ['a bad ip_country', { metadata: { ip_country: 'GBR' } }],
    ['an unknown field', { channel: 'web' }],
  ])('answers 400 invalid_event for %s', async (_case, change) => {
    const d = suite.current;
    const response = await d.post({ ...d.body(d.newUser(), 'deposit', usd(25)), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_event');
  });

  it('accepts a login or account update with amount 0 and without a payment method', async () => {
    const d = suite.current;
    const login = { ...d.body(d.newUser(), 'login', 0), payment_method: undefined };
    expect((await d.post(login)).statusCode).toBe(202);
    expect((await d.post(d.body(d.newUser(), 'account_update', 0))).statusCode).toBe(202);
  });

  it('converts other currencies to USD with the FX table, and refuses a currency without a rate', async () => {
    const d = suite.current;
    const rate = await d.t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.1 });
    expect(rate.statusCode).toBe(200);
    const audit = await d.t.backoffice('GET', '/audit-log?action=fx.rate_set&limit=1');
    expect(audit.json().entries[0]).toMatchObject({
      actor: 'backoffice',
      request_id: expect.stringMatching(/^req_/),
      details: { currency: 'EUR', usd_per_unit: 1.1 },
    });
    const body = d.body(d.newUser(), 'deposit', 1_000_00, { currency: 'EUR' });
    expect((await d.post(body)).statusCode).toBe(202);
    const stored = await d.t.db
      .selectFrom('aml_events')
      .select('usd_cents')
      .where('transaction_id', '=', body.transaction_id)
      .executeTakeFirstOrThrow();
    expect(stored.usd_cents).toBe(1_100_00);

    const unknown = await d.post(d.body(d.newUser(), 'deposit', 1_000_00, { currency: 'XTS' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('invalid_event');
    // A refusal is not remembered: once the staff add the rate, the currency is accepted.
    await d.t.backoffice('PUT', '/fx-rates/XTS', { usd_per_unit: 2 });
    const added = d.body(d.newUser(), 'deposit', 1_000_00, { currency: 'XTS' });
    expect((await d.post(added)).statusCode).toBe(202);
  });

  it("converts at the rate current when the event is stored, in the currency's own minor unit", async () => {
    const d = suite.current;
    const storedUsd = async (transactionId: string) =>
      (
        await d.t.db
          .selectFrom('aml_events')
          .select('usd_cents')
          .where('transaction_id', '=', transactionId)
          .executeTakeFirstOrThrow()
      ).usd_cents;
    await d.t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.1 });
    const before = d.body(d.newUser(), 'deposit', 1_000_00, { currency: 'EUR' });
    expect((await d.post(before)).statusCode).toBe(202);
    await d.t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.25 });
    const after = d.body(d.newUser(), 'deposit', 1_000_00, { currency: 'EUR' });
    expect((await d.post(after)).statusCode).toBe(202);
    // The yen has no minor unit: 150,000 yen at 0.0067 is 1,005 dollars.
    await d.t.backoffice('PUT', '/fx-rates/JPY', { usd_per_unit: 0.0067 });
    const yen = d.body(d.newUser(), 'deposit', 150_000, { currency: 'JPY' });
    expect((await d.post(yen)).statusCode).toBe(202);
    // A login carries no amount, so its currency needs no rate.
    const login = { ...d.body(d.newUser(), 'login', 0, { currency: 'XTS' }), payment_method: undefined };
    expect((await d.post(login)).statusCode).toBe(202);

    expect(await storedUsd(before.transaction_id)).toBe(1_100_00);
    expect(await storedUsd(after.transaction_id)).toBe(1_250_00);
    expect(await storedUsd(yen.transaction_id)).toBe(1_005_00);
    expect(await storedUsd(login.transaction_id)).toBe(0);
  });

  it('answers 503 queue_unavailable when the event cannot be stored', async () => {
    const d = suite.current;
    await sql`alter table aml_events rename to aml_events_offline`.execute(d.t.db);
    try {
      const response = await d.post(d.body(d.newUser(), 'deposit', usd(25)));
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toBe('queue_unavailable');
    } finally {
      await sql`alter table aml_events_offline rename to aml_events`.execute(d.t.db);
    }
  });

  it('draws on the aml_event rate-limit bucket, not the default one', async () => {
    const d = suite.current;
    const other = await d.otherTenant();
    try {
      const limits = await d.t.backoffice('PUT', `/tenants/${other.tenant.tenantId}/rate-limits`, {
        aml_event_per_minute: 3,
        default_per_minute: 2,
      });
      expect(limits.statusCode).toBe(200);
      const user = other.newUser();
      for (let i = 0; i < 3; i++)
        expect((await other.post(other.body(user, 'deposit', usd(5)))).statusCode).toBe(202);
      const limited = await other.post(other.body(user, 'deposit', usd(5)));
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // The default bucket (the other AML endpoints) kept its own budget of 2.
      const cases = () => other.t.api(other.tenant.apiKey, 'GET', `/v1/aml/cases?user_id=${user}`);
      expect([(await cases()).statusCode, (await cases()).statusCode, (await cases()).statusCode]).toEqual([
        200, 200, 429,
      ]);
    } finally {
      await other.receiver.close();
    }
  });

  it('acknowledges a burst of concurrent events, duplicates included, each exactly as if sent alone', async () => {
    const d = suite.current;
    const user = d.newUser();
    const bodies = Array.from({ length: 40 }, (_, i) => d.body(user, 'wager', usd(1 + i)));
    // The same transaction twice in one burst, and a different payload under a third's transaction_id.
    const repeated = bodies[3]!;
    const conflicting = { ...bodies[7]!, amount_cents: bodies[7]!.amount_cents + 1 };
    const responses = await Promise.all([...bodies, repeated, conflicting].map((body) => d.post(body)));
    const answers = responses.map((r) => [r.statusCode, r.json().processing ?? r.json().error]);
    expect(answers.filter(([, p]) => p === 'queued')).toHaveLength(40);
    expect(answers.filter(([, p]) => p === 'duplicate_already_queued')).toHaveLength(1);
    expect(answers.filter(([status, p]) => status === 409 && p === 'duplicate_event')).toHaveLength(1);
    const stored = await d.t.db
      .selectFrom('aml_events')
      .select(['transaction_id', 'amount_cents'])
      .where('user_id', '=', user)
      .execute();
    expect(stored).toHaveLength(40);
    // Sent at once, either of the two payloads under one transaction_id may arrive first: the one stored is the
    // one acknowledged as queued, and the other is the 409.
    const sameId = [
      { body: bodies[7]!, answer: answers[7]! },
      { body: conflicting, answer: answers[41]! },
    ];
    const acknowledged = sameId.filter(({ answer }) => answer[1] === 'queued');
    expect(acknowledged).toHaveLength(1);
    expect(sameId.filter(({ answer }) => answer[0] === 409)).toHaveLength(1);
    expect(stored.find((row) => row.transaction_id === bodies[7]!.transaction_id)!.amount_cents).toBe(
      acknowledged[0]!.body.amount_cents,
    );
  });

  it('flags within one worker pass of the event', async () => {
    const d = suite.current;
    const user = d.newUser();
    for (let i = 0; i < 5; i++) await d.event(user, 'deposit', usd(30), { at: -i * 60 });
    expect(d.flagged(user)).toEqual([]);
    await d.pass();
    expect(d.flagged(user)).toHaveLength(1);
  });

  it("evaluates events of several users and kinds queued together, each against its own user's history", async () => {
    const d = suite.current;
    // One pass reads a whole batch of events at once (on PostgreSQL): each event must still see only its own
    // user's window, and the pattern must be found on the event that completes it.
    const [fast, slow, wagers] = [d.newUser(), d.newUser(), d.newUser()];
    const session = { session_id: 'shared-session', ip_country: 'CA' };
    for (let i = 4; i >= 0; i--) {
      await d.event(fast, 'deposit', usd(40), { at: -i * 60, metadata: session });
      if (i > 0) await d.event(slow, 'deposit', usd(40), { at: -i * 60, metadata: session });
      await d.event(wagers, 'wager', usd(25), { at: -i * 60 });
      await d.event(slow, 'login', 0, { at: -i * 60, metadata: session });
    }
    await d.pass();
    expect(await d.rulesOf(fast)).toEqual(['R-002']);
    expect(d.flagged(fast)).toHaveLength(1);
    expect(await d.rulesOf(slow)).toEqual([]);
    expect(await d.rulesOf(wagers)).toEqual([]);
  });

  it('evaluates a queue longer than one batch in one worker pass', async () => {
    const d = suite.current;
    const users = [d.newUser(), d.newUser(), d.newUser()];
    const events = BATCH_SIZE * 2 + 50;
    await Promise.all(
      Array.from({ length: events }, (_, i) => d.event(users[i % 3]!, 'wager', usd(5), { at: -i })),
    );
    await d.pass();
    expect(await queued()).toBe(0);
  });

  it('vacuums the evaluation queue after every so many events taken off it', async () => {
    const d = suite.current;
    // The vacuum count only: dead-row counts reach the statistics whenever a backend flushes them, possibly after
    // the vacuum that removed those rows.
    const vacuums = async () => {
      const { rows } = await sql<{ vacuum_count: string }>`
        select vacuum_count from pg_stat_user_tables where relname = 'aml_evaluation_queue'`.execute(d.t.db);
      return Number(rows[0]!.vacuum_count);
    };
    await d.pass();
    const workers = new Workers(d.t.platform, 250, 5);
    const before = await vacuums();
    const user = d.newUser();
    for (let i = 0; i < 4; i++) await d.event(user, 'wager', usd(5), { at: -i });
    await workers.tick();
    expect(await queued()).toBe(0);
    expect(await vacuums()).toBe(before);

    for (let i = 4; i < 6; i++) await d.event(user, 'wager', usd(5), { at: -i });
    await workers.tick();
    expect(await queued()).toBe(0);
    expect(await vacuums()).toBe(before + 1);
  });

  it('evaluates each event exactly once when several workers poll at the same time', async () => {
    const d = suite.current;
    const user = d.newUser();
    for (let i = 0; i < 6; i++) await d.event(user, 'deposit', usd(30), { at: -i * 60 });
    // Each worker drains until the queue is empty (a batch is one event on PGlite, up to 200 on PostgreSQL).
    const drain = async () => {
      let total = 0;
      for (let n; (n = await evaluatePending(d.t.platform)) > 0;) total += n;
      return total;
    };
    const counts = await Promise.all([drain(), drain(), drain()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(6);
    await d.pass();
    expect(d.flagged(user)).toHaveLength(1);
    expect((await d.cases(user)).cases).toHaveLength(1);
  });

  it('skips an event that cannot be evaluated instead of stalling the queue', async () => {
    const d = suite.current;
    // A row no API request can produce (written straight to the table): its time cannot be read back.
    await sql`insert into aml_events (event_id, tenant_id, user_id, event_type, transaction_id, amount_cents, currency,
        usd_cents, metadata, occurred_at, received_at, request_hash)
      values ('amlevt_poison', ${d.tenant.tenantId}, 'poison', 'deposit', 'poison-1', 100, 'USD', 100, '{}',
        '-infinity', ${new Date(0).toISOString()}::timestamptz, 'x')`.execute(d.t.db);
    await sql`insert into aml_evaluation_queue (event_id, received_at, occurred_at)
      values ('amlevt_poison', ${new Date(0).toISOString()}::timestamptz, '-infinity')`.execute(d.t.db);
    const user = d.newUser();
    for (let i = 0; i < 5; i++) await d.event(user, 'deposit', usd(30), { at: -i * 60 });
    await d.pass();
    expect(d.flagged(user)).toHaveLength(1);
    expect(await queued()).toBe(0);
  });
});
