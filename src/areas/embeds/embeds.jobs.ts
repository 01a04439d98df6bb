import type { Platform } from '../../platform/context.js';
import { olderThan, registerRetention } from '../../platform/retention.js';
import { SESSION_RETENTION_SECONDS } from './embeds.rules.js';

/**
 * Sessions hold a player's email and phone only for their use: a day after a session expires, it and its codes are
 * deleted (the audit log keeps what happened, by session id, without the contacts).
 */
export function registerEmbedJobs(platform: Platform): Promise<void> {
  return registerRetention(platform, {
    kind: 'embeds.retention',
    // Codes go with their session (on delete cascade).
    table: 'embed_sessions',
    key: 'embed_session_id',
    at: 'expires_at',
    cutoff: olderThan(SESSION_RETENTION_SECONDS * 1000),
  });
}
