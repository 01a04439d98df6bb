// One test restarts the service on its database (TestService.start on what stop() kept); the rest use the driver.
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { staffOf } from '../../../test/helpers/staff-driver.js';
import { HOUR } from '../../../test/helpers/units.js';
import { sha256 } from '../../platform/digest.js';
import { systemContext } from '../../platform/service-context.js';
import { exclude, regulator, uniquePhone } from '../exclusions/exclusions.test-support.js';
import { exportToRegulator } from './service/exports.js';

interface ExportRecord {
  export_id: string;
  environment: string;
  kind: string;
  export_date: string;
  rerequest_of: string | null;
  row_count: number;
  sha256_csv: string;
  sha256_json: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
}

/**
 * The hand-over of operator-registered exclusions to the regulator. A fresh service per test, with a live tenant: an
 * export holds the rows of every tenant, so counts must be exact. The test clock starts at 2030-01-01T12:00Z; the
 * export runs at 00:10 UTC for the day before.
 */
describe('the daily export to the regulator', () => {
  // The service the test talks to: the driver's, or the one that replaced it after a restart.
  let restarted: TestService | undefined;
  const suite = useSuite(
    async () => {
      restarted = undefined;
      return TenantDriver.start({ environment: 'live' });
    },
    { perTest: true },
  );
  const service = () => restarted ?? suite.current.t;

  const liveExports = async () => {
    const response = await service().backoffice('GET', '/regulator/exports?environment=live');
    expect(response.statusCode).toBe(200);
    return response.json<{ exports: ExportRecord[] }>().exports;
  };
  const rowsOf = async (exportId: string) => {
    const response = await service().backoffice('GET', `/regulator/exports/${exportId}?format=json`);
    expect(response.statusCode).toBe(200);
    return response.json<{ rows: { exclusion_id: string }[] }>().rows.map((r) => r.exclusion_id);
  };
  const register = async (tenant: TestTenant, user: string) => {
    const response = await exclude(service(), tenant, {
      user_id: user,
      duration: 'duration_30d',
      email: `${user}@example.com`,
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ exclusion_id: string; regulator_propagated: boolean }>();
  };

  it('exports each operator row once; on acknowledgement the replay and the snapshot show regulator_propagated true', async () => {
    const { t, tenant } = suite.current;
    const first = await register(tenant, 'player-1');
    expect(first.regulator_propagated).toBe(false);
    await regulator(t, [{ email: 'national@example.com', duration: 'duration_7d', environment: 'live' }]);

    // 2030-01-02T00:10Z: the export of 2030-01-01.
    await t.advance(12 * HOUR + 10 * 60);
    const [daily] = await liveExports();
    expect(daily).toMatchObject({
      kind: 'daily',
      environment: 'live',
      export_date: '2030-01-01',
      row_count: 1,
      acknowledged_at: null,
    });
    // Only operator rows: the regulator's own entries are not sent back to it.
    expect(await rowsOf(daily!.export_id)).toEqual([first.exclusion_id]);

    // The files are exactly what the digests say, and the CSV is RFC 4180 with one header row.
    const csv = await t.backoffice('GET', `/regulator/exports/${daily!.export_id}?format=csv`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(sha256(csv.body)).toBe(daily!.sha256_csv);
    const json = await t.backoffice('GET', `/regulator/exports/${daily!.export_id}?format=json`);
    expect(sha256(json.body)).toBe(daily!.sha256_json);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(
      'exclusion_id,record,environment,tenant_id,user_id,email,phone,duration,is_permanent,effective_from,expires_at,channel,voided_at',
    );
    expect(lines[1]).toBe(
      `${first.exclusion_id},registration,live,${tenant.tenantId},player-1,player-1@example.com,,duration_30d,false,2030-01-01T12:00:00.000Z,2030-01-31T12:00:00.000Z,api,`,
    );
    expect(lines.slice(2)).toEqual(['']);

    // Not yet acknowledged: the tenant's replay still says false.
    const before = await exclude(t, tenant, {
      user_id: 'player-1',
      duration: 'duration_30d',
      email: 'player-1@example.com',
    });
    expect([before.statusCode, before.json().regulator_propagated]).toEqual([200, false]);

    // The regulator's own member of staff acknowledges it, signed in.
    const officer = (await staffOf(t, 'regulator')).member.staffId;
    const ack = await t.asStaff('regulator', 'POST', `/regulator/exports/${daily!.export_id}/ack`, {});
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({
      acknowledged_at: t.platform.clock.now().toISOString(),
      acknowledged_by: officer,
    });
    const replay = await exclude(t, tenant, {
      user_id: 'player-1',
      duration: 'duration_30d',
      email: 'player-1@example.com',
    });
    expect([replay.statusCode, replay.json().regulator_propagated]).toEqual([200, true]);
    const snapshot = await t.api(tenant.apiKey, 'GET', '/v1/exclusions/snapshot');
    const own = snapshot
      .json<{ exclusions: { exclusion_id: string; regulator_propagated: boolean }[] }>()
      .exclusions.find((row) => row.exclusion_id === first.exclusion_id);
    expect(own?.regulator_propagated).toBe(true);

    // A retried acknowledgement answers the same record and audits nothing new.
    const again = await t.backoffice('POST', `/regulator/exports/${daily!.export_id}/ack`, {});
    expect([again.statusCode, again.json().acknowledged_by]).toEqual([200, officer]);
    const audits = await t.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'details'])
      .where('action', '=', 'regulator.export_acknowledged')
      .execute();
    expect(audits).toEqual([
      {
        action: 'regulator.export_acknowledged',
        actor: officer,
        details: { export_id: daily!.export_id, row_count: 1, newly_propagated: 1 },
      },
    ]);

    // The next day's export does not carry the row again.
    await t.advance(24 * HOUR);
    const exports = await liveExports();
    expect(exports.map((e) => [e.export_date, e.row_count])).toEqual([
      ['2030-01-02', 0],
      ['2030-01-01', 1],
    ]);

    // Staff void the row as registered in error: the next export carries it once more, as a void record, and the
    // first export's file is unchanged.
    const voided = await t.asStaff('reviewer', 'POST', `/exclusions/${first.exclusion_id}/void`, {
      reason: 'wrong player',
    });
    expect(voided.statusCode).toBe(200);
    await t.advance(24 * HOUR);
    const [voids] = await liveExports();
    expect(voids).toMatchObject({ export_date: '2030-01-03', row_count: 1 });
    expect(
      (await t.backoffice('GET', `/regulator/exports/${voids!.export_id}?format=json`)).json().rows,
    ).toMatchObject([
      { exclusion_id: first.exclusion_id, record: 'void', voided_at: '2030-01-03T00:10:00.000Z' },
    ]);
    expect((await t.backoffice('GET', `/regulator/exports/${daily!.export_id}?format=csv`)).body).toBe(
      csv.body,
    );
    await t.advance(24 * HOUR);
    expect((await liveExports())[0]).toMatchObject({ export_date: '2030-01-04', row_count: 0 });
  });

  it('catches up a missed day with the next export, and sends rows twice only when re-requested', async () => {
    const { t, tenant: a } = suite.current;
    const { tenant: b } = await suite.current.otherTenant({ environment: 'live' });
    const day1 = await register(a, 'a-1');
    await t.advance(12 * HOUR + 10 * 60); // 2030-01-02T00:10Z: the export of day 1
    const day2 = await register(b, 'b-2');
    // The worker is down on 2030-01-03 at 00:10: nothing runs until the clock reaches the 4th at 06:00.
    await t.platform.testClock!.advance(t.db, 24 * HOUR);
    const day3 = await register(a, 'a-3');
    await t.advance(30 * HOUR - 10 * 60); // 2030-01-04T06:00Z

    const exports = await liveExports();
    expect(exports.map((e) => [e.export_date, e.row_count])).toEqual([
      ['2030-01-03', 2],
      ['2030-01-01', 1],
    ]);
    expect(await rowsOf(exports[0]!.export_id)).toEqual([day2.exclusion_id, day3.exclusion_id].sort());
    expect(await rowsOf(exports[1]!.export_id)).toEqual([day1.exclusion_id]);

    // A re-request sends the same rows again as a new export naming the first, with the reason audited.
    const rerequest = await t.backoffice('POST', `/regulator/exports/${exports[1]!.export_id}/rerequest`, {
      reason: 'the regulator could not open the file',
    });
    expect(rerequest.statusCode).toBe(201);
    expect(rerequest.json()).toMatchObject({
      kind: 'rerequest',
      rerequest_of: exports[1]!.export_id,
      reason: 'the regulator could not open the file',
      requested_by: 'backoffice',
      row_count: 1,
      sha256_csv: expect.any(String),
    });
    const copy = rerequest.json<ExportRecord>();
    expect(await rowsOf(copy.export_id)).toEqual([day1.exclusion_id]);
    // Same rows, same CSV bytes: the CSV names no export.
    expect(copy.sha256_csv).toBe(exports[1]!.sha256_csv);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor', 'details'])
      .where('action', '=', 'regulator.export_rerequested')
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({
      actor: 'backoffice',
      details: {
        export_id: copy.export_id,
        rerequest_of: exports[1]!.export_id,
        reason: 'the regulator could not open the file',
        row_count: 1,
      },
    });
    // The next daily export holds neither the re-requested row nor anything already sent.
    await t.advance(24 * HOUR);
    expect((await liveExports())[0]).toMatchObject({
      kind: 'daily',
      export_date: '2030-01-04',
      row_count: 0,
    });
  });

  it("writes a tenant's user_id that a spreadsheet would compute as text in the CSV, and as given in the JSON", async () => {
    const { t, tenant } = suite.current;
    const phone = uniquePhone();
    const created = await exclude(t, tenant, {
      user_id: '=1+1',
      duration: 'duration_30d',
      email: 'formula@example.com',
      phone,
    });
    expect(created.statusCode).toBe(201);
    await t.advance(12 * HOUR + 10 * 60);
    const [daily] = await liveExports();
    const csv = await t.backoffice('GET', `/regulator/exports/${daily!.export_id}?format=csv`);
    expect(sha256(csv.body)).toBe(daily!.sha256_csv);
    // The single quote makes both cells text; the phone's + would otherwise start a formula too.
    expect(csv.body.split('\r\n')[1]).toBe(
      `${created.json().exclusion_id},registration,live,${tenant.tenantId},'=1+1,formula@example.com,'${phone},duration_30d,false,2030-01-01T12:00:00.000Z,2030-01-31T12:00:00.000Z,api,`,
    );
    const json = await t.backoffice('GET', `/regulator/exports/${daily!.export_id}?format=json`);
    expect(json.json().rows[0]).toMatchObject({ user_id: '=1+1', phone });
  });

  it('survives a restart with its stored due time, and answers bad input with clear 4xx', async () => {
    const { tenant } = suite.current;
    await register(tenant, 'p-restart');
    // The driver closes its stopped service (and drops the database) after the test, once this one has closed.
    const t = suite.own(await TestService.start({}, await suite.current.t.stop()));
    restarted = t;
    await t.advance(12 * HOUR + 10 * 60);
    expect((await liveExports()).map((e) => e.row_count)).toEqual([1]);
    // A second run for the same day (another worker that raced the first, say) makes nothing: one export a day.
    expect(await exportToRegulator(systemContext(t.platform))).toEqual([]);
    expect((await liveExports()).map((e) => e.row_count)).toEqual([1]);

    const missing = await t.backoffice('GET', '/regulator/exports/rex_nothing');
    expect([missing.statusCode, missing.json().error]).toEqual([404, 'export_not_found']);
    const badFormat = await t.backoffice('GET', '/regulator/exports/rex_nothing?format=xml');
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json()).toMatchObject({ error: expect.any(String), request_id: expect.any(String) });
    const noReason = await t.backoffice('POST', '/regulator/exports/rex_nothing/rerequest', {});
    expect(noReason.statusCode).toBe(400);
    const ackMissing = await t.backoffice('POST', '/regulator/exports/rex_nothing/ack', {});
    expect([ackMissing.statusCode, ackMissing.json().error]).toEqual([404, 'export_not_found']);
  });
});
