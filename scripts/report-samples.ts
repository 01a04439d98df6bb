/**
 * Prints the samples in docs/reports.md: a test service (the test clock at 2030-01-01T12:00Z, an empty database)
 * given a few events and limit changes, then the day's reports as compiled at 00:15 the next day. Run with
 * `npx tsx scripts/report-samples.ts`; the output is the same every time but for the generated ids.
 */
import { TestService } from '../test/helpers/test-service.js';

/** The JSON file with one row a line: the same data as the file, laid out to be read in the docs. */
function compactJson(text: string): string {
  const { report, rows, totals } = JSON.parse(text) as {
    report: unknown;
    rows: unknown[];
    totals: unknown[];
  };
  const list = (items: unknown[]) => items.map((item) => `    ${JSON.stringify(item)}`).join(',\n');
  return `{\n  "report": ${JSON.stringify(report)},\n  "rows": [\n${list(rows)}\n  ],\n  "totals": [\n${list(totals)}\n  ]\n}`;
}

const t = await TestService.start();
try {
  const tenant = await t.createTenant({ name: 'Sample Operator' });
  await t.backoffice('PUT', '/fx-rates/EUR', { usd_per_unit: 1.1 });
  const at = (hour: number) => `2030-01-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
  const event = (user: string, type: string, id: string, cents: number, currency: string, hour: number) =>
    t.api(tenant.apiKey, 'POST', '/v1/aml/event', {
      user_id: user,
      event_type: type,
      transaction_id: id,
      amount_cents: cents,
      currency,
      payment_method: 'card',
      metadata: {},
      occurred_at: at(hour),
    });
  await event('player-17', 'deposit', 'dep-1001', 600_000, 'USD', 2);
  await event('player-17', 'deposit', 'dep-1002', 450_000, 'USD', 9);
  await event('player-42', 'deposit', 'dep-2001', 909_100, 'EUR', 6);
  await event('player-42', 'withdrawal', 'wd-2002', 250_000, 'EUR', 10);
  const limit = (user: string, amount: number) =>
    t.api(tenant.apiKey, 'POST', '/v1/limits', {
      user_id: user,
      limit_type: 'limit_weekly',
      amount_cents: amount,
      currency: 'USD',
      requested_at: t.platform.clock.now().toISOString(),
    });
  await limit('player-17', 50_000);
  await limit('player-17', 150_000);
  await t.api(tenant.apiKey, 'POST', '/v1/limits/check', {
    user_id: 'player-17',
    amount_cents: 60_000,
    currency: 'USD',
  });
  // Another kind: player-31's daily loss limit of 100.00 refuses a stake of 150.00; a play-time limit in seconds.
  await t.api(tenant.apiKey, 'POST', '/v1/limits', {
    user_id: 'player-31',
    limit_kind: 'loss',
    limit_type: 'limit_daily',
    amount_cents: 10_000,
    currency: 'USD',
    requested_at: t.platform.clock.now().toISOString(),
  });
  await t.api(tenant.apiKey, 'POST', '/v1/limits', {
    user_id: 'player-31',
    limit_kind: 'play_time',
    limit_type: 'limit_daily',
    amount_seconds: 7_200,
    requested_at: t.platform.clock.now().toISOString(),
  });
  await t.api(tenant.apiKey, 'POST', '/v1/limits/wager-check', {
    user_id: 'player-31',
    amount_cents: 15_000,
    currency: 'USD',
  });
  await t.api(tenant.apiKey, 'POST', '/v1/exclusions', {
    user_id: 'player-99',
    duration: 'duration_6m',
    email: 'p99@example.com',
  });
  await t.api(tenant.apiKey, 'POST', '/v1/time-outs', { user_id: 'player-55', duration: 'duration_7d' });
  await t.advance(12 * 3600 + 15 * 60);
  const listed = await t.backoffice('GET', `/reports?tenant_id=${tenant.tenantId}&period=2030-01-01`);
  for (const report of listed
    .json<{ reports: { report_id: string; report_type: string }[] }>()
    .reports.reverse()) {
    for (const format of ['csv', 'json'] as const) {
      const content = await t.backoffice('GET', `/reports/${report.report_id}/content?format=${format}`);
      const body = format === 'json' ? compactJson(content.body) : content.body.replaceAll('\r\n', '\n');
      console.log(`### ${report.report_type} (${format})\n\n\`\`\`${format}\n${body.trimEnd()}\n\`\`\`\n`);
    }
  }
} finally {
  await t.close();
}
