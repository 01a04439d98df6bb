import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';

/** The test clock's verbs: absent (404) unless the deployment enables it. */
function enabledTestClock(platform: Platform) {
  if (!platform.testClock)
    throw new AppError('not_found', 'The test clock is not enabled on this deployment');
  return platform.testClock;
}

export function clockNow(platform: Platform): { now: Date } {
  return { now: enabledTestClock(platform).now() };
}

/** Moves the test clock on, then answers only once everything due by the new time has run and committed. */
export async function advanceClock(platform: Platform, seconds: number): Promise<{ now: Date }> {
  const clock = enabledTestClock(platform);
  await clock.advance(platform.db, seconds);
  await platform.scheduler.runUntilIdle();
  return { now: clock.now() };
}
