import { describe, expect, it } from 'vitest';
import { AmlDriver } from '../../src/areas/aml/aml.test-support.js';
import { createSession, requestCode } from '../../src/areas/embeds/embeds.test-support.js';
import {
  designated,
  designation,
  ListsDirectory,
  reloadLists,
  screenedAgainst,
  startLive,
} from '../../src/areas/sanctions/sanctions.test-support.js';
import { useSuite } from '../helpers/suite.js';
import { usd } from '../helpers/units.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** GET /metrics as Prometheus scrapes it: the samples of the text format, and its families by their TYPE lines. */
async function scrape(url: string): Promise<{ samples: Sample[]; types: Map<string, string>; text: string }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) continue;
    const labels = Object.fromEntries(
      [...(sample[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return { samples, types, text };
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when there is none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

const durationCount = (samples: Sample[], labels: Record<string, string>) =>
  valueOf(samples, 'compliance_http_request_duration_seconds_count', labels);

describe('GET /metrics on the metrics port, during a short load', () => {
  const suite = useSuite(async (own) => {
    const d = await AmlDriver.start();
    const url = await d.t.listenMetrics();
    const throttled = await d.otherTenant();
    const failing = await d.otherTenant();
    own(d);
    return { d, t: d.t, url, throttled, failing };
  });

  it('shows each family moving: requests by surface and route, refusals, failures, queues, reviews, mail, pool, group commits', async () => {
    const { d, t, url, throttled } = suite.current;
    const before = await scrape(url);
    // Nothing waits yet; every family is exposed from the start.
    for (const [name, type] of [
      ['compliance_http_request_duration_seconds', 'histogram'],
      ['compliance_rate_limited_requests_total', 'counter'],
      ['compliance_auth_failures_total', 'counter'],
      ['compliance_aml_evaluation_waiting', 'gauge'],
      ['compliance_aml_dead_letters_total', 'counter'],
      ['compliance_aml_dead_letters', 'gauge'],
      ['compliance_webhook_deliveries_total', 'counter'],
      ['compliance_webhook_backlog_events', 'gauge'],
      ['compliance_webhook_oldest_undelivered_seconds', 'gauge'],
      ['compliance_webhook_destinations', 'gauge'],
      ['compliance_review_cases_open', 'gauge'],
      ['compliance_review_cases_overdue', 'gauge'],
      ['compliance_review_oldest_open_case_seconds', 'gauge'],
      ['compliance_scheduler_jobs_due', 'gauge'],
      ['compliance_scheduler_jobs_late', 'gauge'],
      ['compliance_mail_outbox_depth', 'gauge'],
      ['compliance_mail_sent_total', 'counter'],
      ['compliance_mail_failed_total', 'counter'],
      ['compliance_db_pool_connections_in_use', 'gauge'],
      ['compliance_db_pool_connections_max', 'gauge'],
      ['compliance_db_pool_waiting_requests', 'gauge'],
      ['compliance_group_commit_batch_size', 'histogram'],
      ['compliance_sanctions_list_published_age_seconds', 'gauge'],
      ['compliance_sanctions_list_fetched_age_seconds', 'gauge'],
      ['compliance_sanctions_list_max_age_seconds', 'gauge'],
      ['compliance_sanctions_screening_backlog', 'gauge'],
      ['process_cpu_seconds_total', 'counter'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
    ] as const) {
      expect(before.types.get(name), name).toBe(type);
    }
    for (const queue of ['sanctions', 'aml', 'kyc']) {
      expect(valueOf(before.samples, 'compliance_review_cases_open', { queue })).toBe(0);
      expect(valueOf(before.samples, 'compliance_review_oldest_open_case_seconds', { queue })).toBe(0);
    }
    expect(valueOf(before.samples, 'compliance_rate_limited_requests_total', { bucket: 'default' })).toBe(0);
    expect(valueOf(before.samples, 'compliance_sanctions_screening_backlog')).toBe(0);
    expect(valueOf(before.samples, 'compliance_db_pool_connections_max')).toBe(t.config.databaseUrl ? 10 : 1);

    // The tenant API: two AML events acknowledged (2xx), one refused by validation (4xx), a sanctions hit's case.
    const player = d.newUser();
    await d.event(player, 'deposit', usd(20));
    await d.event(d.newUser(), 'deposit', usd(20));
    expect((await d.post({ user_id: player })).statusCode).toBe(400);
    const hit = await d.api('POST', '/v1/sanctions/screen', {
      user_id: d.newUser(),
      first_name: 'SanctionedSam',
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      nationality: 'GB',
      email: 'sam@example.com',
    });
    expect(hit.statusCode).toBe(201);
    // A 429 on a tight per-key budget.
    await t.backoffice('PUT', `/tenants/${throttled.tenant.tenantId}/rate-limits`, { default_per_minute: 1 });
    expect((await throttled.api('GET', `/v1/aml/cases?user_id=${player}`)).statusCode).toBe(200);
    expect((await throttled.api('GET', `/v1/aml/cases?user_id=${player}`)).statusCode).toBe(429);
    // Authentication failures: the tenant API without a key and with a malformed one, the back office's bad token.
    expect((await t.inject({ method: 'GET', url: '/v1/limits' })).statusCode).toBe(401);
    const malformed = { authorization: 'Bearer not-a-key' };
    expect((await t.inject({ method: 'GET', url: '/v1/limits', headers: malformed })).statusCode).toBe(401);
    const badToken = { authorization: 'Bearer not-the-back-office-token-at-all' };
    expect(
      (await t.inject({ method: 'GET', url: '/backoffice/v1/tenants', headers: badToken })).statusCode,
    ).toBe(401);
    // The console: its sign-in page, and a sign-in that fails.
    expect((await t.inject({ method: 'GET', url: '/console/login' })).statusCode).toBe(200);
    const signIn = await t.inject({
      method: 'POST',
      url: '/console/login',
      payload: 'email=nobody%40example.com&password=wrong&code=000000',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(signIn.statusCode).toBe(401);
    // An embed: its page, a code mailed to the player (kept in the outbox: no SMTP_URL), and a token that is no
    // session's.
    const email = `embed.${d.newUser()}@example.com`;
    const session = await createSession(t, d.tenant, { kind: 'self_exclusion', user_id: email, email });
    expect((await t.inject({ method: 'GET', url: `/embeds/${session.token}` })).statusCode).toBe(200);
    expect((await requestCode(t, session.token, 'duration_24h')).statusCode).toBe(202);
    expect((await requestCode(t, 'emb_notasession', 'duration_24h')).statusCode).toBe(401);
    // A route no one registered.
    expect((await t.inject({ method: 'GET', url: `/v1/no-such-thing/${player}` })).statusCode).toBe(404);
    await t.advance(90);

    const loaded = await scrape(url);
    const s = loaded.samples;
    expect(
      durationCount(s, { surface: 'api', method: 'POST', route: '/v1/aml/event', status_class: '2xx' }),
    ).toBe(2);
    expect(
      durationCount(s, { surface: 'api', method: 'POST', route: '/v1/aml/event', status_class: '4xx' }),
    ).toBe(1);
    expect(
      durationCount(s, { surface: 'api', method: 'GET', route: '/v1/aml/cases', status_class: '4xx' }),
    ).toBe(1);
    expect(
      durationCount(s, {
        surface: 'backoffice',
        method: 'PUT',
        route: '/backoffice/v1/tenants/{tenant_id}/rate-limits',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      durationCount(s, { surface: 'console', method: 'GET', route: '/console/login', status_class: '2xx' }),
    ).toBe(1);
    expect(
      durationCount(s, { surface: 'console', method: 'POST', route: '/console/login', status_class: '4xx' }),
    ).toBe(1);
    expect(
      durationCount(s, { surface: 'embed', method: 'GET', route: '/embeds/{token}', status_class: '2xx' }),
    ).toBe(1);
    expect(
      durationCount(s, {
        surface: 'embed',
        method: 'POST',
        route: '/v1/embeds/{token}/request',
        status_class: '2xx',
      }),
    ).toBe(1);
    expect(
      durationCount(s, {
        surface: 'embed',
        method: 'POST',
        route: '/v1/embeds/{token}/request',
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(durationCount(s, { surface: 'api', method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(
      1,
    );

    expect(valueOf(s, 'compliance_rate_limited_requests_total', { bucket: 'default' })).toBe(1);
    expect(valueOf(s, 'compliance_auth_failures_total', { surface: 'api', reason: 'missing_header' })).toBe(
      1,
    );
    expect(valueOf(s, 'compliance_auth_failures_total', { surface: 'api', reason: 'malformed' })).toBe(1);
    expect(
      valueOf(s, 'compliance_auth_failures_total', { surface: 'backoffice', reason: 'invalid_token' }),
    ).toBe(1);
    expect(
      valueOf(s, 'compliance_auth_failures_total', { surface: 'console', reason: 'sign_in_failed' }),
    ).toBe(1);
    expect(valueOf(s, 'compliance_auth_failures_total', { surface: 'embed', reason: 'invalid_token' })).toBe(
      1,
    );

    expect(valueOf(s, 'compliance_aml_evaluation_waiting')).toBe(2);
    expect(valueOf(s, 'compliance_aml_evaluation_oldest_seconds')).toBe(90);
    expect(valueOf(s, 'compliance_aml_evaluation_deadline_seconds')).toBe(300);
    expect(valueOf(s, 'compliance_aml_dead_letters')).toBe(0);
    expect(valueOf(s, 'compliance_review_cases_open', { queue: 'sanctions' })).toBe(1);
    expect(valueOf(s, 'compliance_review_cases_overdue', { queue: 'sanctions' })).toBe(0);
    expect(valueOf(s, 'compliance_review_oldest_open_case_seconds', { queue: 'sanctions' })).toBe(90);
    expect(valueOf(s, 'compliance_mail_outbox_depth')).toBe(1);
    expect(valueOf(s, 'compliance_group_commit_batch_size_count', { group: 'amlEvents' })).toBe(2);
    expect(valueOf(s, 'compliance_group_commit_batch_size_sum', { group: 'amlEvents' })).toBe(2);
    // The hit's event waits for delivery since it was emitted, 90 seconds ago.
    expect(valueOf(s, 'compliance_webhook_backlog_events')).toBeGreaterThanOrEqual(1);
    expect(valueOf(s, 'compliance_webhook_oldest_undelivered_seconds')).toBe(90);

    // The label values are bounded: route templates and names, never a player's id, an email, a token or an address.
    const values = s.flatMap((sample) => Object.values(sample.labels));
    for (const secret of [player, email, session.token, '127.0.0.1', d.tenant.tenantId, 'sam@example.com']) {
      expect(values.filter((value) => value.includes(secret))).toEqual([]);
    }
    expect(loaded.text).not.toContain('nobody@example.com');
  });

  it('shows webhook deliveries by outcome, a failing destination, and the backlog draining', async () => {
    const { d, t, url, failing } = suite.current;
    // The other tenant's destination is down: its event's attempt fails, and its destination counts as failing.
    failing.receiver.down = true;
    const screened = await failing.api('POST', '/v1/sanctions/screen', {
      user_id: failing.newUser(),
      first_name: 'SanctionedSam',
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      nationality: 'GB',
      email: 'sam@example.com',
    });
    expect(screened.statusCode).toBe(201);
    await t.deliverWebhooks();
    const s = (await scrape(url)).samples;
    expect(d.received('sanctions.hit').length).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(s, 'compliance_webhook_deliveries_total', { outcome: 'delivered' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(s, 'compliance_webhook_deliveries_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(valueOf(s, 'compliance_webhook_deliveries_total', { outcome: 'disabled' })).toBe(0);
    expect(valueOf(s, 'compliance_webhook_destinations', { state: 'failing' })).toBe(1);
    expect(valueOf(s, 'compliance_webhook_destinations', { state: 'disabled' })).toBe(0);
    // What is left waits for its retry: only the failing destination's events.
    const pending = await t.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('delivery_status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(valueOf(s, 'compliance_webhook_backlog_events')).toBe(Number(pending.n));
    // The AML events were evaluated by the same worker pass.
    expect(valueOf(s, 'compliance_aml_evaluation_waiting')).toBe(0);

    failing.receiver.down = false;
    await t.advance(3600);
    await t.deliverWebhooks();
    const after = (await scrape(url)).samples;
    expect(valueOf(after, 'compliance_webhook_backlog_events')).toBe(0);
    expect(valueOf(after, 'compliance_webhook_oldest_undelivered_seconds')).toBe(0);
    expect(valueOf(after, 'compliance_webhook_destinations', { state: 'failing' })).toBe(0);
  });

  it('shows a review case overdue past its 48 hours, and scheduled jobs due and late until a worker pass runs them', async () => {
    const { t, url } = suite.current;
    const open = (await scrape(url)).samples;
    const opened = valueOf(open, 'compliance_review_oldest_open_case_seconds', { queue: 'sanctions' })!;
    // Both tenants' hits: every case open now is overdue 48 hours on.
    const cases = valueOf(open, 'compliance_review_cases_open', { queue: 'sanctions' })!;
    expect(cases).toBe(2);
    expect(valueOf(open, 'compliance_review_cases_overdue', { queue: 'sanctions' })).toBe(0);
    // The clock moves, and no worker pass runs the jobs that fall due meanwhile (as if the worker had stopped).
    await t.platform.testClock!.advance(t.db, 48 * 3600);
    const s = (await scrape(url)).samples;
    expect(valueOf(s, 'compliance_review_cases_overdue', { queue: 'sanctions' })).toBe(cases);
    expect(valueOf(s, 'compliance_review_oldest_open_case_seconds', { queue: 'sanctions' })).toBe(
      opened + 48 * 3600,
    );
    // The case's "due soon" and "overdue" alerts, at least, are due and more than a minute late.
    expect(valueOf(s, 'compliance_scheduler_jobs_due')).toBeGreaterThanOrEqual(2);
    expect(valueOf(s, 'compliance_scheduler_jobs_late')).toBeGreaterThanOrEqual(2);
    await t.deliverWebhooks();
    const ran = (await scrape(url)).samples;
    expect(valueOf(ran, 'compliance_scheduler_jobs_due')).toBe(0);
    expect(valueOf(ran, 'compliance_scheduler_jobs_late')).toBe(0);
  });

  it('answers GET /metrics only; the back office keeps the same text as an alias, behind its token', async () => {
    const { t, url } = suite.current;
    expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
    const alias = await t.backoffice('GET', '/metrics');
    expect(alias.statusCode).toBe(200);
    expect(alias.body).toContain('# TYPE compliance_http_request_duration_seconds histogram');
    expect(alias.body).toContain('# TYPE process_cpu_seconds_total counter');
  });
});

describe('GET /metrics, the sanctions lists', () => {
  const suite = useSuite(async (own) => {
    const dir = new ListsDirectory(own);
    const live = await startLive(own, dir.path);
    return { t: live.t, live, dir, url: await live.t.listenMetrics() };
  });

  it("shows each list's age since publication against its allowed age, and the screening backlog of a new version", async () => {
    const { t, live, dir, url } = suite.current;
    await reloadLists(t);
    for (let i = 0; i < 5; i++) expect((await live.screen(live.person())).statusCode).toBe(201);
    dir.publish(t, designated(dir.xml, designation('CDi.902', 'NADIA', 'KOWALCZYK', '1985-03-14', 'Poland')));
    const version = await reloadLists(t);
    const s = (await scrape(url)).samples;
    // Published today, on a clock at 12:00 UTC; the files were put in place, not fetched: no fetch age.
    const sinceMidnight = (t.platform.clock.now().getTime() % 86_400_000) / 1000;
    expect(valueOf(s, 'compliance_sanctions_list_published_age_seconds', { list: 'un' })).toBe(sinceMidnight);
    expect(valueOf(s, 'compliance_sanctions_list_max_age_seconds', { list: 'un' })).toBe(7 * 86_400);
    expect(valueOf(s, 'compliance_sanctions_list_fetched_age_seconds', { list: 'un' })).toBeUndefined();
    const screening = version.screening!;
    expect(valueOf(s, 'compliance_sanctions_screening_backlog')).toBe(screening.total - screening.screened);
    expect(screening.total - screening.screened).toBeGreaterThan(0);

    await screenedAgainst(t, version.version_id);
    expect(valueOf((await scrape(url)).samples, 'compliance_sanctions_screening_backlog')).toBe(0);
  });
});
