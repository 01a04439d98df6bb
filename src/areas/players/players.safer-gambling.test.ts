import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY } from '../../../test/helpers/units.js';
import { SaferGamblingDriver } from '../safer-gambling/safer-gambling.test-support.js';

const ALLOWED = { can_play: true, can_deposit: true, can_withdraw: true, marketing_allowed: true };

/**
 * What a player's safer-gambling level sets in GET /v1/players/{user_id}/status, by the tenant's policy: the
 * defaults (marketing stops at medium), and a tenant that stops deposits at high until an interaction.
 */
describe('player status: the safer-gambling level', () => {
  const suite = useSuite(() => SaferGamblingDriver.start(), { eachTest: (h) => h.newUser() });

  describe('the default policy', () => {
    it('a low level changes nothing', async () => {
      const h = suite.current;
      await h.tripMarker('SG-003', 20);
      expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
    });

    it('medium stops marketing, with no restriction: the player may still play, deposit and withdraw', async () => {
      const h = suite.current;
      await h.tripMarker('SG-004', 5);
      expect(await h.status()).toMatchObject({ ...ALLOWED, marketing_allowed: false, restrictions: [] });
      // Reviewed by an interaction, the level is none and marketing may resume.
      await h.interact('no_concern');
      expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
    });

    it('high stops marketing but not deposits, even while an interaction is owed', async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 3);
      expect(await h.status()).toMatchObject({ ...ALLOWED, marketing_allowed: false, restrictions: [] });
    });

    it('marketing resumes when the markers lapse', async () => {
      const h = suite.current;
      await h.tripMarker('SG-004', 5);
      await h.t.advance(30 * DAY);
      await h.t.deliverWebhooks();
      expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
    });
  });

  describe('a tenant that stops deposits at high', () => {
    const stopping = async () => {
      const h = await suite.current.otherTenant();
      h.newUser();
      const response = await h.settings({ policy: { stop_deposits_at_high: true } });
      expect(response.statusCode).toBe(200);
      return h;
    };
    const STOPPED = {
      ...ALLOWED,
      can_deposit: false,
      marketing_allowed: false,
      restrictions: [{ code: 'safer_gambling_review', until: null }],
    };

    it('a high player may not deposit (safer_gambling_review) until an interaction is recorded', async () => {
      const h = await stopping();
      await h.tripMarker('SG-004', 5);
      expect(await h.status()).toMatchObject({ ...ALLOWED, marketing_allowed: false, restrictions: [] });
      await h.tripMarker('SG-002', 3);
      expect(await h.status()).toMatchObject(STOPPED);

      // no_response: the interaction is still owed, and deposits stay stopped, overdue or not.
      await h.interact('no_response');
      await h.t.advance(2 * DAY);
      await h.t.deliverWebhooks();
      expect(await h.status()).toMatchObject(STOPPED);

      await h.interact('limits_set');
      expect(await h.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
    });

    it('contested settles what is owed: deposits resume while the level stays high, marketing stays off', async () => {
      const h = await stopping();
      await h.tripMarker('SG-002', 3);
      expect(await h.status()).toMatchObject(STOPPED);
      await h.interact('contested');
      expect(await h.status()).toMatchObject({ ...ALLOWED, marketing_allowed: false, restrictions: [] });
    });

    it('another tenant of the same player id is not stopped', async () => {
      const h = await stopping();
      await h.tripMarker('SG-002', 3);
      const other = await h.otherTenant();
      other.userId = h.userId;
      expect(await other.status()).toMatchObject({ ...ALLOWED, restrictions: [] });
    });
  });
});
