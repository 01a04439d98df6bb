import { describe, expect, it } from 'vitest';
import {
  asStaff,
  createStaffMember,
  signInAs,
  type StaffSession,
  type TestStaffMember,
} from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';
import { TestService, type TestTenant } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { HOUR } from '../helpers/units.js';

const ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};
/** A page as staff read it: tags dropped, entities decoded, whitespace folded. */
const text = (body: string) =>
  body
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity]!)
    .replace(/\s+/g, ' ')
    .trim();

/** The figure of the card whose heading links to `href`. */
function cardFigure(body: string, href: string): string {
  const card = new RegExp(`<a href="${href}">[^<]*</a></h3>\\s*<p class="figure">\\s*([^<]*?)\\s*</p>`).exec(
    body,
  );
  if (!card) throw new Error(`no card linking to ${href}`);
  return card[1]!;
}
const overdueOf = (body: string, href: string) =>
  new RegExp(`href="${href}\\?overdue=true"[^>]*>([^<]*) overdue<`).exec(body)?.[1];

interface Player {
  tenant: TestTenant;
  userId: string;
  sanctionsCase?: string;
  amlCase?: string;
  kycCheck?: string;
  exclusion?: string;
}

async function sanctionsHit(t: TestService, tenant: TestTenant, userId: string): Promise<string> {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/sanctions/screen', {
    user_id: userId,
    first_name: 'SanctionedSam',
    last_name: 'Lovelace',
    date_of_birth: '1990-12-10',
    nationality: 'GB',
    email: `${userId}@example.com`,
  });
  expect(response.json().status).toBe('hit_review_pending');
  return response.json().case_id;
}

async function kycInReview(t: TestService, tenant: TestTenant, userId: string): Promise<string> {
  const started = (
    await t.api(tenant.apiKey, 'POST', '/v1/kyc/start', {
      user_id: userId,
      email: 'player@example.com',
      phone: '+15555550100',
      withdrawal_amount_cents: 30_000,
      currency: 'USD',
      withdrawal_id: `wd-kyc-${userId}`,
    })
  ).json();
  const vendor = (step: string) =>
    t.inject({ method: 'POST', url: `/v1/kyc/sandbox-vendor/${started.vendor_access_token}/${step}` });
  await vendor('begin');
  expect((await vendor('submit')).json().status).toBe('pending_review');
  return started.kyc_check_id;
}

async function amlHold(t: TestService, tenant: TestTenant, userId: string): Promise<string> {
  const screen = await t.api(tenant.apiKey, 'POST', '/v1/aml/screen', {
    user_id: userId,
    withdrawal_id: `wd-aml-${userId}`,
    amount_cents: 1_000_000,
    currency: 'USD',
    payment_method: 'bank_transfer',
    destination_country: 'CA',
  });
  expect(screen.json().decision).toBe('hold');
  return screen.json().case_id;
}

