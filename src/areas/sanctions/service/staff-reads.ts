import type { Executor } from '../../../platform/db/database.js';
import * as store from '../sanctions.store.js';

/** What the staff's player page shows of screening: the user's screen and its cases, newest first. */
export const sanctionsOfUser = (db: Executor, tenantId: string, userId: string, limit: number) =>
  store.sanctionsOfUser(db, tenantId, userId, limit);
