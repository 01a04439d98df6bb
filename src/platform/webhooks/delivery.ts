import { Webhook } from 'standardwebhooks';
import { request, type Agent } from 'undici';
import type { EventRow } from '../db/platform-tables.js';
import { isDeliverableHost, type DestinationPolicy } from './destination.js';

export const DELIVERY_TIMEOUT_MS = 15_000;

/** What one attempt came to: `error` is null when the destination answered 2xx. */
export interface DeliveryOutcome {
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  url: string;
}

/**
 * Sends one event to `url`, signed per Standard Webhooks with each of `signingSecrets()`. Never throws: whatever
 * goes wrong is the outcome's error, recorded with the attempt.
 */
export async function sendEvent(
  agent: Agent,
  policy: DestinationPolicy,
  event: EventRow,
  url: string,
  signingSecrets: () => string[],
): Promise<DeliveryOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { statusCode: null, error: 'invalid URL', latencyMs: 0, url };
  }
  if (!isDeliverableHost(target, policy)) {
    return { statusCode: null, error: 'destination address not allowed', latencyMs: 0, url };
  }
  // The transport timestamp is wall-clock time (receivers check it for replay), not the service clock.
  const sentAt = new Date();
  let signature: string;
  try {
    // During a rotation's overlap, one signature per secret, space-separated (Standard Webhooks).
    signature = signingSecrets()
      .map((secret) => new Webhook(secret).sign(event.event_id, sentAt, event.payload))
      .join(' ');
  } catch {
    // Never the cause's text: it is about the secret. A wrong COMPLIANCE_SECRETS_KEY is refused at start.
    return { statusCode: null, error: 'signing secret unreadable', latencyMs: 0, url };
  }
  try {
    const response = await request(target, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'compliance-service-webhooks/1',
        'webhook-id': event.event_id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: event.payload,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      maxRedirections: 0,
    } as Parameters<typeof request>[1]);
    await response.body.dump();
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return {
      statusCode: response.statusCode,
      error: ok ? null : `HTTP ${response.statusCode}`,
      latencyMs: elapsed(),
      url,
    };
  } catch (error) {
    const message =
      error instanceof Error ? (error.name === 'TimeoutError' ? 'timed out' : error.message) : 'error';
    return { statusCode: null, error: message.slice(0, 500), latencyMs: elapsed(), url };
  }
}
