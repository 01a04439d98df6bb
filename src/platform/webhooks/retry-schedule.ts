/**
 * Wait before each retry: attempt 1 fails → 5 s → attempt 2 … attempt 15 fails → failed. The waits add up to about
 * 4 days 15.5 hours (5 days at most with jitter), so a destination that is down for 3 days loses nothing.
 * Documented in docs/webhooks.md.
 */
export const RETRY_SCHEDULE_SECONDS = [
  5, 300, 1800, 7200, 18000, 36000, 36000, 43200, 43200, 43200, 43200, 43200, 43200, 43200,
] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** From the first attempt to the last, without jitter. */
export const RETRY_SPAN_SECONDS = RETRY_SCHEDULE_SECONDS.reduce((sum, wait) => sum + wait, 0);
/** Retries wait up to this fraction longer than scheduled, never shorter, so tenants' endpoints are not hit in step. */
export const RETRY_JITTER = 0.1;

/** Where an event stands after its attempt number `attemptNumber` (1 for the first) ended at `now`. */
export function afterAttempt(
  attemptNumber: number,
  delivered: boolean,
  now: Date,
): { status: 'delivered' | 'failed' | 'pending'; nextAttemptAt: Date | null } {
  if (delivered) return { status: 'delivered', nextAttemptAt: null };
  if (attemptNumber >= MAX_ATTEMPTS) return { status: 'failed', nextAttemptAt: null };
  const delaySeconds = RETRY_SCHEDULE_SECONDS[attemptNumber - 1] ?? 0;
  return {
    status: 'pending',
    nextAttemptAt: new Date(now.getTime() + delaySeconds * 1000 * (1 + Math.random() * RETRY_JITTER)),
  };
}
