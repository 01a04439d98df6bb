import type { Executor } from '../../../platform/db/database.js';
import { amlCasesOfUser as casesOfUser, recentEventsOfUser } from '../aml.cases.store.js';
import { countPendingDeadLetters } from '../aml.dead-letters.store.js';
import { evaluationQueue } from '../aml.evaluator.js';

/** What the staff's player page shows of AML: the user's cases and latest events, newest first. */
export const amlCasesOfUser = (db: Executor, tenantId: string, userId: string, limit: number) =>
  casesOfUser(db, tenantId, userId, limit);

export const recentAmlEvents = (db: Executor, tenantId: string, userId: string, limit: number) =>
  recentEventsOfUser(db, tenantId, userId, limit);

/** How far behind asynchronous evaluation is: the oldest queued event, the queue's depth, dead letters (each capped). */
export async function evaluationLag(db: Executor, cap: number) {
  const [queue, deadLetters] = await Promise.all([evaluationQueue(db), countPendingDeadLetters(db, cap)]);
  return { oldestReceivedAt: queue.oldestAt, depth: Math.min(queue.waiting, cap), deadLetters };
}
