/**
 * The self-exclusion verbs, one a file in service/: they know nothing of HTTP, and routes, jobs and the CLI may all
 * call them.
 */
export { addRegulatorEntries } from './service/add-regulator-entries.js';
export { checkBatch, checkExclusion, exclusionsCheckGroupCommit } from './service/check-exclusion.js';
export { createExclusion, ownExclusion } from './service/create-exclusion.js';
export { decodeCursor, encodeCursor, snapshotPage } from './service/snapshot.js';
export { confirmVoid, getStaffExclusion, rejectVoid, voidExclusion } from './service/void-exclusion.js';
