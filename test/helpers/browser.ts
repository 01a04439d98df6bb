import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Frame,
  type Locator,
  type Page,
} from 'playwright-core';
import { describe } from 'vitest';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = path.join(PROJECT_ROOT, 'test-artifacts');
export const CHROMIUM_PATH = '/usr/bin/chromium';

// The machine's network is closed: nothing in the browser may try to reach out (updates, sync, QUIC probes).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** CI sets this so a missing browser fails the run instead of skipping the console's tests. */
const browserRequired = (): boolean => process.env.COMPLIANCE_REQUIRE_BROWSER === '1';

export function browserAvailable(executablePath = CHROMIUM_PATH): boolean {
  return fs.existsSync(executablePath);
}

/** `describe` where tests can run (or must, in CI); `describe.skip` on a fresh clone without chromium. */
export const describeWithBrowser = browserAvailable() || browserRequired() ? describe : describe.skip;

/**
 * A headless Chromium; close it with `browser.close()`. Playwright gives each launch a fresh temporary profile
 * (user data dir) and removes it at close: `--user-data-dir` in `args` is refused by `launch`, and a persistent
 * context would share one cookie jar between all pages.
 */
export async function launchBrowser(options: { executablePath?: string } = {}): Promise<Browser> {
  const executablePath = options.executablePath ?? CHROMIUM_PATH;
  if (!browserAvailable(executablePath)) {
    const why = browserRequired() ? ' and COMPLIANCE_REQUIRE_BROWSER=1 requires the browser tests' : '';
    throw new Error(`Chromium not found at ${executablePath}${why}: install it (apt-get install chromium)`);
  }
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 15_000 });
}

export interface StaffPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, CSP violations excepted. */
  consoleErrors(): string[];
  /** Console messages reporting a Content Security Policy violation (a blocked inline script, say). */
  cspViolations(): string[];
  close(): Promise<void>;
}

/** A staff member's own browser window: a fresh context (its own cookie jar) and page, watched for errors. */
export async function newStaffPage(browser: Browser, baseUrl: string): Promise<StaffPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const violations: string[] = [];
  page.on('console', (message) => {
    // Chromium reports CSP violations only as console messages; pageerror never sees a blocked script.
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
    // A failed load's text omits its address; the location holds it.
    else if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return {
    page,
    context,
    consoleErrors: () => [...errors],
    cspViolations: () => [...violations],
    close: () => context.close(),
  };
}

export interface AxeViolation {
  id: string;
  impact: 'serious' | 'critical';
  help: string;
  /** One selector per offending node (shadow DOM and frame paths joined by " >>> "). */
  targets: string[];
}

let axeSource: string | undefined;

/** The page's (or a frame's) serious and critical accessibility violations by axe-core; [] when it has none. */
export async function checkAccessibility(page: Page | Frame): Promise<AxeViolation[]> {
  axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // An injected <script> would be blocked by the console's CSP; evaluation over CDP is not subject to it.
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  if (!loaded) await page.evaluate(`${axeSource}\n;undefined`);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(options: object): Promise<AxeResults> } }).axe;
    const results = await axe.run({ resultTypes: ['violations'] });
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact as 'serious' | 'critical',
        help: violation.help,
        targets: violation.nodes.map((node) =>
          node.target.map((part) => [part].flat().join(' >>> ')).join(' >>> '),
        ),
      }));
  });
}

/**
 * Saves the whole page (or only `of`, one part of it) as test-artifacts/<folder>/<name>.png (gitignored) and returns
 * the file's path.
 */
export async function screenshot(
  page: Page,
  name: string,
  folder = 'console',
  of?: Locator,
): Promise<string> {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`screenshot name must be a plain file name: ${name}`);
  fs.mkdirSync(path.join(ARTIFACTS, folder), { recursive: true });
  const file = path.join(ARTIFACTS, folder, `${name}.png`);
  await (of ? of.screenshot({ path: file }) : page.screenshot({ path: file, fullPage: true }));
  return file;
}

/**
 * Fills each field found by its label, presses the button named `submit` and waits for the page it leads to,
 * as a staff member would (so an unlabelled field fails the test).
 */
export async function fillAndSubmit(
  page: Page,
  fields: Record<string, string>,
  submit: string,
): Promise<void> {
  for (const [label, value] of Object.entries(fields))
    await page.getByLabel(label, { exact: true }).fill(value);
  const loaded = page.waitForEvent('load');
  await page.getByRole('button', { name: submit, exact: true }).click();
  await loaded;
}
