import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

describe('compliance players export (the built CLI)', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant({ environment: 'sandbox' });
    const excluded = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: 'cli-player',
      duration: 'duration_6m',
      email: 'cli.player@example.com',
    });
    expect(excluded.statusCode).toBe(201);
    return { t, tenant, cli: await cliFor(t) };
  });

  it('prints everything held about a player as one JSON document, its summary first; an unknown player fails', async () => {
    const { tenant, cli } = suite.current;
    const exported = await cli('players', 'export', tenant.tenantId, 'cli-player');
    expect(exported.code, exported.stderr).toBe(0);
    const document = JSON.parse(exported.stdout);
    expect(document.summary[0]).toContain('about user cli-player');
    const exclusions = document.data.find((d: { table: string }) => d.table === 'exclusions');
    expect(exclusions.rows[0]).toMatchObject({ user_id: 'cli-player', email: 'cli.player@example.com' });

    const byContact = await cli('contacts', 'export', '--email', 'CLI.Player@example.com');
    expect(byContact.code, byContact.stderr).toBe(0);
    expect(JSON.parse(byContact.stdout).data.map((d: { table: string }) => d.table)).toContain('exclusions');

    const unknown = await cli('players', 'export', tenant.tenantId, 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('player_not_found');
  });

  it('erases a player on request, printing what was done to each kind of data held', async () => {
    const { t, tenant, cli } = suite.current;
    await t.api(tenant.apiKey, 'PUT', '/v1/players/cli-erased/reality-check', { interval_seconds: 1800 });
    await t.api(tenant.apiKey, 'POST', '/v1/time-outs', { user_id: 'cli-erased', duration: 'duration_24h' });
    const erased = await cli('players', 'erase', tenant.tenantId, 'cli-erased', '--request', 'ticket-1');
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.stdout).toContain('Erasure request ticket-1: in_progress');
    expect(erased.stdout).toContain('player_reality_checks: 1 deleted');
    expect(erased.stdout).toContain('time_outs: 0 pseudonymised, 1 kept while in force');
    const unknown = await cli('players', 'erase', tenant.tenantId, 'nobody', '--request', 'ticket-2');
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining('player_not_found')]);
  });
});
