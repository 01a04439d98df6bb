import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

describe('compliance retention (the built CLI)', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant({ environment: 'sandbox' });
    return { t, tenantId: tenant.tenantId, cli: await cliFor(t) };
  });

  const audited = () =>
    suite.current.t.db
      .selectFrom('audit_log')
      .select('actor')
      .where('action', '=', 'retention.overrides_changed')
      .where('tenant_id', '=', suite.current.tenantId)
      .execute();

  it("sets a tenant's period within its bounds (audited), refuses one beyond them, and shows what is in force", async () => {
    const { t, tenantId, cli } = suite.current;
    const beyond = await cli('retention', 'set', tenantId, '--table', 'deposits', '--keep', '11y');
    expect(beyond.code).toBe(1);
    expect(beyond.stderr).toContain('retention_out_of_bounds');
    const fixed = await cli('retention', 'set', tenantId, '--table', 'security_log', '--keep', '30d');
    expect(fixed.code).toBe(1);
    expect(fixed.stderr).toContain('retention_not_overridable');
    const typo = await cli('retention', 'set', tenantId, '--table', 'deposits', '--keep', 'seven');
    expect(typo.code).toBe(2);
    expect(await t.db.selectFrom('retention_overrides').selectAll().execute()).toEqual([]);
    expect(await audited()).toEqual([]);

    const set = await cli('retention', 'set', tenantId, '--table', 'deposits', '--keep', '7y');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/deposits\s+in force 7y\s+default 5y\s+bounds 5y\.\.10y/);
    expect(await audited()).toHaveLength(1);

    const cleared = await cli('retention', 'set', tenantId, '--table', 'deposits', '--keep', 'default');
    expect(cleared.code, cleared.stderr).toBe(0);
    const shown = await cli('retention', 'show', tenantId);
    expect(shown.stdout).toMatch(/deposits\s+in force 5y/);
    expect(shown.stdout).toMatch(/security_log\s+in force 90d\s+default 90d\s+fixed/);
  }, 180_000);
});
