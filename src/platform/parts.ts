import type { AreaManifest } from './area.js';
import { PlatformEvents } from './events.js';
import { dataBackofficeRoutes } from './data.backoffice.routes.js';
import { eventsFeedRoutes } from './events-feed.routes.js';
import { fxRoutes } from './fx.routes.js';
import { registerPartitions } from './partitions.js';
import { mailBackofficeRoutes } from './mail/mail.backoffice.routes.js';
import { registerMail } from './mail/mail.js';
import { secretsBackofficeRoutes } from './secrets.backoffice.routes.js';
import { registerDataRetention } from './retention.js';
import { retentionBackofficeRoutes } from './retention.backoffice.routes.js';
import { registerSchedulerMetrics } from './scheduler.js';
import { registerSigningSecretJobs } from './webhooks/webhooks.jobs.js';
import { registerWebhookMetrics } from './webhooks/webhooks.metrics.js';
import { webhookBackofficeRoutes } from './webhooks/webhooks.backoffice.routes.js';

/** The platform's own parts with routes or work, started and registered like the areas (before them). */
export const PLATFORM_PARTS: readonly AreaManifest[] = [
  {
    name: 'webhooks',
    events: PlatformEvents,
    tenantRoutes: eventsFeedRoutes,
    backofficeRoutes: webhookBackofficeRoutes,
    start: (platform) => {
      registerWebhookMetrics(platform);
      registerSigningSecretJobs(platform);
    },
  },
  { name: 'scheduler', start: registerSchedulerMetrics },
  { name: 'partitions', start: registerPartitions },
  { name: 'fx', backofficeRoutes: fxRoutes },
  { name: 'mail', backofficeRoutes: mailBackofficeRoutes, start: registerMail },
  { name: 'secrets', backofficeRoutes: secretsBackofficeRoutes },
  { name: 'data', backofficeRoutes: dataBackofficeRoutes },
  { name: 'retention', backofficeRoutes: retentionBackofficeRoutes, start: registerDataRetention },
];