describe('console overview: dashboard, player and audit log', () => {
  const suite = useSuite(async (own) => {
    const t = own(await TestService.start());
    const healthy = own(await WebhookReceiver.start());
    const broken = own(await WebhookReceiver.start());
    broken.down = true;
    const tenant = await t.createTenant({ webhookUrl: healthy.url, name: 'Casino <b>"Royal"</b> & Co' });
    const other = await t.createTenant({ webhookUrl: broken.url, name: 'Other Operator' });

    const player: Player = { tenant, userId: 'player-one' };
    player.sanctionsCase = await sanctionsHit(t, tenant, player.userId);
    player.amlCase = await amlHold(t, tenant, player.userId);
    player.kycCheck = await kycInReview(t, tenant, player.userId);
    const limit = await t.api(tenant.apiKey, 'POST', '/v1/limits', {
      user_id: player.userId,
      limit_type: 'limit_daily',
      amount_cents: 12_345,
      currency: 'USD',
      requested_at: t.platform.clock.now().toISOString(),
    });
    expect(limit.statusCode).toBe(201);

    // Another player of the same tenant, and a player of another tenant with the same user id.
    const neighbour: Player = { tenant, userId: 'player-two' };
    neighbour.sanctionsCase = await sanctionsHit(t, tenant, neighbour.userId);
    const stranger: Player = { tenant: other, userId: player.userId };
    stranger.sanctionsCase = await sanctionsHit(t, other, stranger.userId);

    const excluded = await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
      user_id: player.userId,
      duration: 'duration_permanent',
      email: `player-one.${Date.now()}@example.com`,
    });
    expect(excluded.statusCode).toBe(201);
    player.exclusion = excluded.json().exclusion_id;

    // The other tenant's destination is down: its deliveries fail.
    await t.deliverWebhooks();
    // Queued for evaluation after the worker pass: the AML evaluation lag.
    const event = await t.api(tenant.apiKey, 'POST', '/v1/aml/event', {
      user_id: player.userId,
      event_type: 'deposit',
      transaction_id: 'tx-lag-1',
      amount_cents: 5_000,
      currency: 'USD',
      payment_method: 'card',
      metadata: {},
      occurred_at: t.platform.clock.now().toISOString(),
    });
    expect(event.statusCode).toBe(202);

    const reviewer = await createStaffMember(t, 'reviewer', { displayName: 'Rita <Reviewer>' });
    const auditor = await createStaffMember(t, 'auditor');
    return { t, tenant, other, player, neighbour, stranger, reviewer, auditor };
  });

  const get = (session: StaffSession, url: string) =>
    suite.current.t.inject({ method: 'GET', url, headers: { cookie: `console_session=${session.cookie}` } });
  const signIn = (member: TestStaffMember) => signInAs(suite.current.t, member);

  it('the dashboard counts each queue, the proposals, failed deliveries and the AML lag; then the overdue', async () => {
    const { t, reviewer, auditor, neighbour, other } = suite.current;
    const proposed = await asStaff(
      t,
      await signIn(reviewer),
      'POST',
      `/sanctions/cases/${neighbour.sanctionsCase}/decision`,
      { decision: 'confirmed', reason: 'the listed entity matches' },
    );
    expect(proposed.statusCode).toBe(200);

    const session = await signIn(auditor);
    const page = await get(session, '/console');
    expect(page.statusCode).toBe(200);
    expect(cardFigure(page.body, '/console/queues/sanctions')).toBe('3');
    expect(cardFigure(page.body, '/console/queues/aml')).toBe('1');
    expect(cardFigure(page.body, '/console/queues/kyc')).toBe('1');
    expect(cardFigure(page.body, '/console/approvals')).toBe('1');
    expect(overdueOf(page.body, '/console/queues/sanctions')).toBe('0');
    // The proposal, by the proposer's display name (escaped), linking to its case.
    expect(page.body).toContain(`href="/console/sanctions/${neighbour.sanctionsCase}"`);
    expect(page.body).toContain('Rita &lt;Reviewer&gt;');
    // Failed deliveries: the other tenant only.
    const failures = text(page.body.slice(page.body.indexOf('Webhook failures in the last 24 hours')));
    expect(failures).toContain(`Other Operator ${other.tenantId}`);
    expect(failures).not.toContain('Casino');
    expect(text(page.body)).toMatch(/Events waiting to be evaluated 1 /);
    expect(page.body).not.toContain('past the deadline');

    await t.advance(49 * HOUR);
    const later = await get(await signIn(auditor), '/console');
    expect(overdueOf(later.body, '/console/queues/sanctions')).toBe('3');
    expect(overdueOf(later.body, '/console/queues/aml')).toBe('1');
    expect(overdueOf(later.body, '/console/queues/kyc')).toBe('1');
    // The queued event waits 49 hours and a minute (sign-ins moved the clock), until a worker pass evaluates it.
    expect(text(later.body)).toMatch(
      /Oldest waiting event 2 days 1 hour Received .*, past the deadline Deadline 5 minutes from acknowledgement/,
    );
    expect(later.body).toMatch(/<p class="figure overdue">2 days 1 hour<\/p>/);
    // Failures older than 24 hours drop off.
    expect(text(later.body)).toContain('No failed deliveries in the last 24 hours.');
  });

  it('the player page shows that player: limit, KYC check, sanctions and AML cases, and nobody else', async () => {
    const { player, neighbour, stranger, auditor, tenant } = suite.current;
    const page = await get(await signIn(auditor), `/console/players/${tenant.tenantId}/${player.userId}`);
    expect(page.statusCode).toBe(200);
    const seen = text(page.body);
    expect(seen).toContain('Player player-one');
    expect(page.body).toContain('Casino &lt;b&gt;&quot;Royal&quot;&lt;/b&gt; &amp; Co');
    expect(page.body).not.toContain('<b>"Royal"</b>');
    expect(seen).toMatch(/limit_daily 123\.45 USD 0\.00 USD/);
    expect(page.body).toContain(`href="/console/kyc/${player.kycCheck}"`);
    expect(page.body).toContain(`href="/console/sanctions/${player.sanctionsCase}"`);
    expect(page.body).toContain(`href="/console/aml/${player.amlCase}"`);
    expect(seen).toContain('player-one@example.com');
    expect(seen).toContain('tx-lag-1');
    expect(seen).toContain(`${player.exclusion} permanent`);
    const webhooks = seen.slice(seen.indexOf('Recent webhooks'));
    expect(webhooks).toContain('limit.created');
    expect(webhooks).toMatch(/sanctions\.\w+/);
    expect(page.body).not.toContain(neighbour.sanctionsCase!);
    expect(page.body).not.toContain(stranger.sanctionsCase!);
    expect(page.body).not.toContain('player-two');

    const unknown = await get(await signIn(auditor), `/console/players/ten_nobody/${player.userId}`);
    expect(unknown.statusCode).toBe(404);
  });

  it('the audit log finds a staff action by actor and by action, with the display name', async () => {
    const { reviewer, auditor, neighbour } = suite.current;
    const session = await signIn(auditor);
    const byActor = await get(session, `/console/audit?actor=${reviewer.staffId}`);
    expect(byActor.statusCode).toBe(200);
    expect(text(byActor.body)).toContain(`Rita <Reviewer> ${reviewer.staffId} sanctions.decision_proposed`);
    expect(byActor.body).toContain('Rita &lt;Reviewer&gt;');
    expect(byActor.body).toContain(neighbour.sanctionsCase!);

    const byEmail = await get(session, `/console/audit?actor=${encodeURIComponent(reviewer.email)}`);
    expect(byEmail.body).toContain('sanctions.decision_proposed');

    const byAction = await get(session, '/console/audit?action=sanctions.decision_proposed');
    expect(text(byAction.body)).toContain(`Rita <Reviewer> ${reviewer.staffId}`);
    const none = await get(session, '/console/audit?action=nothing.happened');
    expect(text(none.body)).toContain('No audit entries match.');

    // The form: labelled filters, the time window in UTC.
    for (const [id, label] of [
      ['actor', 'Actor'],
      ['tenant', 'Tenant'],
      ['action', 'Action'],
      ['from', 'From'],
      ['to', 'To'],
    ]) {
      expect(byActor.body).toContain(`<label for="${id}">${label}</label>`);
    }
    const window = await get(
      session,
      '/console/audit?action=sanctions.decision_proposed&from=2031-01-01T00:00',
    );
    expect(text(window.body)).toContain('No audit entries match.');
    const invalid = await get(session, '/console/audit?from=yesterday');
    expect(invalid.statusCode).toBe(400);
    expect(text(invalid.body)).toContain('Enter From as a date and time');
  });

  it('without a session every page leads to the sign-in page', async () => {
    const { t, tenant, player } = suite.current;
    for (const url of [
      '/console',
      `/console/players/${tenant.tenantId}/${player.userId}`,
      '/console/audit',
    ]) {
      const response = await t.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toMatch(/^\/console\/login/);
    }
  });
});
