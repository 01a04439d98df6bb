import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

describe('compliance staff create, list, setup-link and disable', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    return { t, cli: await cliFor(t) };
  });

  it('creates a reviewer with a one-time setup link that opens the setup page, and disables them', async () => {
    const { t, cli } = suite.current;
    const created = await cli(
      'staff',
      'create',
      '--email',
      'R.Jones@Compliance.example',
      '--role',
      'reviewer',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(
      /^stf_\w+ {2}reviewer {2}invited {2}r\.jones@compliance\.example {2}\(R\.Jones\)/,
    );
    const link = /(http:\/\/\S+\/console\/setup\/\S+)/.exec(created.stdout)![1]!;
    const staffId = created.stdout.split(/\s+/)[0]!;
    const setupPage = await t.inject({ method: 'GET', url: new URL(link).pathname });
    expect(setupPage.statusCode).toBe(200);
    expect(setupPage.body).toContain('r.jones@compliance.example');

    const again = await cli('staff', 'setup-link', staffId);
    expect(again.code, again.stderr).toBe(0);
    // A new link replaces the old one.
    expect((await t.inject({ method: 'GET', url: new URL(link).pathname })).statusCode).toBe(404);

    const listed = await cli('staff', 'list');
    expect(listed.stdout).toContain(`${staffId}  reviewer  invited  r.jones@compliance.example`);
    const disabled = await cli('staff', 'disable', staffId);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toMatch(new RegExp(`^${staffId} {2}reviewer {2}disabled`));
  });

  it('refuses an unknown role with exit 2 and a duplicate email with exit 1', async () => {
    const { cli } = suite.current;
    const badRole = await cli('staff', 'create', '--email', 'x@compliance.example', '--role', 'owner');
    expect(badRole.code).toBe(2);
    expect(
      (await cli('staff', 'create', '--email', 'dup@compliance.example', '--role', 'auditor')).code,
    ).toBe(0);
    const duplicate = await cli('staff', 'create', '--email', 'dup@compliance.example', '--role', 'auditor');
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('staff_email_taken');
  });
});
