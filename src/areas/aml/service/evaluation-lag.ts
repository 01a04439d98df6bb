import type { Executor } from '../../../platform/db/database.js';
import { countPendingDeadLetters } from '../aml.dead-letters.store.js';
import { evaluationQueue } from '../aml.evaluator.js';

/** How far behind asynchronous evaluation is: the oldest queued event, the queue's depth, dead letters (each capped). */
export async function evaluationLag(db: Executor, cap: number) {
  const [queue, deadLetters] = await Promise.all([evaluationQueue(db), countPendingDeadLetters(db, cap)]);
  return { oldestReceivedAt: queue.oldestAt, depth: Math.min(queue.waiting, cap), deadLetters };
}
