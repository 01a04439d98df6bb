import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { cliFor } from '../helpers/cli.js';
import { TestService } from '../helpers/test-service.js';

describe('compliance exclusion show, void and void-confirm', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    return { t, tenant: await t.createTenant(), cli: await cliFor(t) };
  });
  const register = async (duration: string, email: string) => {
    const { t, tenant } = suite.current;
    return (
      await t.api(tenant.apiKey, 'POST', '/v1/exclusions', { user_id: `u-${email}`, duration, email })
    ).json<{
      exclusion_id: string;
    }>().exclusion_id;
  };

  it('voids a timed row at once, and a permanent one only when a second member of staff confirms', async () => {
    const { cli } = suite.current;
    const timed = await register('duration_30d', 'typo@example.com');
    const voided = await cli(
      'exclusion',
      'void',
      timed,
      '--reason',
      'agent typed the wrong email',
      '--actor',
      'alice',
    );
    expect(voided.code, voided.stderr).toBe(0);
    expect(voided.stdout).toMatch(new RegExp(`^${timed} {2}voided {2}duration_30d {2}operator`));
    expect(voided.stdout).toMatch(/voided at \S+ by alice: agent typed the wrong email/);

    const permanent = await register('duration_permanent', 'wrong@example.com');
    const proposed = await cli(
      'exclusion',
      'void',
      permanent,
      '--reason',
      'wrong player',
      '--actor',
      'alice',
    );
    expect(proposed.code).toBe(0);
    expect(proposed.stdout).toMatch(/active .*\n {2}void proposed by alice at \S+: wrong player; awaiting/);
    const same = await cli('exclusion', 'void-confirm', permanent, '--actor', 'alice');
    expect(same.code).toBe(1);
    expect(same.stderr).toContain('second_approver_required');
    const confirmed = await cli('exclusion', 'void-confirm', permanent, '--actor', 'bob');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toMatch(/voided at \S+ by alice, confirmed by bob: wrong player/);
    expect((await cli('exclusion', 'show', permanent)).stdout).toContain('voided');

    const missing = await cli('exclusion', 'void', timed, '--actor', 'alice');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--reason is required');
  });
});
