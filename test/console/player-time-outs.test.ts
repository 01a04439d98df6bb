import { describe, expect, it } from 'vitest';
import { TimeOutsDriver } from '../../src/areas/time-outs/time-outs.test-support.js';
import { createStaffMember, type TestStaffMember } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { DAY, HOUR } from '../helpers/units.js';
import { playerPage, sectionRows } from './player-page.js';

const timeOutRows = (body: string) => sectionRows(body, 'Time-outs');

describe("the console's player page: time-outs", () => {
  const suite = useSuite(async () => {
    const d = await TimeOutsDriver.start();
    const auditor = await createStaffMember(d.t, 'auditor');
    return Object.assign(d, { auditor });
  });

  const page = (member: TestStaffMember, tenantId: string, userId: string) =>
    playerPage(suite.current.t, member, tenantId, userId);

  it("shows the player's time-outs, current and past, newest first, and nobody else's", async () => {
    const d = suite.current;
    const player = d.newUser('break-taker');
    const first = (await d.takeTimeOut('duration_24h', { reason: 'needs <a> break' })).json();
    await d.t.advance(HOUR);
    const extension = (await d.takeTimeOut('duration_7d')).json();
    // Another player of the tenant, and the same user id at another tenant.
    const neighbour = await d.api('POST', '/v1/time-outs', {
      user_id: 'neighbour',
      duration: 'duration_30d',
    });
    const other = await d.otherTenant();
    const stranger = await other.api('POST', '/v1/time-outs', { user_id: player, duration: 'duration_6w' });

    const body = await page(d.auditor, d.tenant.tenantId, player);
    expect(timeOutRows(body)).toEqual([
      [
        extension.time_out_id,
        '7d',
        '2030-01-01 13:00 UTC',
        '2030-01-08 13:00 UTC',
        'active',
        'player asked for a break',
        first.time_out_id,
      ],
      [
        first.time_out_id,
        '24h',
        '2030-01-01 12:00 UTC',
        '2030-01-02 12:00 UTC',
        'superseded',
        'needs &lt;a&gt; break',
        '',
      ],
    ]);
    expect(body).not.toContain(neighbour.json().time_out_id);
    expect(body).not.toContain(stranger.json().time_out_id);

    // Past its end, the break is shown as ended.
    await d.t.advance(7 * DAY);
    const later = await page(d.auditor, d.tenant.tenantId, player);
    expect(timeOutRows(later).map((row) => [row[0], row[4]])).toEqual([
      [extension.time_out_id, 'ended'],
      [first.time_out_id, 'superseded'],
    ]);
  });

  it('says so when the player never took one', async () => {
    const d = suite.current;
    const body = await page(d.auditor, d.tenant.tenantId, d.newUser('never-paused'));
    expect(timeOutRows(body)).toEqual([]);
    expect(body).toContain('No time-out taken.');
  });
});
