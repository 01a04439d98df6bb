import type { Browser, Locator } from 'playwright-core';
import { expect } from 'vitest';
import { totpCode } from '../../src/staff/totp.js';
import {
  checkAccessibility,
  fillAndSubmit,
  newStaffPage,
  screenshot,
  type StaffPage,
} from '../helpers/browser.js';
import type { TestService } from '../helpers/test-service.js';

/** One member of staff as the browser tests know them: what they typed at setup, and their own window. */
export interface Credentials {
  email: string;
  displayName: string;
  password: string;
  /** Read from the setup page, as an authenticator app would enrol it. */
  totpSecret?: string;
}

/**
 * A member of staff at their own browser window (a context of their own, so their own cookie jar). Every page they
 * land on is checked as the issue asks: no serious or critical axe violation, no CSP violation, no console error,
 * and a screenshot under a unique name.
 */
export class ConsoleUser {
  private constructor(
    private readonly t: TestService,
    readonly window: StaffPage,
    readonly who: Credentials,
    private readonly names: Set<string>,
  ) {}

  static async open(
    t: TestService,
    browser: Browser,
    baseUrl: string,
    who: Credentials,
    names: Set<string>,
  ): Promise<ConsoleUser> {
    return new ConsoleUser(t, await newStaffPage(browser, baseUrl), who, names);
  }

  get page() {
    return this.window.page;
  }

  /** The path and query of the page now shown. */
  get at(): string {
    const url = new URL(this.page.url());
    return url.pathname + url.search;
  }

  heading(): Promise<string | null> {
    return this.page.getByRole('heading', { level: 1 }).textContent();
  }

  /** The checks every page passes; soft, so one run names every page's faults at once. */
  async check(name: string): Promise<void> {
    if (this.names.has(name)) throw new Error(`screenshot name used twice: ${name}`);
    this.names.add(name);
    await this.page.waitForLoadState('load');
    expect.soft(await checkAccessibility(this.page), `axe on ${name} (${this.at})`).toEqual([]);
    expect.soft(this.window.cspViolations(), `CSP on ${name} (${this.at})`).toEqual([]);
    expect.soft(this.window.consoleErrors(), `console errors on ${name} (${this.at})`).toEqual([]);
    await screenshot(this.page, name);
  }

  async goto(path: string, name: string): Promise<void> {
    const response = await this.page.goto(path);
    expect(response?.status(), `GET ${path}`).toBe(200);
    await this.check(name);
  }

  /** The element with the keyboard focus and its outline as drawn (the project's TypeScript has no DOM types). */
  focused(): Promise<{ tag: string; outlineStyle: string }> {
    return this.page.evaluate(`(() => {
      const focused = document.activeElement;
      return { tag: focused.tagName, outlineStyle: getComputedStyle(focused).outlineStyle };
    })()`);
  }

  /** Clicks what leads to another page and waits for it to load. */
  async follow(target: Locator, name: string): Promise<void> {
    const loaded = this.page.waitForEvent('load');
    await target.click();
    await loaded;
    await this.check(name);
  }

  link(name: string | RegExp): Locator {
    return this.page.getByRole('link', { name, exact: typeof name === 'string' });
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** A top navigation entry, as a mouse user reaches a page. */
  nav(label: string, name: string): Promise<void> {
    return this.follow(
      this.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: label, exact: true }),
      name,
    );
  }

  async submit(fields: Record<string, string>, button: string, name: string): Promise<void> {
    await fillAndSubmit(this.page, fields, button);
    await this.check(name);
  }

  /** Presses a key that navigates (the queue's Enter, a case page's t) and waits for the page it leads to. */
  async pressToNavigate(key: string, name: string): Promise<void> {
    const loaded = this.page.waitForEvent('load');
    await this.page.keyboard.press(key);
    await loaded;
    await this.check(name);
  }

  /**
   * Completes the one-time setup link: password, then the authenticator's key read from the page (its hidden field
   * is what the form posts; the shown key is the same, grouped by four).
   */
  async setUp(setupPath: string, names: { form: string; done: string }): Promise<void> {
    await this.goto(setupPath, names.form);
    const secret = await this.page.locator('input[name="totp_secret"]').inputValue();
    expect((await this.page.locator('#totp-secret').textContent())?.replace(/\s/g, '')).toBe(secret);
    this.who.totpSecret = secret;
    await this.submit(
      { Password: this.who.password, 'Authentication code': totpCode(secret, this.t.platform.clock.now()) },
      'Save and continue',
      names.done,
    );
    expect(await this.heading()).toBe('Your account is ready');
    // The setup spent this time step's code: the sign-in needs the next one.
    await this.t.advance(30);
  }

  /** Signs in through the form, landing on `next` (the dashboard by default). */
  async signIn(names: { form: string; landing: string }, next?: string): Promise<void> {
    const path = next ? `/console/login?next=${encodeURIComponent(next)}` : '/console/login';
    await this.goto(path, names.form);
    await this.submit(
      {
        Email: this.who.email,
        Password: this.who.password,
        'Authentication code': totpCode(this.who.totpSecret!, this.t.platform.clock.now()),
      },
      'Sign in',
      names.landing,
    );
    expect(this.at).toBe(next ?? '/console');
    expect(await this.page.locator('header .who').textContent()).toContain(this.who.displayName);
    // A code works once: the next sign-in of this member needs a later time step.
    await this.t.advance(30);
  }

  async signOut(name: string): Promise<void> {
    await this.follow(this.button('Sign out'), name);
    expect(this.at).toBe('/console/login');
  }

  /** The audit log searched by tenant through its form. */
  async auditOfTenant(tenantId: string, names: { all: string; filtered: string }): Promise<void> {
    await this.nav('Audit log', names.all);
    await this.submit({ Tenant: tenantId }, 'Search', names.filtered);
    expect(this.at).toContain(`tenant=${tenantId}`);
  }

  /** The text of the audit row of `action` on `caseId`: who did it is in its Actor cell. */
  async auditRow(action: string, caseId: string): Promise<string> {
    const rows = this.page.locator('tbody tr').filter({ hasText: action }).filter({ hasText: caseId });
    expect(await rows.count(), `${action} on ${caseId} in the audit log`).toBe(1);
    return (await rows.locator('td').nth(1).textContent()) ?? '';
  }

  close(): Promise<void> {
    return this.window.close();
  }
}
