import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE, DROPPED_WHOLE, RETENTION_JOB } from '../../src/platform/data-lifecycle.js';
import { RETAINED_TABLES, type RetainedTable } from '../../src/platform/retention.rules.js';
import { duePredicate, tenantOwnedTables } from '../../src/platform/retention.store.js';
import { stillToPseudonymise } from '../../src/platform/data-lifecycle.store.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';
import { DAY } from '../helpers/units.js';
import { expectRefused } from './stored-rows.js';

/** The same instant `years` calendar years later. */
function yearsAfter(at: Date, years: number): Date {
  const later = new Date(at);
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return later;
}

describe('the retention job', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant({});
    const other = await t.createTenant({});
    return { t, tenant: tenant.tenantId, other: other.tenantId };
  });

  /**
   * Moves the service clock to `seconds` after `at` (negative: before), running what falls due on the way, and runs
   * the daily job there: what it keeps or removes at that very second.
   */
  async function runAt(at: Date, seconds: number): Promise<void> {
    const { t } = suite.current;
    const target = at.getTime() + seconds * 1000;
    const before = Math.floor((target - t.platform.clock.now().getTime()) / 1000) - 1;
    expect(before).toBeGreaterThan(0);
    await t.advance(before);
    await t.db
      .updateTable('scheduled_jobs')
      .set({ due_at: new Date(target) })
      .where('kind', '=', RETENTION_JOB)
      .execute();
    await t.advance((target - t.platform.clock.now().getTime()) / 1000);
  }

  const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
    Number((await query.execute(suite.current.t.db)).rows[0]!.n);

  /** A player whose account closed at `at`, with one deposit committed then. */
  async function closedWithDeposit(
    tenantId: string,
    userId: string,
    transactionId: string,
    amountCents: number,
    at: Date,
  ): Promise<void> {
    const { db } = suite.current.t;
    await db
      .insertInto('player_closures')
      .values({ tenant_id: tenantId, user_id: userId, closed_at: at, recorded_at: at, request_hash: 'x' })
      .execute();
    await db
      .insertInto('deposits')
      .values({
        tenant_id: tenantId,
        transaction_id: transactionId,
        user_id: userId,
        amount_cents: amountCents,
        currency: 'USD',
        committed_at: at,
        recorded_at: at,
        request_hash: 'x',
      })
      .execute();
  }

  const setRetention = (tenantId: string, overrides: Record<string, unknown>) =>
    suite.current.t.backoffice('PUT', `/tenants/${tenantId}/retention`, { overrides });

  it('applies every table kept for a time but the partitioned ones, each by a clock its lifecycle names', async () => {
    const { t, tenant } = suite.current;
    const kept = (Object.keys(DATA_LIFECYCLE) as RetainedTable[]).filter(
      (table) => DATA_LIFECYCLE[table].keep !== 'in_use' && !DROPPED_WHOLE.includes(table),
    );
    expect([...RETAINED_TABLES].sort()).toEqual([...kept].sort());
    for (const table of kept) expect(DATA_LIFECYCLE[table].appliedBy, table).toBe(RETENTION_JOB);
    for (const table of DROPPED_WHOLE) expect(DATA_LIFECYCLE[table].appliedBy).not.toBe(RETENTION_JOB);
    // What ends pseudonymised says how.
    for (const table of kept.filter((table) => DATA_LIFECYCLE[table].end === 'pseudonymise'))
      expect(Object.keys(DATA_LIFECYCLE[table].pseudonymise ?? {}), table).not.toEqual([]);
    // Rows due with a parent come before it; the end of the relationship comes last.
    expect(RETAINED_TABLES.at(-1)).toBe('player_closures');
    expect(RETAINED_TABLES.indexOf('regulator_export_rows')).toBeLessThan(
      RETAINED_TABLES.indexOf('regulator_exports'),
    );

    // Each table's due rows are a statement the database runs, with a tenant's override in it.
    const periods = {
      overrides: new Map([[tenant, new Map(kept.map((table) => [table, { years: 9 }] as const))]]),
      deployment: new Map(),
      tenantOwned: await tenantOwnedTables(t.db),
    };
    const key = t.platform.secrets.pseudonymKey();
    for (const table of kept) {
      const due = duePredicate(table, 't', t.platform.clock.now(), periods);
      const pending = stillToPseudonymise(DATA_LIFECYCLE[table].pseudonymise ?? {}, key);
      await expect(
        sql`select count(*)::int as n from ${sql.table(table)} as t where ${due} and ${pending}`.execute(
          t.db,
        ),
        table,
      ).resolves.toBeDefined();
    }
  });

  it('deletes a row kept from its creation the second its period ends, a tenant override moving that end', async () => {
    const { t, tenant, other } = suite.current;
    const created = t.platform.clock.now();
    const sighting = (tenantId: string, hash: string) => ({
      tenant_id: tenantId,
      contact_hash: hash,
      first_seen_at: created,
    });
    await t.db
      .insertInto('contact_sightings')
      .values([sighting(tenant, 'h-override'), sighting(other, 'h-default')])
      .execute();
    const set = await setRetention(tenant, { contact_sightings: { years: 8 } });
    expect(set.statusCode, set.body).toBe(200);

    const sightings = () =>
      t.db
        .selectFrom('contact_sightings')
        .select('contact_hash')
        .where('contact_hash', 'in', ['h-override', 'h-default'])
        .orderBy('contact_hash')
        .execute()
        .then((rows) => rows.map((r) => r.contact_hash));

    await runAt(yearsAfter(created, 6), -1);
    expect(await sightings()).toEqual(['h-default', 'h-override']);
    await runAt(yearsAfter(created, 6), 1);
    expect(await sightings()).toEqual(['h-override']);
    await runAt(yearsAfter(created, 8), -1);
    expect(await sightings()).toEqual(['h-override']);
    await runAt(yearsAfter(created, 8), 1);
    expect(await sightings()).toEqual([]);
    await setRetention(tenant, { contact_sightings: null });
  });

  it('deletes a lapsed hold a day after its expiry, not a second before', async () => {
    const { t, tenant } = suite.current;
    const heldUntil = new Date(t.platform.clock.now().getTime() + 15 * 60_000);
    await t.db
      .insertInto('limit_reservations')
      .values({ tenant_id: tenant, user_id: 'held', holds: '[]', held_until: heldUntil })
      .execute();
    const holds = () => count(sql`select count(*)::int as n from limit_reservations where user_id = 'held'`);

    await runAt(heldUntil, DAY - 1);
    expect(await holds()).toBe(1);
    await runAt(heldUntil, DAY + 1);
    expect(await holds()).toBe(0);
  });

  it("keeps the end of a relationship as long as the longest period counted from it, the tenant's included", async () => {
    const { t, tenant, other } = suite.current;
    const closedAt = t.platform.clock.now();
    for (const tenantId of [tenant, other]) {
      await t.db
        .insertInto('player_closures')
        .values({
          tenant_id: tenantId,
          user_id: 'closed',
          closed_at: closedAt,
          recorded_at: closedAt,
          request_hash: 'x',
        })
        .execute();
    }
    expect((await setRetention(tenant, { sg_interactions: { years: 9 } })).statusCode).toBe(200);
    const closures = () =>
      t.db
        .selectFrom('player_closures')
        .select('tenant_id')
        .where('user_id', '=', 'closed')
        .execute()
        .then((rows) => rows.map((r) => r.tenant_id).sort());

    // Six years: the longest default kept from the relationship's end (the player-protection records).
    await runAt(yearsAfter(closedAt, 6), -1);
    expect(await closures()).toEqual([tenant, other].sort());
    await runAt(yearsAfter(closedAt, 6), 1);
    expect(await closures()).toEqual([tenant]);
    await runAt(yearsAfter(closedAt, 9), -1);
    expect(await closures()).toEqual([tenant]);
    await runAt(yearsAfter(closedAt, 9), 1);
    expect(await closures()).toEqual([]);
    await setRetention(tenant, { sg_interactions: null });
  });

  it("deletes a case's notes five years after the case's closing decision, never while it is open", async () => {
    const { t, tenant } = suite.current;
    const now = t.platform.clock.now();
    const amlCase = (caseId: string, status: string, decidedAt: Date | null) =>
      sql`insert into aml_cases (case_id, tenant_id, user_id, status, source, origin, rules_triggered, risk_score,
          transaction_ids, context, opened_at, updated_at, decided_at, due_at)
        values (${caseId}, ${tenant}, 'case-player', ${status}, 'async', 'async', '[]', 50, '[]', '[]',
          ${now}, ${now}, ${decidedAt}, ${now})`.execute(t.db);
    await amlCase('case-closed', 'cleared', now);
    await amlCase('case-escalated', 'escalated', now);
    await t.db
      .insertInto('case_notes')
      .values(
        ['case-closed', 'case-escalated'].map((id) => ({
          subject: 'aml',
          subject_id: id,
          author: 'staff_x',
          body: `note on ${id}`,
          created_at: now,
        })),
      )
      .execute();
    const notes = () =>
      t.db
        .selectFrom('case_notes')
        .select('subject_id')
        .where('subject_id', 'in', ['case-closed', 'case-escalated'])
        .execute()
        .then((rows) => rows.map((r) => r.subject_id).sort());

    await runAt(yearsAfter(now, 5), -1);
    expect(await notes()).toEqual(['case-closed', 'case-escalated']);
    await runAt(yearsAfter(now, 5), 1);
    expect(await notes()).toEqual(['case-escalated']);
    // The closed case itself is kept, its player's id pseudonymised; the open one is untouched.
    const cases = await t.db
      .selectFrom('aml_cases')
      .select(['case_id', 'user_id', 'risk_score'])
      .where('case_id', 'in', ['case-closed', 'case-escalated'])
      .orderBy('case_id')
      .execute();
    expect(cases).toEqual([
      { case_id: 'case-closed', user_id: expect.stringMatching(/^pseudonym:[0-9a-f]{32}$/), risk_score: 50 },
      { case_id: 'case-escalated', user_id: 'case-player', risk_score: 50 },
    ]);
  });

  it("pseudonymises a player's deposits five years after the relationship ended, not a second before", async () => {
    const { t, tenant } = suite.current;
    const closedAt = t.platform.clock.now();
    await closedWithDeposit(tenant, 'depositor', 'dep-1', 2500, closedAt);
    const deposit = () =>
      t.db
        .selectFrom('deposits')
        .select(['user_id', 'amount_cents'])
        .where('transaction_id', '=', 'dep-1')
        .executeTakeFirstOrThrow();

    await runAt(yearsAfter(closedAt, 5), -1);
    expect(await deposit()).toEqual({ user_id: 'depositor', amount_cents: 2500 });
    await runAt(yearsAfter(closedAt, 5), 1);
    expect(await deposit()).toEqual({
      user_id: expect.stringMatching(/^pseudonym:[0-9a-f]{32}$/),
      amount_cents: 2500,
    });
  });

  it("pseudonymises a closed account's AML events five years after the closure; drops them and their keys ten years after their month", async () => {
    const { t } = suite.current;
    const operator = await t.createTenant({});
    const occurredAt = t.platform.clock.now();
    const sent = await t.api(operator.apiKey, 'POST', '/v1/aml/event', {
      user_id: 'mover',
      event_type: 'deposit',
      transaction_id: 'aml-1',
      amount_cents: 2500,
      currency: 'USD',
      occurred_at: occurredAt.toISOString(),
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const closed = await t.api(operator.apiKey, 'POST', '/v1/players/mover/closed', {
      closed_at: occurredAt.toISOString(),
    });
    expect(closed.statusCode, closed.body).toBe(201);
    const event = () =>
      t.db
        .selectFrom('aml_events')
        .select(['user_id', 'amount_cents', sql<string>`tableoid::regclass::text`.as('partition')])
        .where('tenant_id', '=', operator.tenantId)
        .executeTakeFirst();
    const keys = () =>
      count(sql`select count(*)::int as n from aml_event_keys where tenant_id = ${operator.tenantId}`);
    const stored = await event();
    expect(stored).toMatchObject({ user_id: 'mover', amount_cents: 2500 });
    // Written to the partition of its month (the clock's), not the migrated rows' one.
    expect(stored!.partition).toMatch(/^partitions\.aml_events_\d{8}_\d{8}$/);

    await runAt(yearsAfter(occurredAt, 5), -1);
    expect(await event()).toMatchObject({ user_id: 'mover' });
    await runAt(yearsAfter(occurredAt, 5), 1);
    expect(await event()).toMatchObject({
      user_id: expect.stringMatching(/^pseudonym:[0-9a-f]{32}$/),
      amount_cents: 2500,
    });
    expect(await keys()).toBe(1);

    // The partition goes 10 years after its month ends; its keys with the next run of the retention job.
    const monthEnd = new Date(Date.UTC(occurredAt.getUTCFullYear(), occurredAt.getUTCMonth() + 1, 1));
    await runAt(yearsAfter(monthEnd, 10), -1);
    expect(await event()).toBeDefined();
    expect(await keys()).toBe(1);
    await runAt(yearsAfter(monthEnd, 10), 1);
    expect(await event()).toBeUndefined();
    expect(await keys()).toBe(0);
  });

  it("pseudonymises each tenant's deposits when its own period after the relationship ends runs out", async () => {
    const { t, tenant, other } = suite.current;
    expect((await setRetention(tenant, { deposits: { years: 7 } })).statusCode).toBe(200);
    const closedAt = t.platform.clock.now();
    for (const tenantId of [tenant, other]) {
      await closedWithDeposit(tenantId, 'long-kept', 'dep-long-kept', 100, closedAt);
    }
    const holders = async () =>
      Object.fromEntries(
        (
          await t.db
            .selectFrom('deposits')
            .select(['tenant_id', 'user_id'])
            .where('transaction_id', '=', 'dep-long-kept')
            .execute()
        ).map((row) => [row.tenant_id === tenant ? 'overridden' : 'default', row.user_id]),
      );
    const pseudonym = expect.stringMatching(/^pseudonym:/);

    await runAt(yearsAfter(closedAt, 5), 1);
    expect(await holders()).toEqual({ overridden: 'long-kept', default: pseudonym });
    await runAt(yearsAfter(closedAt, 7), -1);
    expect(await holders()).toEqual({ overridden: 'long-kept', default: pseudonym });
    await runAt(yearsAfter(closedAt, 7), 1);
    expect(await holders()).toEqual({ overridden: pseudonym, default: pseudonym });
    expect((await setRetention(tenant, { deposits: null })).statusCode).toBe(200);
  });

  it("finds the closures past a tenant's period before reading any player's rows", async () => {
    const { t, tenant } = suite.current;
    const periods = {
      overrides: new Map([[tenant, new Map([['deposits', { years: 7 }] as const])]]),
      deployment: new Map(),
      tenantOwned: await tenantOwnedTables(t.db),
    };
    const due = duePredicate('deposits', 't', t.platform.clock.now(), periods);
    const compiled = sql`explain select t.ctid from deposits as t where ${due}`.compile(t.db);
    const plan = (await t.db.executeQuery<Record<string, string>>(compiled)).rows
      .map((row) => Object.values(row).join(' '))
      .join('\n');
    // The override's cutoff is compared on the closures' own scan, not on each deposit the join reads.
    expect(plan).toMatch(/Filter: \(closed_at < CASE tenant_id WHEN/);
    expect(plan).not.toMatch(/c\.closed_at/);
  });

  it('pseudonymises an exclusion six years after it ended, its contacts hashed or erased; one in force is kept whole', async () => {
    const { t, tenant } = suite.current;
    const apiKey = await t.issueKey(tenant, 'standard');
    const exclude = async (user_id: string, email: string, duration: string) => {
      const response = await t.api(apiKey, 'POST', '/v1/exclusions', { user_id, duration, email });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ exclusion_id: string }>().exclusion_id;
    };
    const ending = await exclude('excluded-6m', 'ends@example.com', 'duration_6m');
    const permanent = await exclude('excluded-forever', 'forever@example.com', 'duration_permanent');
    await t.advance(200 * DAY);
    const row = (id: string) =>
      t.db
        .selectFrom('exclusions')
        .select(['status', 'user_id', 'email', 'email_hash', 'expired_at'])
        .where('exclusion_id', '=', id)
        .executeTakeFirstOrThrow();
    const ended = await row(ending);
    expect(ended.status).toBe('expired');

    await runAt(yearsAfter(ended.expired_at!, 6), -1);
    expect(await row(ending)).toMatchObject({ user_id: 'excluded-6m', email: 'ends@example.com' });
    await runAt(yearsAfter(ended.expired_at!, 6), 1);
    expect(await row(ending)).toMatchObject({
      status: 'expired',
      user_id: expect.stringMatching(/^pseudonym:/),
      email: expect.stringMatching(/^hash:[0-9a-f]{32}$/),
      email_hash: null,
    });
    expect(await row(permanent)).toMatchObject({
      status: 'active',
      user_id: 'excluded-forever',
      email: 'forever@example.com',
    });
  });

  it("pseudonymises an alert's player six years after it was raised", async () => {
    const { t, tenant } = suite.current;
    const raisedAt = t.platform.clock.now();
    await t.db
      .insertInto('alerts')
      .values({
        alert_id: 'alert-retained',
        kind: 'test',
        subject: 'a player',
        message: 'about a player',
        details: JSON.stringify({ user_id: 'alerted', tenant_id: tenant }),
        raised_at: raisedAt,
        dedupe_key: null,
      })
      .execute();
    const details = async () =>
      (
        await t.db
          .selectFrom('alerts')
          .select('details')
          .where('alert_id', '=', 'alert-retained')
          .executeTakeFirstOrThrow()
      ).details;

    await runAt(yearsAfter(raisedAt, 6), -1);
    expect(await details()).toEqual({ user_id: 'alerted', tenant_id: tenant });
    await runAt(yearsAfter(raisedAt, 6), 1);
    expect(await details()).toEqual({ user_id: expect.stringMatching(/^pseudonym:/), tenant_id: tenant });
  });
});

