import type { Executor } from '../../../platform/db/database.js';
import * as store from '../exclusions.store.js';

/** What the staff's pages show of the register: one player's rows, and a page of the regulator's master list. */
export const exclusionsOfUser = (db: Executor, tenantId: string, userId: string) =>
  store.exclusionsOfUser(db, tenantId, userId);

export const regulatorRowsPage = (db: Executor, page: { before: string | undefined; limit: number }) =>
  store.regulatorRowsPage(db, page);
