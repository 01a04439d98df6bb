/** The service verbs of the staff area, one a file in service/: the back-office routes, console and CLI reach them here. */
export {
  accountView,
  approveStaffChange,
  createFirstAdmin,
  createStaff,
  disableStaff,
  enableStaff,
  issueSetupLink,
  listStaff,
  rejectStaffChange,
  setStaffRole,
} from './service/accounts.js';
export { resolveSession, signIn, signOut } from './service/sessions.js';
export { completeSetup, openSetupLink } from './service/setup.js';
export { staffIdentities } from './service/identities.js';
