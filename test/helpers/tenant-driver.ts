import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/config.js';
import type { Environment } from '../../src/platform/db/platform-tables.js';
import type { WebhookEnvelope } from '../../src/platform/outbox.js';
import type { VendorOverrides } from '../../src/platform/vendors.js';
import { TestService, type Method, type TestTenant } from './test-service.js';
import { WebhookReceiver } from './webhook-receiver.js';

export interface DriverOptions {
  /** Settings of the service, over the test defaults (TestService.start). */
  config?: Partial<Config> & { vendors?: VendorOverrides };
  /** The tenant's environment; sandbox unless told. */
  environment?: Environment;
  /** The tenant's name, where a test shows it (mails, pages). */
  name?: string;
}

type DriverClass<D> = new (t: TestService, tenant: TestTenant, receiver: WebhookReceiver) => D;

/**
 * The one shape of a service test: a whole service on a copy of the PGlite template (`t`), one tenant of it, and the
 * receiver its webhooks arrive at. Each area's driver extends it with the calls its tests make
 * (`<area>.test-support.ts`). A suite holds one, `useSuite(() => AreaDriver.start())`, with a fresh player before
 * each test where the area keys its data by player (`{ eachTest: (d) => d.newUser() }`); a test reads it as
 * `suite.current`, and asks `otherTenant()` for a tenant of its own.
 */
export class TenantDriver {
  /** The current test's player, once newUser() named one. */
  userId = '';
  /** Receivers of the other tenants started on this service, shared by their drivers; closed with the first. */
  private otherReceivers: WebhookReceiver[] = [];

  constructor(
    readonly t: TestService,
    readonly tenant: TestTenant,
    readonly receiver: WebhookReceiver,
  ) {}

  /** A fresh service with one tenant, whose webhooks go to a new receiver; a driver of the class it is called on. */
  static async start<D extends TenantDriver>(this: DriverClass<D>, options: DriverOptions = {}): Promise<D> {
    const t = await TestService.start(options.config);
    let receiver: WebhookReceiver | undefined;
    try {
      receiver = await WebhookReceiver.start();
      const { environment, name } = options;
      const tenant = await t.createTenant({ environment, name, webhookUrl: receiver.url });
      const driver = new this(t, tenant, receiver);
      await driver.setUp();
      return driver;
    } catch (error) {
      // Nothing holds the parts yet: close them here, or the suite would leave a database and a port open.
      await t.close();
      await receiver?.close();
      throw error;
    }
  }

  /** A driver of the same kind for a new tenant of the same service, with a receiver of its own. */
  async otherTenant(options: { environment?: Environment } = {}): Promise<this> {
    const receiver = await WebhookReceiver.start();
    this.otherReceivers.push(receiver);
    const tenant = await this.t.createTenant({ environment: options.environment, webhookUrl: receiver.url });
    const other = new (this.constructor as DriverClass<this>)(this.t, tenant, receiver);
    other.otherReceivers = this.otherReceivers;
    await other.setUp();
    return other;
  }

  /** What an area's driver needs of its tenant before the first test (a key of another role, say); nothing here. */
  protected async setUp(): Promise<void> {}

  /** Names a player no other test uses, and makes them the current one. */
  newUser(label = 'player'): string {
    this.userId = `${label}-${randomBytes(4).toString('hex')}`;
    return this.userId;
  }

  /** A call of the tenant API with this tenant's key. */
  api(method: Method, url: string, body?: object) {
    return this.t.api(this.tenant.apiKey, method, url, body);
  }

  /** The service clock's now, as the API writes timestamps. */
  now(): string {
    return this.at(0);
  }

  /** The service clock's now plus `seconds` (negative: earlier), as the API writes timestamps. */
  at(seconds: number): string {
    return new Date(this.t.platform.clock.now().getTime() + seconds * 1000).toISOString();
  }

  /**
   * The webhooks this tenant has received so far, each verified with its signing secret as a tenant would, optionally
   * only those of one event and of one player. (This and webhooks are arrow functions: a test may take them apart.)
   */
  received = (event?: string, userId?: string): WebhookEnvelope[] =>
    this.receiver
      .verified(this.tenant.signingSecret)
      .filter((e) => (!event || e.event === event) && (!userId || e.data.user_id === userId));

  /** Runs one worker pass (due jobs, then webhook delivery), then answers received(event, userId). */
  webhooks = async (event: string, userId = this.userId): Promise<WebhookEnvelope[]> => {
    await this.t.deliverWebhooks();
    return this.received(event, userId);
  };

  async close(): Promise<void> {
    await this.t.close();
    for (const receiver of [this.receiver, ...this.otherReceivers]) await receiver.close();
  }
}
