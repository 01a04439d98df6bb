import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './generated/api.js';

export { WebhookVerificationError };

type Envelope<Operation> = Operation extends {
  post: { requestBody: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

/** Every event the service sends, as its endpoint receives it: switch on `event` and `data` is that event's. */
export type WebhookEvent = { [Name in keyof webhooks]: Envelope<webhooks[Name]> }[keyof webhooks];
export type WebhookEventName = WebhookEvent['event'];
/** One event's envelope, by name. */
export type WebhookEventOf<Name extends WebhookEventName> = Extract<WebhookEvent, { event: Name }>;

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function plainHeaders(headers: WebhookHeaders): Record<string, string> {
  const entries =
    headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers).filter(([, v]) => v !== undefined);
  return Object.fromEntries(
    entries.map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(' ') : String(value),
    ]),
  );
}

/**
 * Verifies a webhook as the service signs it (Standard Webhooks): the signature over the raw body, id and
 * timestamp, and a timestamp within 5 minutes of now (a replayed or stale delivery is refused). Returns the typed
 * event; throws WebhookVerificationError otherwise. During a rotation of the signing secret the service signs with
 * both secrets, so either verifies; pass both (`[newSecret, oldSecret]`) while you switch over.
 *
 * `rawBody` is the body exactly as received: parsing and re-serialising it changes the bytes that were signed.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
): WebhookEvent {
  const payload = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  const plain = plainHeaders(headers);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('No signing secret given');
  let failure: unknown;
  for (const each of secrets) {
    try {
      return new Webhook(each).verify(payload, plain) as WebhookEvent;
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}
