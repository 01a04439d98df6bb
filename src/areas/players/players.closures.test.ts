import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import { DAY } from '../../../test/helpers/units.js';
import { expectRefused } from '../../../test/platform/stored-rows.js';

/** POST /v1/players/{user_id}/closed through HTTP: the end of the relationship, once per player (docs/data.md). */
describe('an account closed', () => {
  const suite = useSuite(() => TenantDriver.start(), { eachTest: (h) => h.newUser() });
  const close = (closed_at: unknown, userId = suite.current.userId) =>
    suite.current.api('POST', `/v1/players/${encodeURIComponent(userId)}/closed`, { closed_at });

  it('is recorded once (201), answered again for the same closed_at (200), refused for another (409)', async () => {
    const h = suite.current;
    const closedAt = h.at(-3 * DAY);
    const first = await close(closedAt);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ user_id: h.userId, closed_at: closedAt, recorded_at: h.now() });
    await h.t.advance(DAY);
    const again = await close(closedAt);
    expect([again.statusCode, again.json()]).toEqual([200, first.json()]);
    expectRefused(await close(h.at(-DAY)), 409, 'account_already_closed');
  });

  it('is audited, and is in the player\u2019s data export with its retention', async () => {
    const h = suite.current;
    expect((await close(h.at(-DAY))).statusCode).toBe(201);
    const exported = await h.t.backoffice('POST', `/tenants/${h.tenant.tenantId}/players/${h.userId}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    const tables = exported.json<{ data: { table: string; kept: string; rows: unknown[] }[] }>().data;
    expect(tables.map((d) => d.table).sort()).toEqual(['audit_log', 'player_closures']);
    const closures = tables.find((d) => d.table === 'player_closures')!;
    expect(closures.kept).toBe('6 years from relationship end, then deleted');
    // Rows are as stored: PostgreSQL's own JSON form of a timestamp.
    const [row] = closures.rows as { user_id: string; closed_at: string }[];
    expect([row!.user_id, new Date(row!.closed_at).toISOString()]).toEqual([h.userId, h.at(-DAY)]);
  });

  it('refuses a bad closed_at in the error shape and stores nothing', async () => {
    const h = suite.current;
    expectRefused(await close('yesterday'), 400, 'invalid_request');
    expectRefused(await close(h.at(3600)), 400, 'invalid_request');
    const exported = await h.t.backoffice('POST', `/tenants/${h.tenant.tenantId}/players/${h.userId}/export`);
    expectRefused(exported, 404, 'player_not_found');
  });
});
