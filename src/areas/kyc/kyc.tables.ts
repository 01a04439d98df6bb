import type { ColumnType, GeneratedAlways, JSONColumnType, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type { KycDocument, KycStatus, KycTier } from './kyc.rules.js';

/** A player's KYC standing: the verified tier (only ever raised) and lifetime withdrawals in USD cents. */
export interface KycUsersTable {
  tenant_id: string;
  user_id: string;
  /** Defaults to tier_0 on insert. */
  verified_tier: ColumnType<KycTier, KycTier | undefined, KycTier>;
  verified_at: Timestamp | null;
  /** Defaults to 0 on insert. */
  cumulative_withdrawn_usd_cents: ColumnType<number, number | undefined, number>;
  updated_at: Timestamp;
}

export interface KycChecksTable {
  kyc_check_id: string;
  tenant_id: string;
  user_id: string;
  required_tier: KycTier;
  required_documents: JSONColumnType<KycDocument[]>;
  status: KycStatus;
  /** Derived from status by the database: not_started, in_progress or pending_review. */
  is_open: GeneratedAlways<boolean>;
  /** The held withdrawal, echoed as release_withdrawal_id by kyc.approved. */
  withdrawal_id: string | null;
  withdrawal_amount_cents: number;
  currency: string;
  withdrawal_usd_cents: number;
  /** Hex SHA-256 of the vendor access token; the token is shown once and never stored. */
  vendor_token_hash: string;
  vendor_token_expires_at: Timestamp;
  request_hash: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The abandonment clock: creation, a repeated start, and each step of the vendor flow move it. */
  last_activity_at: Timestamp;
  /** Set when the check enters pending_review: REVIEW_DUE_AFTER_SECONDS later. */
  review_due_at: Timestamp | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  decision_reason: string | null;
}

export interface KycWithdrawalsTable {
  tenant_id: string;
  withdrawal_id: string;
  user_id: string;
  amount_cents: number;
  currency: string;
  usd_cents: number;
  /** The user's lifetime total right after this withdrawal: lets a repeated report answer the original result. */
  cumulative_after_usd_cents: number;
  completed_at: Timestamp;
  recorded_at: Timestamp;
  request_hash: string;
}

export interface KycTables {
  kyc_users: KycUsersTable;
  kyc_checks: KycChecksTable;
  kyc_withdrawals: KycWithdrawalsTable;
}

export type KycUser = Selectable<KycUsersTable>;
export type KycCheck = Selectable<KycChecksTable>;
export type KycWithdrawal = Selectable<KycWithdrawalsTable>;
