import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/cli.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('compliance reports and regulator (the built CLI)', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const tenant = await t.createTenant({ environment: 'live' });
    const registered = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: 'cli-player',
      duration: 'duration_7d',
      email: 'cli-player@example.com',
    });
    expect(registered.statusCode).toBe(201);
    // 2030-01-02T00:15Z: the export of the 1st and the day's reports exist.
    await t.advance(12 * 3600 + 15 * 60);
    return { t, tenant, cli: await cliFor(t) };
  });

  it('lists and shows reports, and prints a report file byte for byte', async () => {
    const { tenant, cli } = suite.current;
    const listed = await cli('reports', 'list', '--tenant', tenant.tenantId, '--period', '2030-01-01');
    expect(listed.code, listed.stderr).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.split(/\s+/)[2]).sort()).toEqual(['self_limitation', 'threshold']);
    const reportId = lines.find((l) => l.includes('self_limitation'))!.split(/\s+/)[0]!;

    const shown = await cli('reports', 'get', reportId);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('v1 original  1 rows');
    const digest = /sha256 csv ([0-9a-f]{64})/.exec(shown.stdout)![1];
    const file = await cli('reports', 'get', reportId, '--format', 'csv');
    expect(file.code, file.stderr).toBe(0);
    expect(sha256(file.stdout)).toBe(digest);
    expect(file.stdout.split('\r\n')[0]).toMatch(/^record_type,kind,occurred_at,/);

    const bad = await cli('reports', 'get', reportId, '--format', 'pdf');
    expect(bad.code).toBe(2);
  });

  it('lists the regulator exports, prints one, and acknowledges it', async () => {
    const { t, tenant, cli } = suite.current;
    const listed = await cli('regulator', 'exports', '--env', 'live');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^rex_\S+ {2}live {2}daily {2}2030-01-01 {2}1 rows {2}not acknowledged$/m);
    const exportId = listed.stdout.split(/\s+/)[0]!;
    const json = await cli('regulator', 'export', exportId, '--format', 'json');
    expect(JSON.parse(json.stdout).rows).toMatchObject([
      { user_id: 'cli-player', tenant_id: tenant.tenantId },
    ]);

    const ack = await cli('regulator', 'ack', exportId);
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toContain('by backoffice');
    const replay = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: 'cli-player',
      duration: 'duration_7d',
      email: 'cli-player@example.com',
    });
    expect(replay.json().regulator_propagated).toBe(true);
  });
});
