/**
 * Who may do what: one table decides every staff action, in the console and on the back-office API alike
 * (docs/console.md). The back-office token, kept for automation, passes every role check but takes none of the
 * PERSON_ONLY_ACTIONS.
 */
export const STAFF_ROLES = ['admin', 'supervisor', 'reviewer', 'auditor', 'regulator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type StaffStatus = 'proposed' | 'invited' | 'active' | 'disabled';

export const STAFF_ACTIONS = [
  /** See every queue, case, player, tenant and log. */
  'read',
  /** Take a case, write a note, decide a case or a KYC review, propose a four-eyes decision, rescreen a user. */
  'decide_cases',
  /** Approve or reject another member's four-eyes proposal. */
  'approve_decisions',
  /** Tenants, keys, webhooks, signing secrets, rate limits, vendor cut-over, AML settings, redeliveries. */
  'manage_tenants',
  /** Country tiers, FX rates, the regulator list, sanctions lists, dead letters, the test clock. */
  'operate_service',
  /** Staff accounts. */
  'manage_staff',
  /** Read the regulatory reports and the register's exports to the regulator (all a regulator's account may do). */
  'read_reports',
  /** Acknowledge an export: the regulator has taken it in, and its exclusions count as propagated. */
  'acknowledge_exports',
  /** Read the mail outbox: players' and staff's addresses, and in a sandbox without SMTP the codes themselves. */
  'read_mail',
  /** A player's data protection requests: export everything held about a player (docs/data.md). */
  'handle_data_requests',
] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

export const ROLE_PERMISSIONS: Record<StaffRole, readonly StaffAction[]> = {
  admin: STAFF_ACTIONS,
  supervisor: ['read', 'decide_cases', 'approve_decisions', 'read_reports'],
  reviewer: ['read', 'decide_cases', 'read_reports'],
  auditor: ['read', 'read_reports'],
  // The regulator's own staff: the reports and the hand-over, never a case, a player or a tenant.
  regulator: ['read_reports', 'acknowledge_exports'],
};

export function roleMay(role: StaffRole, action: StaffAction): boolean {
  return ROLE_PERMISSIONS[role].includes(action);
}

/**
 * What only a signed-in person may do, never the back-office token: decide a case, propose, approve or reject a
 * four-eyes decision, manage staff accounts. The token's one exception is the bootstrap of a deployment's first
 * two admins (POST /staff, which the verb allows while fewer than two admins exist).
 */
export const PERSON_ONLY_ACTIONS: readonly StaffAction[] = [
  'decide_cases',
  'approve_decisions',
  'manage_staff',
];
export const TOKEN_BOOTSTRAP_ROUTES: readonly string[] = ['POST /staff'];

/** Whether the back-office token may call this route (it may call every route but the person-only ones). */
export function tokenMay(method: string, url: string): boolean {
  const action = backofficeRouteAction(method, url);
  if (!action || !PERSON_ONLY_ACTIONS.includes(action)) return true;
  return TOKEN_BOOTSTRAP_ROUTES.includes(`${method} ${url}`);
}

/**
 * The roles that can approve a four-eyes decision: an account with one exists only once a second admin approves it
 * (creating it, re-enabling it, or raising an account to it).
 */
export const APPROVER_ROLES: readonly StaffRole[] = STAFF_ROLES.filter((role) =>
  roleMay(role, 'approve_decisions'),
);

/**
 * The action each state-changing back-office route takes, by method and route pattern. A GET is 'read' unless
 * listed (the reports and exports, which the regulator role reads without 'read'; the mail outbox, admins only). A
 * state-changing route missing here is refused to every staff session: a new route needs a line (a test walks them).
 */
export const BACKOFFICE_ROUTE_ACTIONS: Record<string, StaffAction> = {
  'POST /tenants': 'manage_tenants',
  'POST /tenants/:tenant_id/keys': 'manage_tenants',
  'POST /keys/:key_prefix/revoke': 'manage_tenants',
  'POST /tenants/:tenant_id/suspend': 'manage_tenants',
  'POST /tenants/:tenant_id/reinstate': 'manage_tenants',
  'PUT /tenants/:tenant_id/webhook': 'manage_tenants',
  'POST /tenants/:tenant_id/webhook/ping': 'manage_tenants',
  'POST /tenants/:tenant_id/webhook/enable': 'manage_tenants',
  'POST /tenants/:tenant_id/webhook/redeliver': 'manage_tenants',
  'POST /events/:event_id/redeliver': 'manage_tenants',
  'POST /tenants/:tenant_id/signing-secret/rotate': 'manage_tenants',
  'PUT /tenants/:tenant_id/cutover': 'manage_tenants',
  'PUT /tenants/:tenant_id/rate-limits': 'manage_tenants',
  'PUT /tenants/:tenant_id/aml-settings': 'manage_tenants',
  'PUT /tenants/:tenant_id/safer-gambling': 'manage_tenants',
  'PUT /tenants/:tenant_id/reality-check': 'manage_tenants',
  'PUT /tenants/:tenant_id/embed-origins': 'manage_tenants',
  'PUT /tenants/:tenant_id/retention': 'manage_tenants',
  'POST /sanctions/cases/:case_id/decision': 'decide_cases',
  'POST /sanctions/tenants/:tenant_id/users/:user_id/rescreen': 'decide_cases',
  'POST /sanctions/dismissals/:dismissal_id/withdraw': 'decide_cases',
  'POST /aml/cases/:case_id/decision': 'decide_cases',
  'POST /kyc/reviews/:kyc_check_id/decision': 'decide_cases',
  'POST /exclusions/:exclusion_id/void': 'decide_cases',
  'POST /cases/:subject/:subject_id/take': 'decide_cases',
  'POST /cases/:subject/:subject_id/notes': 'decide_cases',
  'POST /sanctions/cases/:case_id/proposal/approve': 'approve_decisions',
  'POST /sanctions/cases/:case_id/proposal/reject': 'approve_decisions',
  'POST /aml/cases/:case_id/proposal/approve': 'approve_decisions',
  'POST /aml/cases/:case_id/proposal/reject': 'approve_decisions',
  'POST /exclusions/:exclusion_id/void/confirm': 'approve_decisions',
  'POST /exclusions/:exclusion_id/void/reject': 'approve_decisions',
  'POST /regulator/exclusions': 'operate_service',
  'PUT /fx-rates/:currency': 'operate_service',
  'PUT /geo/countries/:code': 'operate_service',
  'POST /geo/database/fetch': 'operate_service',
  'POST /sanctions/rescreen': 'operate_service',
  'POST /sanctions/lists/reload': 'operate_service',
  'POST /sanctions/lists/fetch': 'operate_service',
  'POST /aml/dead-letters/:dead_letter_id/redrive': 'operate_service',
  'POST /clock/advance': 'operate_service',
  'GET /secrets/keys': 'operate_service',
  'POST /staff': 'manage_staff',
  'POST /staff/:staff_id/disable': 'manage_staff',
  'POST /staff/:staff_id/setup-link': 'manage_staff',
  'POST /staff/:staff_id/enable': 'manage_staff',
  'POST /staff/:staff_id/role': 'manage_staff',
  'POST /staff/:staff_id/proposal/approve': 'manage_staff',
  'POST /staff/:staff_id/proposal/reject': 'manage_staff',
  'GET /mail': 'read_mail',
  'GET /mail/:mail_id': 'read_mail',
  'GET /reports': 'read_reports',
  'GET /reports/:report_id': 'read_reports',
  'GET /reports/:report_id/content': 'read_reports',
  'POST /reports/regenerate': 'operate_service',
  'GET /regulator/exports': 'read_reports',
  'GET /regulator/exports/:export_id': 'read_reports',
  'POST /regulator/exports/:export_id/ack': 'acknowledge_exports',
  'POST /regulator/exports/:export_id/rerequest': 'operate_service',
  'POST /tenants/:tenant_id/players/:user_id/export': 'handle_data_requests',
  'POST /contacts/export': 'handle_data_requests',
  'POST /tenants/:tenant_id/players/:user_id/erasure-requests': 'handle_data_requests',
  'GET /tenants/:tenant_id/players/:user_id/erasure-requests': 'handle_data_requests',
};

/** Routes every signed-in member may call whatever the role: who am I (the console and the CLI ask it first). */
export const ANY_MEMBER_ROUTES: readonly string[] = ['GET /session'];

export function anyMemberMay(method: string, url: string): boolean {
  return ANY_MEMBER_ROUTES.includes(`${method === 'HEAD' ? 'GET' : method} ${url}`);
}

/** The action a back-office request takes, or undefined when no staff session may take it. */
export function backofficeRouteAction(method: string, url: string): StaffAction | undefined {
  if (method === 'GET' || method === 'HEAD') return BACKOFFICE_ROUTE_ACTIONS[`GET ${url}`] ?? 'read';
  return BACKOFFICE_ROUTE_ACTIONS[`${method} ${url}`];
}

/** A session ends after this long without a request (on the service clock). */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** A one-time setup link works this long. */
export const SETUP_LINK_SECONDS = 24 * 60 * 60;
/**
 * A growing wait between sign-in attempts at one key, never a lock: a few failures in a row are free, then each one
 * makes the next attempt wait, doubling from firstWaitSeconds up to maxWaitSeconds. Reserved before any password
 * hash is computed, and keyed by the email typed, whether or not an account has it (docs/console.md).
 */
export interface SignInThrottle {
  freeFailures: number;
  firstWaitSeconds: number;
  maxWaitSeconds: number;
}

export const SIGN_IN_THROTTLES = {
  /** One email tried from one client address (IPv6 by /64): what one stranger can try. */
  email_from_address: { freeFailures: 3, firstWaitSeconds: 1, maxWaitSeconds: 60 },
  /**
   * One email tried from every address together: bounds guessing spread over many addresses. Its cap is shorter
   * than a single address's, so a stranger at one address cannot keep the owner, elsewhere, out.
   */
  email: { freeFailures: 10, firstWaitSeconds: 1, maxWaitSeconds: 10 },
} as const satisfies Record<string, SignInThrottle>;

/** The wait (seconds) after each consecutive failure, the first failure first; the last entry repeats. */
export function signInWaits(throttle: SignInThrottle): number[] {
  const waits: number[] = Array<number>(throttle.freeFailures).fill(0);
  for (let wait = throttle.firstWaitSeconds; ; wait *= 2) {
    waits.push(Math.min(wait, throttle.maxWaitSeconds));
    if (wait >= throttle.maxWaitSeconds) return waits;
  }
}

/** Every this many failures in a row at one account's email raise an alert for the admins. */
export const SIGN_IN_ALERT_EVERY_FAILURES = 10;
export const MIN_PASSWORD_LENGTH = 12;
/** A throttle key's count of failures is forgotten a day after its last attempt (a daily purge deletes it). */
export const SIGN_IN_THROTTLE_RETENTION_SECONDS = 24 * 60 * 60;
