import type { Platform } from '../context.js';
import { ageSeconds, readOncePerScrape } from '../metrics.js';
import { deliveryBacklog, destinationStates } from './backlog.store.js';

/** The delivery backlog and the destinations' health, read from the database at each scrape. */
export function registerWebhookMetrics(platform: Platform): void {
  const { metrics, db, clock } = platform;
  const backlog = readOncePerScrape(() => deliveryBacklog(db));
  metrics.gauge(
    'compliance_webhook_backlog_events',
    'Webhook events not yet delivered: a first attempt or a retry pending',
    async () => (await backlog()).waiting,
  );
  metrics.gauge(
    'compliance_webhook_oldest_undelivered_seconds',
    'Age of the oldest webhook event not yet delivered (0 when none waits)',
    async () => ageSeconds(clock.now(), (await backlog()).oldestAt),
  );
  metrics.gauge(
    'compliance_webhook_destinations',
    "Tenants' webhook destinations failing (the latest attempt failed) or disabled (after failing throughout the retry schedule)",
    async () => {
      const { failing, disabled } = await destinationStates(db);
      return [
        { labels: { state: 'failing' }, value: failing },
        { labels: { state: 'disabled' }, value: disabled },
      ];
    },
    { labelNames: ['state'] },
  );
}
