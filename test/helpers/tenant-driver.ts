import { TestService, type TestTenant } from './test-service.js';
import { WebhookReceiver } from './webhook-receiver.js';

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