describe("a tenant's retention periods in the back office", () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    return { t, tenant: (await t.createTenant({})).tenantId };
  });

  const audited = () =>
    suite.current.t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'retention.overrides_changed')
      .where('tenant_id', '=', suite.current.tenant)
      .execute();

  const stored = () =>
    suite.current.t.db
      .selectFrom('retention_overrides')
      .selectAll()
      .where('tenant_id', '=', suite.current.tenant)
      .execute();

  it('refuses a period beyond its bound, or a table not the tenant’s to change, storing and auditing nothing', async () => {
    const { t, tenant } = suite.current;
    const put = (overrides: Record<string, unknown>) =>
      t.backoffice('PUT', `/tenants/${tenant}/retention`, { overrides });

    const cases: [Record<string, unknown>, string][] = [
      // AML records: at least 5 years, at most 10 (MLR 2017 reg. 40).
      [{ deposits: { years: 4 } }, 'retention_out_of_bounds'],
      [{ deposits: { years: 11 } }, 'retention_out_of_bounds'],
      // The specification's 6 years for reports is a floor.
      [{ reports: { years: 5 } }, 'retention_out_of_bounds'],
      [{ mail_outbox: { days: 91 } }, 'retention_out_of_bounds'],
      [{ mail_outbox: { years: 1 } }, 'retention_out_of_bounds'],
      // One bad period refuses the whole request.
      [{ deposits: { years: 7 }, sg_players: { years: 5 } }, 'retention_out_of_bounds'],
      [{ security_log: { days: 30 } }, 'retention_not_overridable'],
      [{ aml_events: { years: 11 } }, 'retention_out_of_bounds'],
      [{ aml_event_keys: { years: 7 } }, 'retention_not_overridable'],
      [{ audit_log: { years: 7 } }, 'retention_not_overridable'],
      [{ player_closures: { years: 7 } }, 'retention_not_overridable'],
      [{ limit_reservations: { days: 2 } }, 'retention_not_overridable'],
      [{ tenants: { years: 1 } }, 'retention_not_overridable'],
      [{ no_such_table: { years: 1 } }, 'retention_not_overridable'],
    ];
    for (const [overrides, code] of cases) expectRefused(await put(overrides), 400, code);
    expect(await stored()).toEqual([]);
    expect(await audited()).toEqual([]);
  });

  it('sets and clears an override within bounds, audited, and shows what is in force', async () => {
    const { t, tenant } = suite.current;
    const set = await t.backoffice('PUT', `/tenants/${tenant}/retention`, {
      overrides: { deposits: { years: 7 }, mail_outbox: { days: 2 } },
    });
    expect(set.statusCode, set.body).toBe(200);
    const row = (body: { tables: { table: string }[] }, table: string) =>
      body.tables.find((r) => r.table === table);
    expect(row(set.json(), 'deposits')).toMatchObject({
      default: { years: 5 },
      override: { years: 7 },
      in_force: { years: 7 },
      overridable: true,
      shortest: { years: 5 },
      longest: { years: 10 },
    });
    expect(row(set.json(), 'player_closures')).toMatchObject({ in_force: { years: 7 }, overridable: false });
    expect(row(set.json(), 'aml_events')).toMatchObject({ overridable: true, override: null });
    expect(row(set.json(), 'audit_log')).toMatchObject({ overridable: false, override: null });
    expect(await audited()).toEqual([
      {
        details: expect.objectContaining({ overrides: { deposits: { years: 7 }, mail_outbox: { days: 2 } } }),
      },
    ]);

    const cleared = await t.backoffice('PUT', `/tenants/${tenant}/retention`, {
      overrides: { deposits: null },
    });
    expect(cleared.statusCode).toBe(200);
    expect(row(cleared.json(), 'deposits')).toMatchObject({ override: null, in_force: { years: 5 } });
    expect(row(cleared.json(), 'mail_outbox')).toMatchObject({ override: { days: 2 } });
    const read = await t.backoffice('GET', `/tenants/${tenant}/retention`);
    expect(read.json()).toEqual(cleared.json());
    expect(await stored()).toHaveLength(1);
    expect(await audited()).toHaveLength(2);

    expectRefused(await t.backoffice('GET', '/tenants/ten_unknown/retention'), 404, 'tenant_not_found');
  });
});
