import type { Transaction } from 'kysely';
import type { Platform } from '../../../platform/context.js';
import type { DB } from '../../../platform/db/schema.js';
import { emitEvent } from '../../../platform/outbox.js';
import { scheduleJob } from '../../../platform/scheduler.js';
import type { PlaySession } from '../limits.tables.js';
import { markLimitReached } from './sessions.store.js';

/** A session's ends_at, as stored work on the service clock (it survives a restart), due exactly then. */
export const LIMIT_REACHED_JOB = 'play_session.limit_reached';

export function scheduleLimitReached(tx: Transaction<DB>, row: PlaySession): Promise<void> {
  return scheduleJob(tx, {
    kind: LIMIT_REACHED_JOB,
    subjectId: row.play_session_id,
    tenantId: row.tenant_id,
    dueAt: row.ends_at!,
  });
}

/**
 * play_session.limit_reached, once (the row records it), to the session's tenant only; nothing when the session
 * ended before its ends_at.
 */
export function registerPlaySessionJobs(platform: Platform): void {
  platform.scheduler.register(LIMIT_REACHED_JOB, async (tx, job, now) => {
    if (!job.tenant_id) return;
    const row = await markLimitReached(tx, job.tenant_id, job.subject_id, now);
    if (!row) return;
    await emitEvent(tx, {
      tenantIds: row.tenant_id,
      event: 'play_session.limit_reached',
      data: {
        session_id: row.session_id,
        user_id: row.user_id,
        // Set with ends_at: a session has an end of its own only when a limit gave it one.
        limit_type: row.limit_type!,
        reached_at: row.ends_at!.toISOString(),
      },
      at: now,
    });
  });
}
