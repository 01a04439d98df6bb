import { describe, expect, it } from 'vitest';
import { TimeOutsDriver } from '../../src/areas/time-outs/time-outs.test-support.js';
import { postForm, staffOf } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';

/** The console's export of a player's data (docs/data.md): an admin's form on the player page, a JSON file back. */
describe("the console's player page: the player's data", () => {
  const suite = useSuite(() => TimeOutsDriver.start());

  const pageOf = async (role: 'admin' | 'auditor', tenantId: string, userId: string) => {
    const { t } = suite.current;
    const session = await staffOf(t, role);
    const response = await t.inject({
      method: 'GET',
      url: `/console/players/${tenantId}/${userId}`,
      headers: { cookie: `console_session=${session.cookie}` },
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('gives an admin a JSON file of everything held about the player; an auditor neither the form nor the file', async () => {
    const d = suite.current;
    const player = d.newUser('exported');
    expect((await d.takeTimeOut('duration_24h')).statusCode).toBe(201);
    const exportPath = `/console/players/${d.tenant.tenantId}/${player}/export`;

    expect(await pageOf('admin', d.tenant.tenantId, player)).toContain(`action="${exportPath}"`);
    const file = await postForm(d.t, await staffOf(d.t, 'admin'), exportPath, {});
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="player-data-${d.tenant.tenantId}.json"`,
    );
    const document = file.json<{ user_id: string; data: { table: string }[] }>();
    expect(document.user_id).toBe(player);
    expect(document.data.map((t) => t.table)).toContain('time_outs');

    expect(await pageOf('auditor', d.tenant.tenantId, player)).not.toContain(exportPath);
    const refused = await postForm(d.t, await staffOf(d.t, 'auditor'), exportPath, {});
    expect(refused.statusCode).toBe(403);
    // Without the form's anti-forgery field, nothing is exported.
    const forged = await postForm(d.t, await staffOf(d.t, 'admin'), exportPath, {}, { csrf: false });
    expect(forged.statusCode).toBe(403);
  });
});
