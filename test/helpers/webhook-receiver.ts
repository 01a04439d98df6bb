import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { WebhookEnvelope } from '../../src/platform/outbox.js';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  envelope: WebhookEnvelope;
}

/** A tenant's webhook endpoint on loopback. It answers each request with the next status of `statuses` (then 200). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private statuses: number[] = [];
  private server!: http.Server;
  url = '';

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        receiver.received.push({ headers: req.headers, body, envelope: JSON.parse(body) as WebhookEnvelope });
        res.statusCode = receiver.statuses.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
    return receiver;
  }

  respondWith(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  /** Verifies every received webhook's signature as a tenant's code would, with the standardwebhooks package. */
  verified(signingSecret: string): WebhookEnvelope[] {
    const webhook = new Webhook(signingSecret);
    return this.received.map(
      (r) => webhook.verify(r.body, r.headers as Record<string, string>) as WebhookEnvelope,
    );
  }

  of(event: string): WebhookEnvelope[] {
    return this.received.map((r) => r.envelope).filter((e) => e.event === event);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
