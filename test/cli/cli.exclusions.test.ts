import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { cliFor } from '../helpers/cli.js';
import { staffOf } from '../helpers/staff-driver.js';
import { TestService } from '../helpers/test-service.js';

describe('compliance exclusion show', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    return { t, tenant: await t.createTenant(), cli: await cliFor(t) };
  });

  it('shows a row, its pending void with its proposer, and the void with who approved it; it voids nothing itself', async () => {
    const { t, tenant, cli } = suite.current;
    const exclusionId = (
      await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
        user_id: 'u-wrong',
        duration: 'duration_permanent',
        email: 'wrong@example.com',
      })
    ).json<{ exclusion_id: string }>().exclusion_id;
    const [reviewer, supervisor] = [await staffOf(t, 'reviewer'), await staffOf(t, 'supervisor')];
    await t.asStaff('reviewer', 'POST', `/exclusions/${exclusionId}/void`, { reason: 'wrong player' });
    const proposed = await cli('exclusion', 'show', exclusionId);
    expect(proposed.code, proposed.stderr).toBe(0);
    expect(proposed.stdout).toMatch(
      new RegExp(
        `active .*\\n {2}void proposed by ${reviewer.member.staffId} at \\S+: wrong player; awaiting`,
      ),
    );
    await t.asStaff('supervisor', 'POST', `/exclusions/${exclusionId}/void/confirm`);
    const voided = await cli('exclusion', 'show', exclusionId);
    expect(voided.stdout).toMatch(
      new RegExp(
        `voided at \\S+ by ${reviewer.member.staffId}, confirmed by ${supervisor.member.staffId}: wrong player`,
      ),
    );
    // Voiding is a person's act: the CLI, which holds the token, has no command for it.
    const refused = await cli('exclusion', 'void', exclusionId, '--reason', 'x');
    expect(refused.code).toBe(2);
  });
});
