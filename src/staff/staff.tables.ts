import type { ColumnType } from 'kysely';
import type { Timestamp } from '../platform/db/platform-tables.js';
import type { StaffRole, StaffStatus } from './staff.rules.js';

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface StaffAccountsTable {
  staff_id: string;
  /** Lower-cased: the sign-in name. */
  email: string;
  display_name: string;
  role: StaffRole;
  status: StaffStatus;
  password_hash: Nullable<string>;
  /** Encrypted under the secrets key (purpose 'staff-totp'). */
  totp_secret: Nullable<string>;
  totp_last_step: Nullable<string>;
  created_at: Timestamp;
  created_by: string;
  disabled_at: Nullable<Date>;
  disabled_by: Nullable<string>;
  /** The second admin who approved an account with an approver role; null for one that needed no approval. */
  approved_by: Nullable<string>;
  approved_at: Nullable<Date>;
  /** Who last changed the account (its role, its status, a new setup link), and when. */
  changed_by: Nullable<string>;
  changed_at: Nullable<Date>;
  /** How webhooks name this member of staff to tenants (opaque, stable). */
  reviewer_ref: string;
}

export interface StaffSetupLinksTable {
  token_hash: string;
  staff_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Nullable<Date>;
}

export interface StaffSessionsTable {
  session_hash: string;
  staff_id: string;
  csrf_token: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  ended_at: Nullable<Date>;
}

/** Sign-in attempts per throttle key (staff.rules.ts, SIGN_IN_THROTTLES): a streak of failures and its wait. */
export interface StaffSignInThrottleTable {
  /** SHA-256 of the email tried, or of the email and the client address. */
  key_hash: string;
  /** Attempts since the last success, each counted when reserved (before its password is checked). */
  failures: number;
  /** No attempt at this key before this time. */
  not_before: Timestamp;
  last_attempt_at: Timestamp;
}

export interface StaffTables {
  staff_accounts: StaffAccountsTable;
  staff_setup_links: StaffSetupLinksTable;
  staff_sessions: StaffSessionsTable;
  staff_sign_in_throttle: StaffSignInThrottleTable;
}
