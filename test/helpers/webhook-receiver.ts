import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { EVENT_CATALOGUE } from '../../src/manifests.js';
import { eventEnvelope } from '../../src/platform/events.js';
import type { WebhookEnvelope } from '../../src/platform/outbox.js';
import { validatorCompiler } from '../../src/platform/validation.js';

/**
 * Each catalogued event's envelope, validated as the service validates a request body: every event a test's flow
 * really sends is checked against the schema the OpenAPI document and the typed client publish for it.
 */
const compile = validatorCompiler();
const ENVELOPES = new Map(
  Object.entries(EVENT_CATALOGUE).map(([name, data]) => [
    name,
    compile({ schema: eventEnvelope(name, data), httpPart: 'body' }),
  ]),
);

/** Why an envelope is not its catalogue entry, or undefined when it is. */
export function catalogueMismatch(envelope: WebhookEnvelope): string | undefined {
  const validate = ENVELOPES.get(envelope.event);
  if (!validate) return `${envelope.event} is not in the event catalogue`;
  if (validate(structuredClone(envelope))) return undefined;
  return `${envelope.event}: ${JSON.stringify(validate.errors)}`;
}

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  envelope: WebhookEnvelope;
}

/** A tenant's webhook endpoint on loopback. It answers each request with the next status of `statuses` (then 200). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Received events that do not match their catalogue entry: close() fails the test that received them. */
  readonly uncatalogued: string[] = [];
  private statuses: number[] = [];
  /** While true, every request answers 503 (an outage), after the queued `statuses`. */
  down = false;
  /** Requests held open without an answer until release() (a slow tenant's endpoint). */
  private holding = false;
  private readonly held: http.ServerResponse[] = [];
  private server!: http.Server;
  url = '';

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        const envelope = JSON.parse(body) as WebhookEnvelope;
        receiver.received.push({ headers: req.headers, body, envelope });
        const mismatch = catalogueMismatch(envelope);
        if (mismatch) receiver.uncatalogued.push(mismatch);
        res.statusCode = receiver.statuses.shift() ?? (receiver.down ? 503 : 200);
        if (receiver.holding) receiver.held.push(res);
        else res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
    return receiver;
  }

  /** From now on, requests get no answer until release(). */
  hold(): void {
    this.holding = true;
  }

  /** How many requests are waiting for their answer. */
  get heldCount(): number {
    return this.held.length;
  }

  /** Answers every held request and stops holding. */
  release(): void {
    this.holding = false;
    for (const res of this.held.splice(0)) res.end();
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
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
    if (this.uncatalogued.length > 0) {
      throw new Error(`webhooks unlike their catalogue entry:\n${this.uncatalogued.join('\n')}`);
    }
  }
}
