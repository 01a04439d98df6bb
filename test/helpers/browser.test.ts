import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import {
  checkAccessibility,
  describeWithBrowser,
  fillAndSubmit,
  launchBrowser,
  newStaffPage,
  screenshot,
} from './browser.js';
import { useSuite } from './suite.js';

// The console's policy: only the server's own scripts and styles, and never inside a frame.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'";

const HTML = 'text/html; charset=utf-8';

const GOOD_PAGE = `<!doctype html>
<html lang="en">
<head><title>Cases</title><script src="/app.js" defer></script></head>
<body><main>
  <h1>Cases</h1>
  <p id="status">Script not run</p>
  <form method="post" action="/search">
    <label for="player">Player id</label> <input id="player" name="player">
    <button type="submit">Search</button>
  </form>
</main></body>
</html>`;

const BAD_PAGE = `<!doctype html>
<html lang="en">
<head><title>Broken</title></head>
<body><main>
  <p id="status">Inline not run</p>
  <input name="unlabelled">
  <img src="/app.js">
  <script>document.getElementById('status').textContent = 'Inline ran';</script>
</main></body>
</html>`;

async function startConsoleServer() {
  const app = Fastify();
  await app.register(formbody);
  app.addHook('onSend', async (_request, reply) => void reply.header('content-security-policy', CSP));
  app.get('/good', (_request, reply) => reply.type(HTML).send(GOOD_PAGE));
  app.get('/bad', (_request, reply) => reply.type(HTML).send(BAD_PAGE));
  // Chromium asks every site for one, and a 404 is a console error: the console must answer it too.
  app.get('/favicon.ico', (_request, reply) => reply.code(204).send());
  app.get('/app.js', (_request, reply) =>
    reply.type('text/javascript').send("document.getElementById('status').textContent = 'Script ran';"),
  );
  app.post<{ Body: { player: string } }>('/search', (request, reply) =>
    reply.type(HTML).send(`<!doctype html><html lang="en"><head><title>Results</title></head>
      <body><main><h1>Results for ${encodeURIComponent(request.body.player)}</h1></main></body></html>`),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

describeWithBrowser('browser harness', () => {
  const suite = useSuite(async (own) => {
    const server = own(await startConsoleServer());
    const browser = own(await launchBrowser());
    return { server, browser };
  });
  const openStaffPage = async () => {
    const staff = await newStaffPage(suite.current.browser, suite.current.server.url);
    suite.own(staff);
    return staff;
  };

  it('runs the console’s own script under its CSP and finds a well-made page accessible', async () => {
    const staff = await openStaffPage();
    await staff.page.goto('/good');

    expect(await staff.page.locator('#status').textContent()).toBe('Script ran');
    expect(await checkAccessibility(staff.page)).toEqual([]);
    expect(staff.cspViolations()).toEqual([]);
    expect(staff.consoleErrors()).toEqual([]);
  });

  it('reports a page’s serious accessibility faults and records the inline script the CSP blocked', async () => {
    const staff = await openStaffPage();
    await staff.page.goto('/bad');

    const violations = await checkAccessibility(staff.page);
    expect(violations.map((violation) => violation.id).sort()).toEqual(['image-alt', 'label']);
    for (const violation of violations) expect(['serious', 'critical']).toContain(violation.impact);
    expect(violations.find((violation) => violation.id === 'label')?.targets).toEqual(['input']);
    expect(violations.find((violation) => violation.id === 'image-alt')?.targets).toEqual(['img']);

    expect(await staff.page.locator('#status').textContent()).toBe('Inline not run');
    await expect.poll(() => staff.cspViolations()).toEqual([expect.stringContaining("script-src 'self'")]);
  });

  it('fills a form by its labels and lands on the page it submits to', async () => {
    const staff = await openStaffPage();
    await staff.page.goto('/good');

    await fillAndSubmit(staff.page, { 'Player id': 'p-42' }, 'Search');

    expect(await staff.page.getByRole('heading', { level: 1 }).textContent()).toBe('Results for p-42');
    expect(staff.consoleErrors()).toEqual([]);
  });

  it('saves a full-page screenshot under test-artifacts/console', async () => {
    const staff = await openStaffPage();
    await staff.page.goto('/good');

    const file = await screenshot(staff.page, 'harness-good-page');

    expect(file).toMatch(/test-artifacts\/console\/harness-good-page\.png$/);
    // A PNG starts with its 8-byte signature.
    expect(fs.readFileSync(file).subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  });

  it('names the missing browser instead of failing somewhere inside Playwright', async () => {
    await expect(launchBrowser({ executablePath: '/nonexistent/chromium' })).rejects.toThrow(
      /Chromium not found at \/nonexistent\/chromium/,
    );
  });
});
