import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { mailedSetupPath } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

describe('compliance staff create and list: the token bootstraps two admins, by mail', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    return { t, cli: await cliFor(t) };
  });

  it('creates the first two admins, whose links go to them by mail, then refuses a third', async () => {
    const { t, cli } = suite.current;
    for (const email of ['A.Admin@Compliance.example', 'b.admin@compliance.example']) {
      const created = await cli('staff', 'create', '--email', email, '--role', 'admin');
      expect(created.code, created.stderr).toBe(0);
      const lower = email.toLowerCase();
      expect(created.stdout).toMatch(
        new RegExp(`^stf_\\w+ {2}admin {2}invited {2}${lower.replace('.', '\\.')}`),
      );
      // The CLI prints no link: it went to the invitee, and opens their setup page.
      expect(created.stdout).not.toContain('/console/setup/');
      expect(created.stdout).toContain(`mailed to ${lower}`);
      const setupPage = await t.inject({ method: 'GET', url: await mailedSetupPath(t, lower) });
      expect(setupPage.statusCode).toBe(200);
      expect(setupPage.body).toContain(lower);
    }
    const third = await cli('staff', 'create', '--email', 'c.admin@compliance.example', '--role', 'admin');
    expect(third.code).toBe(1);
    expect(third.stderr).toContain('staff_session_required');

    const listed = await cli('staff', 'list');
    expect(listed.stdout).toMatch(/stf_\w+ {2}admin {2}invited {2}a\.admin@compliance\.example/);
    expect(listed.stdout).not.toContain('c.admin@compliance.example');
  });

  it('refuses any role but admin with exit 2', async () => {
    const { cli } = suite.current;
    const reviewer = await cli('staff', 'create', '--email', 'x@compliance.example', '--role', 'reviewer');
    expect(reviewer.code).toBe(2);
  });
});
