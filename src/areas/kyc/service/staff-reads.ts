import type { Executor } from '../../../platform/db/database.js';
import * as store from '../kyc.store.js';

/** What the staff's player page shows of KYC: the user's checks, newest first. */
export const kycChecksOfUser = (db: Executor, tenantId: string, userId: string, limit: number) =>
  store.kycChecksOfUser(db, tenantId, userId, limit);
