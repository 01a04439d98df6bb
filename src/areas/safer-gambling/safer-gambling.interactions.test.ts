import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { DAY, HOUR, MINUTE } from '../../../test/helpers/units.js';
import { SaferGamblingDriver } from './safer-gambling.test-support.js';

const ref = (code: string, name: string) => ({ code, name, tripped_at: expect.any(String) });
const LOSS_CHASING = ref('SG-002', 'Loss chasing');

/**
 * The levels, what they call for, and the operator's interactions, through HTTP on the test clock: the webhooks a
 * tenant receives and GET /v1/players/{user_id}/safer-gambling. Players are put at a level by tripping markers as an
 * evaluation records them.
 */
describe('safer gambling: levels and interactions', () => {
  const suite = useSuite(() => SaferGamblingDriver.start(), { eachTest: (h) => h.newUser() });

  it('a player never seen is at level none with empty lists', async () => {
    const h = suite.current;
    expect(await h.standing()).toEqual({
      user_id: h.userId,
      risk_level: 'none',
      markers: [],
      interaction_due_at: null,
      interaction_overdue: false,
      contested: false,
      interactions: [],
      financial_checks: [],
    });
  });

  describe('levels and their webhooks', () => {
    it('rises low, medium, high with player.risk_changed each time; high calls for an interaction in 24 hours', async () => {
      const h = suite.current;
      await h.tripMarker('SG-003', 20);
      expect(await h.events('player.risk_changed')).toEqual([
        {
          user_id: h.userId,
          risk_level: 'low',
          previous_level: 'none',
          markers: [ref('SG-003', 'Night play')],
        },
      ]);
      await h.tripMarker('SG-004', 5);
      expect((await h.events('player.risk_changed')).map((e) => [e.previous_level, e.risk_level])).toEqual([
        ['none', 'low'],
        ['low', 'medium'],
      ]);
      expect(await h.events('player.interaction_required')).toEqual([]);

      const trippedAt = h.now();
      await h.tripMarker('SG-002', 3);
      const changes = await h.events('player.risk_changed');
      expect(changes.at(-1)).toEqual({
        user_id: h.userId,
        risk_level: 'high',
        previous_level: 'medium',
        markers: [
          ref('SG-002', 'Loss chasing'),
          ref('SG-003', 'Night play'),
          ref('SG-004', 'Failed deposits'),
        ],
      });
      const dueAt = h.at(DAY);
      expect(await h.events('player.interaction_required')).toEqual([
        { user_id: h.userId, due_at: dueAt, markers: expect.arrayContaining([LOSS_CHASING]) },
      ]);

      const standing = await h.standing();
      expect(standing).toMatchObject({
        risk_level: 'high',
        interaction_due_at: dueAt,
        interaction_overdue: false,
      });
      expect(standing.markers).toContainEqual({
        code: 'SG-002',
        name: 'Loss chasing',
        level: 'high',
        status: 'active',
        tripped_at: trippedAt,
        first_tripped_at: trippedAt,
        measured_value: 3,
        threshold: 3,
        unit: 'count',
        active_until: h.at(30 * DAY),
        reviewed_at: null,
        review_quiet_until: null,
      });
    });

    it('three active markers make a player high whatever their own levels', async () => {
      const h = suite.current;
      await h.tripMarker('SG-003', 25);
      await h.tripMarker('SG-004', 6);
      expect((await h.standing()).risk_level).toBe('medium');
      await h.tripMarker('SG-005', 2);
      expect((await h.standing()).risk_level).toBe('high');
      expect(await h.events('player.interaction_required')).toHaveLength(1);
    });

    it('markers active at 30 days lapse: the level drops with player.risk_changed', async () => {
      const h = suite.current;
      await h.tripMarker('SG-004', 5);
      await h.t.advance(30 * DAY - 1);
      expect((await h.events('player.risk_changed')).map((e) => e.risk_level)).toEqual(['medium']);
      expect((await h.standing()).risk_level).toBe('medium');
      await h.t.advance(1);
      expect(await h.events('player.risk_changed')).toEqual([
        { user_id: h.userId, risk_level: 'medium', previous_level: 'none', markers: [expect.any(Object)] },
        { user_id: h.userId, risk_level: 'none', previous_level: 'medium', markers: [] },
      ]);
      // A lapsed marker is history: the answer lists active and reviewed markers only.
      expect(await h.standing()).toMatchObject({ risk_level: 'none', markers: [] });
    });

    it('a marker tripping again renews it for 30 days from its last trip', async () => {
      const h = suite.current;
      await h.tripMarker('SG-004', 5);
      await h.t.advance(20 * DAY);
      await h.tripMarker('SG-004', 5);
      await h.t.advance(20 * DAY);
      await h.t.deliverWebhooks();
      expect((await h.standing()).risk_level).toBe('medium');
      await h.t.advance(10 * DAY);
      expect((await h.events('player.risk_changed')).map((e) => e.risk_level)).toEqual(['medium', 'none']);
    });
  });

  describe('the overdue path', () => {
    it('an interaction still owed 24 hours after its due time sends player.interaction_overdue and alerts the staff', async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 3);
      const dueAt = h.at(DAY);
      await h.t.advance(2 * DAY - 1);
      expect(await h.events('player.interaction_overdue')).toEqual([]);
      expect((await h.standing()).interaction_overdue).toBe(false);

      await h.t.advance(1);
      expect(await h.events('player.interaction_overdue')).toEqual([
        { user_id: h.userId, due_at: dueAt, markers: [LOSS_CHASING] },
      ]);
      expect(await h.standing()).toMatchObject({ interaction_due_at: dueAt, interaction_overdue: true });
      const alerts = (await h.t.backoffice('GET', '/alerts?kind=safer_gambling_interaction_overdue')).json<{
        alerts: { details: Record<string, unknown> }[];
      }>().alerts;
      expect(alerts.map((a) => a.details)).toContainEqual({
        tenant_id: h.tenant.tenantId,
        user_id: h.userId,
        due_at: dueAt,
      });

      // Recorded late, it still settles what is owed: the flag and the due time go.
      await h.interact('limits_set');
      expect(await h.standing()).toMatchObject({
        risk_level: 'none',
        interaction_due_at: null,
        interaction_overdue: false,
      });
      await h.t.advance(3 * DAY);
      expect(await h.events('player.interaction_overdue')).toHaveLength(1);
    });
  });

  describe('interactions', () => {
    it('settle the due interaction and review the active markers: the level drops, no overdue follows', async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 3);
      await h.tripMarker('SG-003', 30);
      const dueAt = h.at(DAY);
      await h.t.advance(2 * HOUR);
      const occurredAt = h.at(-30 * MINUTE);
      const interaction = await h.interact('no_concern', {
        kind: 'call',
        occurred_at: occurredAt,
        notes: 'Talked through deposit limits; player is comfortable',
      });
      expect(interaction).toEqual({
        interaction_id: expect.stringMatching(/^sgi_/),
        user_id: h.userId,
        kind: 'call',
        outcome: 'no_concern',
        occurred_at: occurredAt,
        notes: 'Talked through deposit limits; player is comfortable',
        recorded_at: h.now(),
        reviewed_markers: [
          { code: 'SG-002', measured_value: 3 },
          { code: 'SG-003', measured_value: 30 },
        ],
        settled_due_at: dueAt,
      });
      expect((await h.events('player.risk_changed')).at(-1)).toEqual({
        user_id: h.userId,
        risk_level: 'none',
        previous_level: 'high',
        markers: [],
      });
      const standing = await h.standing();
      expect(standing).toMatchObject({
        risk_level: 'none',
        interaction_due_at: null,
        interaction_overdue: false,
        contested: false,
        interactions: [interaction],
      });
      expect(standing.markers).toEqual([
        expect.objectContaining({
          code: 'SG-002',
          status: 'reviewed',
          active_until: null,
          reviewed_at: h.now(),
          review_quiet_until: h.at(30 * DAY),
        }),
        expect.objectContaining({ code: 'SG-003', status: 'reviewed' }),
      ]);
      await h.t.advance(3 * DAY);
      expect(await h.events('player.interaction_overdue')).toEqual([]);
    });

    it('no_response keeps the interaction due and reviews nothing; the overdue path goes on', async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 3);
      const dueAt = h.at(DAY);
      const interaction = await h.interact('no_response', { kind: 'email' });
      expect(interaction).toMatchObject({ reviewed_markers: [], settled_due_at: null });
      expect(await h.standing()).toMatchObject({
        risk_level: 'high',
        interaction_due_at: dueAt,
        markers: [expect.objectContaining({ code: 'SG-002', status: 'active' })],
      });
      await h.t.advance(2 * DAY);
      expect(await h.events('player.interaction_overdue')).toHaveLength(1);
    });

    it('contested settles the due interaction but keeps the markers and flags the player for the staff', async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 3);
      const dueAt = h.at(DAY);
      const interaction = await h.interact('contested', { kind: 'account_review' });
      expect(interaction).toMatchObject({ reviewed_markers: [], settled_due_at: dueAt });
      expect(await h.standing()).toMatchObject({
        risk_level: 'high',
        interaction_due_at: null,
        contested: true,
        markers: [expect.objectContaining({ code: 'SG-002', status: 'active' })],
      });
      await h.t.advance(3 * DAY);
      expect(await h.events('player.interaction_overdue')).toEqual([]);
      // Still high, already known: no second requirement and no change of level.
      expect(await h.events('player.interaction_required')).toHaveLength(1);
      expect(await h.events('player.risk_changed')).toHaveLength(1);
    });

    it('reviewed markers stay quiet for 30 days unless they trip with a higher value, then re-raise the level', async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 4);
      await h.interact('limits_set', { kind: 'limit_prompt' });
      await h.t.advance(10 * DAY);
      await h.tripMarker('SG-002', 4);
      await h.tripMarker('SG-002', 3);
      expect((await h.standing()).risk_level).toBe('none');
      expect((await h.events('player.risk_changed')).map((e) => e.risk_level)).toEqual(['high', 'none']);

      await h.tripMarker('SG-002', 5);
      expect(await h.standing()).toMatchObject({
        risk_level: 'high',
        interaction_due_at: h.at(DAY),
        markers: [expect.objectContaining({ code: 'SG-002', status: 'active', measured_value: 5 })],
      });
      expect((await h.events('player.risk_changed')).map((e) => e.risk_level)).toEqual([
        'high',
        'none',
        'high',
      ]);
      expect(await h.events('player.interaction_required')).toHaveLength(2);
    });

    it('after its 30 quiet days a reviewed marker trips again at any value over its threshold', async () => {
      const h = suite.current;
      await h.tripMarker('SG-004', 9);
      await h.interact('no_concern');
      await h.t.advance(30 * DAY - 1);
      await h.tripMarker('SG-004', 5);
      expect((await h.standing()).risk_level).toBe('none');
      await h.t.advance(1);
      await h.tripMarker('SG-004', 5);
      expect((await h.standing()).risk_level).toBe('medium');
    });

    it('an interaction at medium (none owed) reviews the markers and settles nothing', async () => {
      const h = suite.current;
      await h.tripMarker('SG-004', 5);
      const interaction = await h.interact('no_concern', { kind: 'message' });
      expect(interaction).toMatchObject({
        reviewed_markers: [{ code: 'SG-004', measured_value: 5 }],
        settled_due_at: null,
      });
      expect((await h.standing()).risk_level).toBe('none');
    });

    it('one that took place before the interaction was required is kept as history only (clock skew allowed)', async () => {
      const h = suite.current;
      await h.t.advance(HOUR);
      await h.tripMarker('SG-002', 3);
      const dueAt = h.at(DAY);
      const earlier = await h.interact('no_concern', { occurred_at: h.at(-6 * MINUTE) });
      expect(earlier).toMatchObject({ reviewed_markers: [], settled_due_at: null });
      expect(await h.standing()).toMatchObject({ risk_level: 'high', interaction_due_at: dueAt });
      // Within the 5 minutes a client's clock may be behind ours, it answers what is owed.
      const skewed = await h.interact('no_concern', { occurred_at: h.at(-4 * MINUTE) });
      expect(skewed).toMatchObject({ settled_due_at: dueAt, reviewed_markers: [expect.any(Object)] });
      expect(await h.standing()).toMatchObject({ risk_level: 'none', interaction_due_at: null });
    });

    it('is taken for a player the area has never seen (a proactive call)', async () => {
      const h = suite.current;
      const interaction = await h.interact('no_concern', { kind: 'call' });
      expect(interaction).toMatchObject({ reviewed_markers: [], settled_due_at: null });
      expect(await h.standing()).toMatchObject({ risk_level: 'none', interactions: [interaction] });
    });

    it('are listed newest first', async () => {
      const h = suite.current;
      const first = await h.interact('no_response', { kind: 'email', occurred_at: h.at(-2 * HOUR) });
      const second = await h.interact('no_concern', { kind: 'call', occurred_at: h.at(-HOUR) });
      expect((await h.standing()).interactions).toEqual([second, first]);
    });
  });

  it('says nothing of AML or sanctions: no rule code, risk score, case or match in the answer or its webhooks', async () => {
    const h = suite.current;
    // An AML hold and a sanctions hit for the same player: the safer-gambling answers must not show them.
    const hold = await h.api('POST', '/v1/aml/screen', {
      user_id: h.userId,
      withdrawal_id: `wd-${h.userId}`,
      amount_cents: 1_500_000,
      currency: 'USD',
      payment_method: 'card',
      destination_country: 'GB',
    });
    expect(hold.json()).toMatchObject({ decision: 'hold' });
    const screen = await h.api('POST', '/v1/sanctions/screen', {
      user_id: h.userId,
      first_name: 'SanctionedSam',
      last_name: 'Smith',
      date_of_birth: '1980-01-01',
      nationality: 'GB',
      email: `${h.userId}@example.com`,
    });
    expect(screen.statusCode).toBe(201);
    await h.tripMarker('SG-002', 3);
    await h.interact('no_response');
    await h.t.advance(2 * DAY);
    await h.t.deliverWebhooks();

    const seen = JSON.stringify([
      await h.standing(),
      h.received(undefined, h.userId).filter((e) => e.event.startsWith('player.')),
    ]);
    expect(seen).toContain('SG-002');
    // An AML rule code as the catalogue writes it (the random player id may hold "r-0" in lower case).
    expect(seen).not.toMatch(/R-\d{3}/);
    for (const word of ['risk_score', 'rules_triggered', 'case_id', 'match', 'sanction', 'aml'])
      expect(seen.toLowerCase()).not.toContain(word);
  });

  describe('idempotency on the operator interaction_id', () => {
    it('the same request again answers the stored one (200); another request under the id is 409', async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 3);
      const body = { interaction_id: `call-${h.userId}`, outcome: 'no_concern', occurred_at: h.now() };
      const first = await h.postInteraction(body);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ interaction_id: body.interaction_id, settled_due_at: h.at(DAY) });

      await h.t.advance(MINUTE);
      const again = await h.postInteraction(body);
      expect([again.statusCode, again.json()]).toEqual([200, first.json()]);

      const other = await h.postInteraction({ ...body, outcome: 'limits_set' });
      expect(other.statusCode).toBe(409);
      expect(other.json()).toEqual({
        error: 'duplicate_interaction',
        message: expect.any(String),
        request_id: expect.any(String),
      });
      const otherPlayer = await h.postInteraction(body, 'someone-else');
      expect([otherPlayer.statusCode, otherPlayer.json().error]).toEqual([409, 'duplicate_interaction']);
      expect((await h.standing()).interactions).toHaveLength(1);
    });
  });

  describe('bad requests', () => {
    it.each([
      ['an unknown kind', { kind: 'letter' }],
      ['an unknown outcome', { outcome: 'maybe' }],
      ['no outcome', { outcome: undefined }],
      ['occurred_at in the future beyond the skew', { occurred_at: 'future' }],
      ['occurred_at more than 30 days ago', { occurred_at: 'past' }],
      ['notes over 2,000 characters', { notes: 'x'.repeat(2_001) }],
      ['an interaction_id with a space', { interaction_id: 'a b' }],
      ['an unknown field', { score: 3 }],
    ])('%s is 400 invalid_request', async (_, change) => {
      const h = suite.current;
      const at = { future: h.at(6 * MINUTE), past: h.at(-30 * DAY - MINUTE) } as Record<string, string>;
      const body: Record<string, unknown> = { outcome: 'no_concern', ...change };
      if (typeof body.occurred_at === 'string' && at[body.occurred_at])
        body.occurred_at = at[body.occurred_at];
      const response = await h.postInteraction(body);
      expect([response.statusCode, response.json().error]).toEqual([400, 'invalid_request']);
    });

    it("another tenant's player of the same id is another player", async () => {
      const h = suite.current;
      await h.tripMarker('SG-002', 3);
      const other = await h.otherTenant();
      other.userId = h.userId;
      expect((await other.standing()).risk_level).toBe('none');
      await other.interact('no_concern');
      expect((await h.standing()).risk_level).toBe('high');
    });
  });
});
