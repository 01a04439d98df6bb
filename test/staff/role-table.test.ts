import { describe, expect, it } from 'vitest';
import {
  anyMemberMay,
  backofficeRouteAction,
  roleMay,
  STAFF_ROLES,
  type StaffRole,
} from '../../src/staff/staff.rules.js';
import { asStaff, createStaffMember, signInAs, type StaffSession } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

const PREFIX = '/backoffice/v1';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Every back-office route, with made-up identifiers in its path: the role check runs before anything is looked up. */
function backofficeRoutes(t: TestService) {
  return t.service.app.routeCatalogue
    .filter((r) => r.url.startsWith(`${PREFIX}/`) && r.method !== 'HEAD')
    .map((r) => ({
      method: r.method as Method,
      route: r.url.slice(PREFIX.length),
      path: r.url
        .slice(PREFIX.length)
        .replace(/:([a-z_]+)/g, (_, name: string) => (name === 'subject' ? 'sanctions' : `no_such_${name}`)),
    }));
}

describe('the role table, cell by cell, through the back-office API with staff sessions', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const sessions = {} as Record<StaffRole, StaffSession>;
    for (const role of STAFF_ROLES) sessions[role] = await signInAs(t, await createStaffMember(t, role));
    return { t, sessions };
  });

  it('names an action for every state-changing back-office route', () => {
    const unlisted = backofficeRoutes(suite.current.t)
      .filter((r) => backofficeRouteAction(r.method, r.route) === undefined)
      .map((r) => `${r.method} ${r.route}`);
    expect(unlisted).toEqual([]);
  });

  for (const role of STAFF_ROLES) {
    it(`lets a ${role} do exactly what the table gives the role`, async () => {
      const { t, sessions } = suite.current;
      const cells: string[] = [];
      for (const { method, route, path } of backofficeRoutes(t)) {
        // The test clock moves only for the service's own tests of it: an admin's advance is left out.
        if (route === '/clock/advance') continue;
        const response = await asStaff(t, sessions[role], method, path, method === 'GET' ? undefined : {});
        const refused =
          response.statusCode === 403 && response.json<{ error: string }>().error === 'forbidden';
        const allowed = anyMemberMay(method, route) || roleMay(role, backofficeRouteAction(method, route)!);
        cells.push(`${method} ${route}: ${refused ? 'refused' : 'allowed'}`);
        expect(refused, `${role} ${method} ${route} → ${response.statusCode} ${response.body}`).toBe(
          !allowed,
        );
      }
      expect(cells.length).toBeGreaterThan(40);
    });
  }

  it('lets the regulator role read the reports and the exports and acknowledge exports, and nothing else', async () => {
    const { t, sessions } = suite.current;
    const allowed = [];
    for (const { method, route, path } of backofficeRoutes(t)) {
      if (route === '/clock/advance') continue;
      const response = await asStaff(t, sessions.regulator, method, path, method === 'GET' ? undefined : {});
      if (response.statusCode !== 403) allowed.push(`${method} ${route}`);
    }
    expect(allowed.sort()).toEqual(
      [
        'GET /session',
        'GET /reports',
        'GET /reports/:report_id',
        'GET /reports/:report_id/content',
        'GET /regulator/exports',
        'GET /regulator/exports/:export_id',
        'POST /regulator/exports/:export_id/ack',
      ].sort(),
    );
  });
});
