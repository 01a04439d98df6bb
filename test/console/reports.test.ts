import { describe, expect, it } from 'vitest';
import { createStaffMember, postForm, signInAs, type StaffSession } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TenantDriver } from '../helpers/tenant-driver.js';
import { HOUR } from '../helpers/units.js';

/** The reports and the regulator's exports in the console, for staff and for the regulator role. */
const suite = useSuite(async (own) => {
  const { t, tenant } = own(await TenantDriver.start({ environment: 'live' }));
  const excluded = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
    user_id: 'console-player',
    duration: 'duration_30d',
    email: 'console-player@example.com',
  });
  expect(excluded.statusCode).toBe(201);
  // To 2030-01-02T00:15Z, when the 1st's reports and export exist; sessions are signed in after (they idle out).
  await t.advance(12 * HOUR + 15 * 60);
  const regulator = await signInAs(t, await createStaffMember(t, 'regulator'));
  const auditor = await signInAs(t, await createStaffMember(t, 'auditor'));
  return { t, tenant, regulator, auditor };
});

const get = (session: StaffSession, url: string) =>
  suite.current.t.inject({ method: 'GET', url, headers: { cookie: `console_session=${session.cookie}` } });

describe('the reports pages', () => {
  it('lands the regulator on the reports, with a nav of reports and exports only, and nothing else open to it', async () => {
    const { regulator } = suite.current;
    const home = await get(regulator, '/console');
    expect([home.statusCode, home.headers.location]).toEqual([303, '/console/reports']);
    const reports = await get(regulator, '/console/reports');
    expect(reports.statusCode).toBe(200);
    const nav = /<nav aria-label="Console">([\s\S]*?)<\/nav>/.exec(reports.body)![1]!;
    expect([...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '/console/reports',
      '/console/regulator/exports',
    ]);
    for (const url of ['/console/tenants', '/console/queues/aml', '/console/audit', '/console/regulator']) {
      expect((await get(regulator, url)).statusCode, url).toBe(403);
    }
  });

  it('lists versions with a server-drawn chart of daily counts, and serves the files as stored', async () => {
    const { t, tenant, auditor } = suite.current;
    const list = await get(auditor, `/console/reports?tenant=${tenant.tenantId}&type=self_limitation`);
    expect(list.statusCode).toBe(200);
    // An SVG image with a name and a description, no script and no inline style.
    expect(list.body).toMatch(/<svg\s+role="img"\s+aria-labelledby="daily-rows-title daily-rows-desc"/);
    expect(list.body).toContain('<title>2030-01-01: 1</title>');
    expect(list.body).not.toMatch(/style="/);
    const reportId = /href="\/console\/reports\/(rpt_[0-9a-f]+)"/.exec(list.body)![1]!;

    const detail = await get(auditor, `/console/reports/${reportId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('1: original');
    const fromConsole = await get(auditor, `/console/reports/${reportId}/content?format=csv`);
    const fromApi = await t.backoffice('GET', `/reports/${reportId}/content?format=csv`);
    expect(fromConsole.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(fromConsole.body).toBe(fromApi.body);
    expect((await get(auditor, '/console/reports/rpt_nothing')).statusCode).toBe(404);
  });
});

describe('the regulator exports page', () => {
  it('lets the regulator acknowledge an export, and shows an auditor no button', async () => {
    const { t, tenant, regulator, auditor } = suite.current;
    const asAuditor = await get(auditor, '/console/regulator/exports');
    expect(asAuditor.statusCode).toBe(200);
    expect(asAuditor.body).not.toMatch(/action="[^"]*\/ack"/);
    const page = await get(regulator, '/console/regulator/exports');
    const live = /<tr>\s*<td><code>(rex_[0-9a-f]+)<\/code><\/td>\s*<td>live<\/td>/.exec(page.body)![1]!;
    const acknowledged = await postForm(t, regulator, `/console/regulator/exports/${live}/ack`, {});
    expect(acknowledged.statusCode).toBe(303);
    const after = await get(regulator, acknowledged.headers.location as string);
    expect(after.body).toContain(
      `Export ${live} acknowledged: 1 exclusion is now propagated to the regulator`,
    );
    const refused = await postForm(t, auditor, `/console/regulator/exports/${live}/ack`, {});
    expect(refused.statusCode).toBe(403);
    const replay = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: 'console-player',
      duration: 'duration_30d',
      email: 'console-player@example.com',
    });
    expect(replay.json().regulator_propagated).toBe(true);
  });
});
