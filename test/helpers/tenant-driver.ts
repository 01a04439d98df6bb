import type { Config } from '../../src/config.js';
import type { Environment } from '../../src/platform/db/platform-tables.js';
import type { Own } from './suite.js';
import { TestService, type TestTenant } from './test-service.js';
import { WebhookReceiver } from './webhook-receiver.js';

interface StartOptions {
  config?: Partial<Config>;
  environment?: Environment;
}

/** A fresh service (`own` takes it to close) and one tenant of it. */
export async function startServiceWithTenant(
  own: Own,
  options: StartOptions = {},
): Promise<{ t: TestService; tenant: TestTenant }> {
  const t = own(await TestService.start(options.config));
  return { t, tenant: await t.createTenant({ environment: options.environment }) };
}

/** A fresh service and one tenant of it whose webhooks arrive at a new receiver; `own` takes both to close. */
export async function startServiceWithReceiver(
  own: Own,
  options: StartOptions = {},
): Promise<{ t: TestService; receiver: WebhookReceiver; tenant: TestTenant }> {
  const t = own(await TestService.start(options.config));
  const receiver = own(await WebhookReceiver.start());
  const tenant = await t.createTenant({ environment: options.environment, webhookUrl: receiver.url });
  return { t, receiver, tenant };
}

/** What an area's test driver stands on: a service, one tenant, and the receiver its webhooks arrive at. */
export class TenantDriver {
  constructor(
    readonly t: TestService,
    readonly tenant: TestTenant,
    readonly receiver: WebhookReceiver,
  ) {}

  /** A fresh service with one sandbox tenant whose webhooks go to a new receiver. */
  static async parts(): Promise<[TestService, TestTenant, WebhookReceiver]> {
    const t = await TestService.start();
    const receiver = await WebhookReceiver.start();
    return [t, await t.createTenant({ webhookUrl: receiver.url }), receiver];
  }

  async close(): Promise<void> {
    await this.t.close();
    await this.receiver.close();
  }
}
