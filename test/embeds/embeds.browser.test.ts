import type { Frame, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatTime } from '../../src/areas/embeds/locales/index.js';
import { check, told, uniqueEmail, userId } from '../../src/areas/exclusions/exclusions.test-support.js';
import { checkAccessibility, describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser.js';
import { FileServer } from '../helpers/file-server.js';
import { SmtpInbox } from '../helpers/smtp-inbox.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/** The page's whole transfer (the document, its stylesheet and script), compressed or not: under 60 KB. */
const MAX_TRANSFER_BYTES = 60 * 1024;
const NARROW = { width: 320, height: 720 };
const DESKTOP = { width: 1024, height: 800 };

/**
 * The hosted embeds in real Chromium, as a player meets them on an operator's site: framed by a host page served on
 * the tenant's registered origin with the one-line loader, the code read from a real SMTP server's mail. Every page
 * is checked with axe (no serious or critical violation) and photographed into test-artifacts/embeds.
 */
describeWithBrowser('hosted embeds in a browser', { timeout: 180_000 }, () => {
  const suite = useSuite(async (own) => {
    const inbox = own(await SmtpInbox.start());
    const t = own(await TestService.start({ smtpUrl: inbox.url }));
    const service = await t.listen();
    const hook = own(await WebhookReceiver.start());
    const tenant = await t.createTenant({ webhookUrl: hook.url, name: 'Casino Royale' });
    // The operator's site: one origin registered for framing, the same server under another name not.
    const site = own(await FileServer.start());
    const registered = site.base;
    const unregistered = site.base.replace('127.0.0.1', 'localhost');
    const origins = await t.backoffice('PUT', `/tenants/${tenant.tenantId}/embed-origins`, {
      origins: [registered],
    });
    expect(origins.statusCode, origins.body).toBe(200);
    const browser = own(await launchBrowser());
    return { t, inbox, hook, tenant, service, site, registered, unregistered, browser };
  });

  /** The operator's server creates a session over HTTP, as it would, and serves a page that embeds it. */
  async function hostPage(body: Record<string, unknown>, origin: string) {
    const { service, site, tenant } = suite.current;
    const response = await fetch(`${service}/v1/embeds/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ return_url: `${origin}/account`, ...body }),
    });
    expect(response.status).toBe(201);
    const session = (await response.json()) as { url: string; embed_session_id: string };
    expect(session.url.startsWith(`${service}/embeds/`)).toBe(true);
    const path = `/host-${session.embed_session_id}`;
    site.serve(path, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Casino Royale: my account</title></head><body>
<h1>My account</h1>
<script src="${service}/embed.js" async></script>
<div data-compliance-embed="${session.url}" data-title="Responsible gambling"></div>
<script>
  window.embedEvents = [];
  document.addEventListener('compliance-embed', (event) => window.embedEvents.push(event.detail));
</script>
</body></html>`,
    });
    return { ...session, userId: body.user_id as string, hostUrl: `${origin}${path}` };
  }

  async function openPage(viewport = DESKTOP, javaScriptEnabled = true): Promise<Page> {
    const context = await suite.current.browser.newContext({ viewport, javaScriptEnabled });
    suite.own({ close: () => context.close() });
    return context.newPage();
  }

  /** The embed's frame on the host page, once its document has loaded. */
  async function embedFrame(page: Page, sessionUrl: string): Promise<Frame> {
    await page.waitForSelector('iframe');
    await expect.poll(() => page.frames().some((f) => f.url() === sessionUrl)).toBe(true);
    const frame = page.frames().find((f) => f.url() === sessionUrl)!;
    await frame.waitForLoadState('load');
    return frame;
  }

  /** axe finds nothing serious in the frame's page, and a picture of the whole host page is kept. */
  async function checked(page: Page, frame: Frame, name: string) {
    await frame.waitForLoadState('load');
    expect.soft(await checkAccessibility(frame), `axe on ${name}`).toEqual([]);
    await screenshot(page, name, 'embeds');
  }

  /** Does what submits a form, and waits for the page it leads to (started first, so it cannot be missed). */
  async function submitting(target: Page | Frame, act: () => Promise<void>) {
    const navigated = target.waitForNavigation({ timeout: 15_000 });
    await act();
    await navigated;
  }

  async function deliver() {
    await suite.current.t.deliverWebhooks();
  }

  it('a player excludes themselves for 30 days in the embed on the registered origin; the exclusion is live and announced', async () => {
    const { t, inbox, hook, tenant, registered } = suite.current;
    const email = uniqueEmail().toLowerCase();
    const session = await hostPage(
      {
        kind: 'self_exclusion',
        user_id: userId(),
        email,
        locale: 'en-GB',
        operator_notice: 'Any balance stays in your account and you can withdraw it at any time.',
      },
      registered,
    );
    const page = await openPage();
    await page.goto(session.hostUrl);
    const frame = await embedFrame(page, session.url);
    await checked(page, frame, 'self-exclusion-host-choose');

    await frame.getByLabel('30 days', { exact: true }).check();
    await submitting(frame, () => frame.getByRole('button', { name: 'Continue' }).click());
    await expect.poll(() => frame.getByRole('heading', { level: 1 }).textContent()).toBe('Check your email');
    await checked(page, frame, 'self-exclusion-host-code');

    await deliver();
    const code = inbox.latestCode(email);
    await frame.getByLabel('Code from the email', { exact: true }).fill(code);
    await submitting(frame, () => frame.getByRole('button', { name: 'Confirm my exclusion' }).click());
    await expect.poll(() => frame.getByRole('heading', { level: 1 }).textContent()).toBe('You are excluded');
    await checked(page, frame, 'self-exclusion-host-done');

    // The host page heard of it from the frame (postMessage to its registered origin), through the loader.
    await expect
      .poll(() => page.evaluate('window.embedEvents.filter((e) => e.event === "exclusion_created")'))
      .toEqual([expect.objectContaining({ embed_session_id: session.embed_session_id })]);
    expect((await check(t, tenant, { email })).json()).toMatchObject({
      is_excluded: true,
      duration: 'duration_30d',
    });
    await deliver();
    expect(told(hook, tenant, 'exclusion.created')).toContainEqual(
      expect.objectContaining({ user_email: email, duration: 'duration_30d', source: 'operator' }),
    );
  });

  it('the same page on an unregistered origin is refused framing', async () => {
    const { unregistered } = suite.current;
    const session = await hostPage(
      { kind: 'self_exclusion', user_id: userId(), email: uniqueEmail() },
      unregistered,
    );
    const page = await openPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('frame-ancestors')) refusals.push(message.text());
    });
    await page.goto(session.hostUrl);
    await page.waitForSelector('iframe');
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    // Nothing of the embed rendered inside the frame.
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await frame.locator('form').count()).toBe(0);
    await screenshot(page, 'self-exclusion-unregistered-origin', 'embeds');
  });

  it('the limits embed sets, lowers and raises a limit, and says when the increase takes effect', async () => {
    const { t, registered } = suite.current;
    const session = await hostPage(
      { kind: 'deposit_limits', user_id: userId(), currency: 'EUR', locale: 'en' },
      registered,
    );
    const page = await openPage();
    await page.goto(session.hostUrl);
    const frame = await embedFrame(page, session.url);
    await checked(page, frame, 'limits-host-empty');

    const deposits = frame.getByRole('region', { name: 'Deposit limits' });
    const save = async (period: string, amount: string) => {
      await deposits.getByLabel('Period', { exact: true }).selectOption({ label: period });
      await deposits.getByLabel('Amount (EUR)', { exact: true }).fill(amount);
      await submitting(frame, () => deposits.getByRole('button', { name: 'Save deposit limit' }).click());
      return (await frame.getByRole('status').textContent())?.trim();
    };
    expect(await save('Daily (24 hours)', '500')).toBe(
      'Your deposit limit “Daily (24 hours)” is now €500.00.',
    );
    expect(await save('Daily (24 hours)', '300,50')).toBe(
      'Your deposit limit “Daily (24 hours)” is now €300.50.',
    );
    const raisedAt = t.platform.clock.now();
    // Above twice and up to five times the limit in force: 48 hours of cooling-off.
    const effective = formatTime('en', new Date(raisedAt.getTime() + 48 * 3_600_000));
    expect(await save('Daily (24 hours)', '1000')).toBe(
      `Your deposit limit “Daily (24 hours)” will rise to €1,000.00 on ${effective}, after its cooling-off period. Until then it stays at €300.50.`,
    );
    await expect(deposits.locator('.limit').textContent()).resolves.toContain(
      `Rises to €1,000.00 on ${effective}`,
    );
    await checked(page, frame, 'limits-host-pending');
    await expect
      .poll(() => page.evaluate('window.embedEvents.filter((e) => e.event === "limit_changed").length'))
      .toBe(3);
    // The tenant's API sees the same limits.
    const list = await t.api(suite.current.tenant.apiKey, 'GET', `/v1/limits?user_id=${session.userId}`);
    expect(list.json().limits[0]).toMatchObject({
      amount_cents: 30050,
      pending_change: { amount_cents: 100000 },
    });
  });

  it('a player sets a loss limit in the embed: in force at once, announced, and the host page is told', async () => {
    const { t, hook, tenant, registered } = suite.current;
    const session = await hostPage(
      { kind: 'deposit_limits', user_id: userId(), currency: 'EUR', locale: 'en' },
      registered,
    );
    const page = await openPage();
    await page.goto(session.hostUrl);
    const frame = await embedFrame(page, session.url);
    // The contents list leads to the section.
    await frame.getByRole('link', { name: 'Loss limits' }).click();
    const losses = frame.getByRole('region', { name: 'Loss limits' });
    await losses.getByLabel('Period', { exact: true }).selectOption({ label: 'Weekly (7 days)' });
    await losses.getByLabel('Amount (EUR)', { exact: true }).fill('200');
    await submitting(frame, () => losses.getByRole('button', { name: 'Save loss limit' }).click());
    expect((await frame.getByRole('status').textContent())?.trim()).toBe(
      'Your loss limit “Weekly (7 days)” is now €200.00.',
    );
    await expect(losses.locator('.limit').textContent()).resolves.toContain('€200.00');
    await checked(page, frame, 'limits-host-loss');
    await screenshot(page, 'limits-loss-en-desktop', 'embeds', losses);
    await expect
      .poll(() => page.evaluate('window.embedEvents.filter((e) => e.event === "limit_changed")'))
      .toEqual([
        expect.objectContaining({ limit_kind: 'loss', limit_type: 'limit_weekly', status: 'active' }),
      ]);
    const list = await t.api(tenant.apiKey, 'GET', `/v1/limits?user_id=${session.userId}&limit_kind=loss`);
    expect(list.json().limits).toEqual([
      expect.objectContaining({ limit_kind: 'loss', amount_cents: 20_000, status: 'active' }),
    ]);
    await deliver();
    expect(told(hook, tenant, 'limit.created')).toContainEqual(
      expect.objectContaining({ user_id: session.userId, limit_kind: 'loss', amount_cents: 20_000 }),
    );
  });

  it('a player takes a 7-day break on a phone: a confirmation first, then the break in force with its end', async () => {
    const { t, hook, tenant, registered } = suite.current;
    const session = await hostPage(
      { kind: 'deposit_limits', user_id: userId(), currency: 'EUR', locale: 'en' },
      registered,
    );
    const page = await openPage(NARROW);
    await page.goto(session.url);
    const breaks = page.getByRole('region', { name: 'Take a break' });
    await breaks.getByLabel('7 days', { exact: true }).check();
    await submitting(page, () => breaks.getByRole('button', { name: 'Continue' }).click());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Take a break for 7 days?');
    expect(await page.locator('.warning-text').textContent()).toContain('cannot be shortened or cancelled');
    expect.soft(await checkAccessibility(page), 'axe on the break confirmation').toEqual([]);
    await screenshot(page, 'time-out-confirm-en-narrow', 'embeds');
    // Nothing is taken before the player confirms.
    const before = await t.api(tenant.apiKey, 'GET', `/v1/time-outs?user_id=${session.userId}`);
    expect(before.json().time_outs).toEqual([]);

    const takenAt = t.platform.clock.now();
    await submitting(page, () => page.getByRole('button', { name: 'Yes, start my break of 7 days' }).click());
    const until = formatTime('en', new Date(takenAt.getTime() + 7 * 86_400_000));
    expect((await page.getByRole('status').textContent())?.trim()).toBe(
      `Your break has started. It lasts until ${until}.`,
    );
    await expect(breaks.locator('.done').textContent()).resolves.toBe(`You are on a break until ${until}.`);
    // Only a longer break can be chosen now.
    expect(await breaks.getByRole('radio').count()).toBe(2);
    expect.soft(await checkAccessibility(page), 'axe on the break in force').toEqual([]);
    await screenshot(page, 'time-out-taken-en-narrow', 'embeds', breaks);
    await deliver();
    expect(told(hook, tenant, 'timeout.started')).toContainEqual(
      expect.objectContaining({ user_id: session.userId, duration: 'duration_7d' }),
    );
  });

  it('the break on a desktop, framed, in German: confirmation and the break in force', async () => {
    const { registered } = suite.current;
    const session = await hostPage(
      { kind: 'deposit_limits', user_id: userId(), currency: 'EUR', locale: 'de' },
      registered,
    );
    const page = await openPage();
    await page.goto(session.hostUrl);
    const frame = await embedFrame(page, session.url);
    const breaks = frame.getByRole('region', { name: 'Eine Spielpause einlegen' });
    await breaks.getByLabel('24 Stunden', { exact: true }).check();
    await submitting(frame, () => breaks.getByRole('button', { name: 'Weiter' }).click());
    await checked(page, frame, 'time-out-confirm-de-desktop');
    await submitting(frame, () =>
      frame.getByRole('button', { name: 'Ja, 24 Stunden Pause beginnen' }).click(),
    );
    await expect
      .poll(() => page.evaluate('window.embedEvents.filter((e) => e.event === "timeout_started").length'))
      .toBe(1);
    await checked(page, frame, 'time-out-taken-de-desktop');
  });

  it('a player chooses 30 minutes between reality checks in the framed embed; sessions started afterwards take it', async () => {
    const { t, tenant, registered } = suite.current;
    const session = await hostPage(
      { kind: 'deposit_limits', user_id: userId(), currency: 'EUR', locale: 'en' },
      registered,
    );
    const page = await openPage();
    await page.goto(session.hostUrl);
    const frame = await embedFrame(page, session.url);
    await frame.getByRole('link', { name: 'Reality checks' }).click();
    const reminders = frame.getByRole('region', { name: 'Reality checks' });
    expect(await reminders.locator('.done').textContent()).toBe('Time between reminders: 1 hour');
    expect(await reminders.getByText("This is Casino Royale's default.", { exact: true }).isVisible()).toBe(
      true,
    );
    const choices = reminders.getByRole('group', { name: 'How much time do you want between reminders?' });
    expect(await choices.getByRole('radio').count()).toBe(5);
    await choices.getByLabel('30 minutes', { exact: true }).check();
    await submitting(frame, () => reminders.getByRole('button', { name: 'Save reminder setting' }).click());
    expect((await frame.getByRole('status').textContent())?.trim()).toBe(
      'Saved. From your next session, the time between reminders is 30 minutes.',
    );
    expect(await reminders.locator('.done').textContent()).toBe('Time between reminders: 30 minutes');
    expect(await reminders.getByText('You chose this.', { exact: true }).isVisible()).toBe(true);
    expect(await choices.getByLabel('30 minutes', { exact: true }).isChecked()).toBe(true);
    await checked(page, frame, 'reality-check-host-saved');
    await screenshot(page, 'reality-check-en-desktop', 'embeds', reminders);
    const started = await t.api(tenant.apiKey, 'POST', '/v1/play-sessions', {
      user_id: session.userId,
      session_id: `after-${session.embed_session_id}`,
      started_at: t.platform.clock.now().toISOString(),
    });
    expect(started.json()).toMatchObject({ allowed: true, reality_check_interval_seconds: 1800 });
  });

  it('on a phone, in German: 2 hours between reminders, then back to the default', async () => {
    const { registered } = suite.current;
    const session = await hostPage(
      { kind: 'deposit_limits', user_id: userId(), currency: 'EUR', locale: 'de' },
      registered,
    );
    const page = await openPage(NARROW);
    await page.goto(session.url);
    const reminders = page.getByRole('region', { name: 'Realitätschecks' });
    await reminders.getByLabel('2 Stunden', { exact: true }).check();
    await submitting(page, () => reminders.getByRole('button', { name: 'Erinnerungen speichern' }).click());
    expect((await page.getByRole('status').textContent())?.trim()).toBe(
      'Gespeichert. Ab Ihrer nächsten Sitzung erinnern wir Sie im Abstand von 2 Stunden.',
    );
    expect(await reminders.locator('.done').textContent()).toBe('Zeit zwischen den Erinnerungen: 2 Stunden');
    expect(await reminders.getByText('Das haben Sie selbst gewählt.', { exact: true }).isVisible()).toBe(
      true,
    );
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
    expect.soft(await checkAccessibility(page), 'axe on the reality checks, German, phone').toEqual([]);
    await screenshot(page, 'reality-check-de-narrow', 'embeds', reminders);

    await reminders.getByLabel('Voreinstellung von Casino Royale (1 Stunde)', { exact: true }).check();
    await submitting(page, () => reminders.getByRole('button', { name: 'Erinnerungen speichern' }).click());
    expect(await reminders.locator('.done').textContent()).toBe('Zeit zwischen den Erinnerungen: 1 Stunde');
    expect(
      await reminders.getByText('Das ist die Voreinstellung von Casino Royale.', { exact: true }).isVisible(),
    ).toBe(true);
  });

  it('a player completes the German self-exclusion with the keyboard alone', async () => {
    const { inbox, t, tenant } = suite.current;
    const email = uniqueEmail().toLowerCase();
    const session = await hostPage(
      { kind: 'self_exclusion', user_id: userId(), email, locale: 'de-DE' },
      suite.current.registered,
    );
    const page = await openPage();
    await page.goto(session.url);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    const focusedLabel = () =>
      page.evaluate(
        `(() => { const f = document.activeElement; return f.labels?.[0]?.textContent ?? f.textContent; })()`,
      );
    // Tab to the first choice, move to "7 Tage" with the arrow keys, and go on with Enter.
    for (let i = 0; i < 10 && (await focusedLabel()) !== '24 Stunden'; i++) await page.keyboard.press('Tab');
    expect(await focusedLabel()).toBe('24 Stunden');
    await page.keyboard.press('ArrowDown');
    expect(await focusedLabel()).toBe('7 Tage');
    await submitting(page, () => page.keyboard.press('Enter'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Sehen Sie in Ihr E-Mail-Postfach',
    );
    await deliver();
    const [mail] = inbox.to(email);
    expect(mail!.subject).toBe('Ihr Bestätigungscode');
    // The code field has the focus's next stop: type the code, then Enter submits the form.
    for (let i = 0; i < 10 && (await focusedLabel()) !== 'Code aus der E-Mail'; i++)
      await page.keyboard.press('Tab');
    await page.keyboard.type(inbox.latestCode(email));
    await submitting(page, () => page.keyboard.press('Enter'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sie sind gesperrt');
    expect((await check(t, tenant, { email })).json()).toMatchObject({
      is_excluded: true,
      duration: 'duration_7d',
    });
  });

  it('without script, a permanent exclusion asks its second confirmation and completes with plain form posts', async () => {
    const { inbox, t, tenant, registered } = suite.current;
    const email = uniqueEmail().toLowerCase();
    const session = await hostPage({ kind: 'self_exclusion', user_id: userId(), email }, registered);
    const page = await openPage(DESKTOP, false);
    await page.goto(session.url);
    await page.getByLabel('Permanently', { exact: true }).check();
    await submitting(page, () => page.getByRole('button', { name: 'Continue' }).click());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Exclude yourself permanently?');
    // Not ticked: asked again, with the box named in the error summary.
    await submitting(page, () => page.getByRole('button', { name: 'Yes, exclude me permanently' }).click());
    expect(await page.getByRole('alert').textContent()).toContain('Tick the box');
    await page
      .getByLabel('I understand that a permanent exclusion can never be undone', { exact: true })
      .check();
    await submitting(page, () => page.getByRole('button', { name: 'Yes, exclude me permanently' }).click());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Check your email');
    await deliver();
    await page.getByLabel('Code from the email', { exact: true }).fill(inbox.latestCode(email));
    await submitting(page, () => page.getByRole('button', { name: 'Confirm my exclusion' }).click());
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('You are excluded');
    expect((await page.locator('.done').textContent())?.trim()).toBe('Your exclusion is permanent.');
    expect((await check(t, tenant, { email })).json()).toMatchObject({
      is_excluded: true,
      is_permanent: true,
    });
  });

  it('both pages in English and German, at desktop and 320 px width: accessible, under 60 KB, and photographed', async () => {
    const { registered } = suite.current;
    for (const locale of ['en', 'de']) {
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['narrow', NARROW],
      ] as const) {
        for (const kind of ['self_exclusion', 'deposit_limits'] as const) {
          const session = await hostPage(
            { kind, user_id: userId(), email: uniqueEmail(), currency: 'EUR', locale },
            registered,
          );
          const page = await openPage(viewport);
          const response = await page.goto(session.url);
          expect(response?.status()).toBe(200);
          expect.soft(await checkAccessibility(page), `axe on ${kind} ${locale} ${size}`).toEqual([]);
          const transferred = await page.evaluate(`(() => {
            const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
            return entries.reduce((sum, e) => sum + e.transferSize, 0);
          })()`);
          expect(transferred).toBeLessThan(MAX_TRANSFER_BYTES);
          // Readable at 320 px: nothing wider than the window.
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
          await screenshot(page, `${kind.replace('_', '-')}-${locale}-${size}`, 'embeds');
          if (kind === 'self_exclusion' && size === 'desktop') {
            // The permanent exclusion's own confirmation page, and its error summary.
            await page.locator('#duration-duration_permanent').check();
            await submitting(page, () => page.locator('button[type=submit]').click());
            expect
              .soft(await checkAccessibility(page), `axe on the permanent confirmation ${locale}`)
              .toEqual([]);
            await screenshot(page, `self-exclusion-permanent-${locale}`, 'embeds');
            await submitting(page, () => page.locator('button.warning').click());
            expect.soft(await checkAccessibility(page), `axe on its error summary ${locale}`).toEqual([]);
            await screenshot(page, `self-exclusion-permanent-error-${locale}`, 'embeds');
          }
        }
      }
    }
  });
});
