/** The staff's door: their accounts, sessions and case work, for the console, the back office and the areas. */
import type { AreaManifest } from '../platform/area.js';
import { staffRoutes } from './staff.routes.js';

export const staffArea: AreaManifest = {
  name: 'staff',
  backofficeRoutes: staffRoutes,
};

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
export { type StaffAccountView } from './service/accounts.js';
export {
  CSRF_HEADER,
  clearSessionCookie,
  registerSessionCookies,
  requireAction,
  requireCsrfToken,
  sessionId,
  sessionMember,
  setSessionCookie,
} from './staff-auth.js';
export {
  MIN_PASSWORD_LENGTH,
  STAFF_ROLES,
  anyMemberMay,
  backofficeRouteAction,
  roleMay,
  tokenMay,
  type StaffAction,
  type StaffRole,
} from './staff.rules.js';
export { CreateStaffRequest, SetRoleRequest, type StaffAccount } from './staff.schemas.js';
export { displayNames, findAccountByEmail } from './staff.store.js';
export { newTotpSecret, totpUri } from './totp.js';
