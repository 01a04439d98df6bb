import type { PlaySession as PlaySessionRow } from '../limits.tables.js';
import { nextRealityCheckAt } from './play-time.js';
import type { PlaySession } from './sessions.schemas.js';

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** A session as the API answers it at `now`: the create, end and read responses share it. */
export function toPlaySession(row: PlaySessionRow, now: Date): PlaySession {
  const next = row.allowed
    ? nextRealityCheckAt(
        row.started_at.getTime(),
        row.reality_check_interval_seconds,
        now.getTime(),
        row.counted_until.getTime(),
      )
    : null;
  return {
    session_id: row.session_id,
    user_id: row.user_id,
    started_at: row.started_at.toISOString(),
    ended_at: iso(row.ended_at),
    allowed: row.allowed,
    ...(row.reason ? { reason: row.reason } : {}),
    ends_at: iso(row.ends_at),
    reality_check_interval_seconds: row.reality_check_interval_seconds,
    next_reality_check_at: next === null ? null : new Date(next).toISOString(),
  };
}
