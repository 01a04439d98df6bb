import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE } from '../../platform/data-lifecycle.js';
import { pseudonymOf } from '../../platform/data-lifecycle.store.js';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR } from '../../../test/helpers/units.js';
import { expectRefused } from '../../../test/platform/stored-rows.js';
import { PlayersDriver } from './players.test-support.js';

interface ErasedData {
  table: string;
  action: string;
  kept_until: string | null;
  in_force_until?: string | null;
  records?: number;
}

/** Erasure requests through HTTP on the test clock (docs/data.md): what goes, what is pseudonymised, what stays. */
describe('erasure requests', () => {
  const suite = useSuite(() => PlayersDriver.start(), { perTest: true, eachTest: (h) => h.newUser() });
  const erase = (body: object, userId = suite.current.userId) =>
    suite.current.api('POST', `/v1/players/${encodeURIComponent(userId)}/erasure-requests`, body);
  const email = () => `${suite.current.userId}@example.com`;

  /** A player with a year's kinds of data: an exclusion, a time-out, a screen, limits, deposits, AML events, notes. */
  async function playerWithHistory() {
    const h = suite.current;
    await h.exclude('duration_24h', { email: email() });
    await h.takeTimeOut('duration_24h');
    await h.screenSanctions('Alice');
    await h.setLimit('deposit', 'limit_daily', 500_000);
    await h.commitDeposit(10_000);
    const hold = await h.api('POST', '/v1/limits/check', {
      user_id: h.userId,
      amount_cents: 100,
      currency: 'USD',
    });
    expect(hold.statusCode, hold.body).toBe(200);
    const deposit = await h.api('POST', '/v1/aml/event', {
      user_id: h.userId,
      event_type: 'deposit',
      transaction_id: `big-${h.userId}`,
      amount_cents: 1_500_000,
      currency: 'USD',
      payment_method: 'card',
      metadata: {},
      occurred_at: h.at(-HOUR),
    });
    expect(deposit.statusCode, deposit.body).toBe(202);
    const interaction = await h.api('POST', `/v1/players/${h.userId}/interactions`, {
      kind: 'call',
      outcome: 'no_concern',
      occurred_at: h.now(),
      notes: 'Spoke with Alice Smith about her deposits',
    });
    expect(interaction.statusCode, interaction.body).toBe(201);
  }

  /** The tenant's threshold report of the test clock's first day, compiled at 00:15 the next day. */
  async function thresholdReport() {
    const h = suite.current;
    const listed = await h.t.backoffice(
      'GET',
      `/reports?tenant_id=${h.tenant.tenantId}&report_type=threshold`,
    );
    const [report] = listed.json<{
      reports: { report_id: string; sha256_json: string; row_count: number }[];
    }>().reports;
    const content = await h.t.backoffice('GET', `/reports/${report!.report_id}/content?format=json`);
    return { record: report!, content: content.body };
  }

  it('deletes what the law lets go, pseudonymises what must stay, keeps an exclusion in force matching, and changes no report', async () => {
    const h = suite.current;
    const { db, platform } = h.t;
    const key = platform.secrets.pseudonymKey();
    const pseudonym = pseudonymOf(key, h.tenant.tenantId, h.userId);
    await playerWithHistory();
    await h.t.advance(12 * HOUR + 15 * 60); // 2030-01-02T00:15Z: the first day's reports are compiled
    const before = await thresholdReport();
    expect(before.record.row_count).toBe(1);
    expect(before.content).toContain(h.userId);

    const response = await erase({ erasure_request_id: 'dsr-1', received_at: h.at(-DAY) });
    expect(response.statusCode, response.body).toBe(201);
    const request = response.json<{ status: string; data: ErasedData[]; completed_at: string | null }>();
    // Every kind the service can hold about a player is listed, held or not: the answer tells nothing of what was.
    expect(request.data.map((d) => d.table).sort()).toEqual(
      Object.entries(DATA_LIFECYCLE)
        .filter(([, t]) => t.player)
        .map(([table]) => table)
        .sort(),
    );
    expect(request.data.some((d) => 'records' in d)).toBe(false);
    const of = (table: string) => request.data.find((d) => d.table === table)!;
    expect(of('limit_reservations').action).toBe('deleted');
    expect(of('aml_events')).toMatchObject({ action: 'pseudonymised', kept_until: null });
    expect(of('case_notes').action).toBe('kept');
    // The exclusion is in force (24 hours from 2030-01-01T12:00Z), and so are the time-out and the limit while the
    // account is open: the request waits for them.
    expect(request).toMatchObject({ status: 'in_progress', completed_at: null });
    expect(of('exclusions').in_force_until).toBe('2030-01-02T12:00:00.000Z');
    expect(of('time_outs').in_force_until).toBe('2030-01-02T12:00:00.000Z');
    expect(of('deposit_limits').in_force_until).toBeNull();

    // Stored: no name, date of birth or email of the screen; the AML events and interactions under the pseudonym.
    const screen = await db
      .selectFrom('sanctions_screens')
      .selectAll()
      .where('user_id', '=', pseudonym)
      .executeTakeFirstOrThrow();
    expect(screen.first_name).toMatch(/^hash:[0-9a-f]{32}$/);
    expect([screen.last_name, screen.email]).toEqual([
      expect.stringMatching(/^hash:/),
      expect.stringMatching(/^hash:/),
    ]);
    expect(new Date(screen.date_of_birth).toISOString().slice(0, 10)).toBe('1980-01-01');
    const plain = async (table: string) =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} as t
            where t.tenant_id = ${h.tenant.tenantId} and t.user_id = ${h.userId}`.execute(db)
        ).rows[0]!.n,
      );
    for (const table of [
      'sanctions_screens',
      'aml_events',
      'deposits',
      'sg_interactions',
      'limit_reservations',
      'kyc_users',
    ])
      expect([table, await plain(table)]).toEqual([table, 0]);
    const interaction = await db
      .selectFrom('sg_interactions')
      .select(['user_id', 'notes'])
      .where('user_id', '=', pseudonym)
      .executeTakeFirstOrThrow();
    expect(interaction.notes).toBeNull();
    // The protections in force keep the player's id: the exclusion still matches, by email and for the player.
    expect([await plain('exclusions'), await plain('time_outs'), await plain('deposit_limits')]).toEqual([
      1, 1, 1,
    ]);
    const check = await h.api('GET', `/v1/exclusions/check?email=${encodeURIComponent(email())}`);
    expect(check.json()).toMatchObject({ is_excluded: true });
    expect((await h.status()).can_play).toBe(false);
    // The report is the same record and the same bytes, the player's id in it included (kept 6 years, the spec).
    const after = await thresholdReport();
    expect(after).toEqual(before);
    // The audit names the player by pseudonym; no earlier entry names them in clear.
    const audits = await db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('tenant_id', '=', h.tenant.tenantId)
      .execute();
    expect(audits.find((a) => a.action === 'player.erasure_requested')?.details).toMatchObject({
      user_id: pseudonym,
      erasure_request_id: 'dsr-1',
    });
    expect(JSON.stringify(audits)).not.toContain(h.userId);

    // The exclusion and the time-out end at 12:00; the follow-up finishes with them, and with the limit once the
    // account closes.
    await h.t.advance(12 * HOUR);
    expect((await h.api('GET', `/v1/players/${h.userId}/erasure-requests/dsr-1`)).json()).toMatchObject({
      status: 'in_progress',
    });
    expect((await h.api('POST', `/v1/players/${h.userId}/closed`, { closed_at: h.now() })).statusCode).toBe(
      201,
    );
    await h.t.advance(1);
    const done = (await h.api('GET', `/v1/players/${h.userId}/erasure-requests/dsr-1`)).json<{
      status: string;
      data: ErasedData[];
    }>();
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.data.find((d) => d.table === 'aml_events')!.kept_until).toBe('2035-01-02T12:15:00.000Z');
    expect([
      await plain('exclusions'),
      await plain('time_outs'),
      await plain('deposit_limits'),
      await plain('player_closures'),
    ]).toEqual([0, 0, 0, 0]);
    const exclusion = await db
      .selectFrom('exclusions')
      .selectAll()
      .where('user_id', '=', pseudonym)
      .executeTakeFirstOrThrow();
    expect([exclusion.email, exclusion.email_canonical, exclusion.email_hash, exclusion.reason]).toEqual([
      expect.stringMatching(/^hash:[0-9a-f]{32}$/),
      null,
      null,
      null,
    ]);
    expectRefused(
      await h.t.backoffice('POST', `/tenants/${h.tenant.tenantId}/players/${h.userId}/export`),
      404,
      'player_not_found',
    );
    expect(await thresholdReport()).toEqual(before);
  });

  it('answers the same request again, refuses another body under its id, and an unknown player, in the error shape', async () => {
    const h = suite.current;
    await h.takeTimeOut('duration_24h');
    await h.t.advance(DAY);
    const first = await erase({ erasure_request_id: 'dsr-2' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ user_id: h.userId, status: 'completed', completed_at: h.now() });
    const again = await erase({ erasure_request_id: 'dsr-2' });
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    expectRefused(
      await erase({ erasure_request_id: 'dsr-2', received_at: h.at(-HOUR) }),
      409,
      'duplicate_erasure_request',
    );
    expectRefused(await erase({ erasure_request_id: 'dsr-3' }, 'nobody-here'), 404, 'player_not_found');
    expectRefused(await erase({}), 400, 'invalid_request');
    expectRefused(
      await erase({ erasure_request_id: 'dsr-4', received_at: 'last week' }),
      400,
      'invalid_request',
    );
    // The player erased before may ask again: nothing more to erase, answered all the same.
    expect((await erase({ erasure_request_id: 'dsr-5' })).statusCode).toBe(201);
    const list = await h.api('GET', `/v1/players/${h.userId}/erasure-requests`);
    expect(
      list.json().erasure_requests.map((r: { erasure_request_id: string }) => r.erasure_request_id),
    ).toEqual(['dsr-2', 'dsr-5']);
    expect((await h.api('GET', '/v1/players/someone-else/erasure-requests')).json()).toEqual({
      erasure_requests: [],
    });
    expectRefused(
      await h.api('GET', '/v1/players/someone-else/erasure-requests/dsr-2'),
      404,
      'erasure_request_not_found',
    );
  });

  it('is made by the staff too, who see the records of each kind and who asked', async () => {
    const h = suite.current;
    await h.screenSanctions('Bob');
    const path = `/tenants/${h.tenant.tenantId}/players/${h.userId}/erasure-requests`;
    const made = await h.t.asStaff('admin', 'POST', path, { erasure_request_id: 'ticket-7' });
    expect(made.statusCode, made.body).toBe(201);
    const staffView = made.json<{ requested_by: string; status: string; data: ErasedData[] }>();
    expect(staffView.status).toBe('completed');
    expect(staffView.requested_by).toMatch(/^stf_/);
    expect(staffView.data.find((d) => d.table === 'sanctions_screens')).toMatchObject({
      action: 'pseudonymised',
      records: 1,
    });
    expect((await h.t.asStaff('reviewer', 'POST', path, { erasure_request_id: 'ticket-8' })).statusCode).toBe(
      403,
    );
    const listed = await h.t.backoffice('GET', path);
    expect(listed.json().erasure_requests).toHaveLength(1);
    // The operator sees it too, without the counts.
    const tenantView = await h.api('GET', `/v1/players/${h.userId}/erasure-requests/ticket-7`);
    expect(tenantView.statusCode).toBe(200);
    expect(tenantView.json().data.some((d: ErasedData) => 'records' in d)).toBe(false);
  });
});
