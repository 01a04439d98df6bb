import type { Static } from 'typebox';
import type { Delivery, EnqueuedEvent, RotatedSigningSecret } from '../../backoffice/backoffice.schemas.js';
import type { RequeuedEvents } from '../../platform/webhooks/webhooks.backoffice.routes.js';
import {
  command,
  get,
  id,
  integer,
  limitQuery,
  lines,
  post,
  put,
  required,
  type Command,
} from '../command.js';
import { tenant, tenantSummary } from './tenants.js';

const enqueued = (e: Static<typeof EnqueuedEvent>) =>
  `Enqueued event ${e.event_id} (delivery ${e.delivery_status})`;
const requeued = (r: Static<typeof RequeuedEvents>) =>
  `Queued ${r.requeued} undelivered event(s) of ${r.tenant_id} since ${String(r.since)} again, oldest first`;

export const WEBHOOK_COMMANDS: Record<string, Command> = {
  'webhook set': command(
    'webhook set <tenant_id> --url <url>',
    ([t], f) => put(tenant(t, '/webhook'), { url: required(f, 'url') }),
    tenantSummary,
  ),
  'webhook ping': command('webhook ping <tenant_id>', ([t]) => post(tenant(t, '/webhook/ping')), enqueued),
  'webhook rotate-secret': command(
    'webhook rotate-secret <tenant_id> [--overlap-hours N]',
    ([t], f) => post(tenant(t, '/signing-secret/rotate'), { overlap_hours: integer(f, 'overlap-hours') }),
    (r: Static<typeof RotatedSigningSecret>) =>
      [
        `Rotated the signing secret of ${r.tenant_id}`,
        `  new signing secret: ${r.signing_secret}`,
        r.previous_secret_expires_at
          ? `  the old secret also signs every delivery until ${String(r.previous_secret_expires_at)}`
          : '  the old secret no longer signs',
        'The signing secret is shown only once: store it now.',
      ].join('\n'),
  ),
  'webhook deliveries': command(
    'webhook deliveries <tenant_id> [--limit N]',
    ([t], f) => get(tenant(t, `/webhook-deliveries${limitQuery(f)}`)),
    ({ deliveries }: { deliveries: Static<typeof Delivery>[] }) =>
      lines(
        deliveries.map((d) => `${d.event_id}  ${d.event}  ${d.delivery_status}  attempts=${d.attempt_count}`),
        'No deliveries.',
      ),
  ),
  'webhook redeliver': command(
    'webhook redeliver <tenant_id> --since <RFC 3339 time>',
    ([t], f) => post(tenant(t, '/webhook/redeliver'), { since: required(f, 'since') }),
    requeued,
  ),
  'webhook enable': command(
    'webhook enable <tenant_id>',
    ([t]) => post(tenant(t, '/webhook/enable')),
    requeued,
  ),
  'event redeliver': command(
    'event redeliver <event_id>',
    ([eventId]) => post(`/events/${id(eventId!)}/redeliver`),
    enqueued,
  ),
};
