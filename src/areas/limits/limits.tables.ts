import type { ColumnType, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type { LimitKind, LimitType } from './limits.rules.js';
import type { RefusalReason } from './sessions/play-time.js';

/** pending: cooling off; active: in force; superseded: replaced by a later change; cancelled: withdrawn. */
export type LimitStatus = 'pending' | 'active' | 'superseded' | 'cancelled';

/** Every kind of player limit (named for the spec's first kind). */
export interface DepositLimitsTable {
  limit_id: string;
  tenant_id: string;
  user_id: string;
  limit_kind: ColumnType<LimitKind, LimitKind | undefined, never>;
  limit_type: LimitType;
  /** Minor units of `currency`; seconds for play_time, which has no currency. */
  amount_cents: number;
  currency: string | null;
  current_limit_cents: number | null;
  is_increase: boolean;
  cooloff_seconds: number;
  requested_at: Timestamp;
  created_at: Timestamp;
  effective_from: Timestamp;
  status: LimitStatus;
  ended_at: Timestamp | null;
  request_hash: string;
}

export interface DepositsTable {
  tenant_id: string;
  transaction_id: string;
  user_id: string;
  amount_cents: number;
  currency: string;
  committed_at: Timestamp;
  recorded_at: Timestamp;
  request_hash: string;
}

/** One user's holds, oldest first (see the migration 2026-11-25T0015_limit_reservations). */
export interface LimitReservationsTable {
  tenant_id: string;
  user_id: string;
  holds: string;
  held_until: Timestamp;
}

/** A failed or abandoned deposit reported by the tenant (or by an AML event), and the hold it freed. */
export interface LimitReleasesTable {
  tenant_id: string;
  transaction_id: string;
  user_id: string;
  amount_cents: number;
  currency: string;
  reservation_id: string | null;
  released_at: Timestamp;
  request_hash: string;
}

/** A stake an allowed wager check holds until its wager event is acknowledged, or the hold lapses. */
export interface StakeHoldsTable {
  tenant_id: string;
  hold_id: string;
  user_id: string;
  amount_cents: number;
  currency: string;
  held_at: Timestamp;
  expires_at: Timestamp;
}

/** A play session the operator reported (migration 2026-12-02T0029_play_sessions): refused ones count nothing. */
export interface PlaySessionsTable {
  play_session_id: string;
  tenant_id: string;
  session_id: string;
  user_id: string;
  started_at: Timestamp;
  created_at: Timestamp;
  allowed: boolean;
  reason: RefusalReason | null;
  ends_at: Timestamp | null;
  limit_type: LimitType | null;
  reality_check_interval_seconds: number | null;
  ended_at: Timestamp | null;
  counted_until: Timestamp;
  limit_reached_at: Timestamp | null;
}

/** A player's own reality-check interval. */
export interface PlayerRealityChecksTable {
  tenant_id: string;
  user_id: string;
  interval_seconds: number;
  updated_at: Timestamp;
}

/** A tenant's default reality-check interval. */
export interface TenantRealityChecksTable {
  tenant_id: string;
  default_interval_seconds: number;
  updated_at: Timestamp;
}

export interface LimitTables {
  deposit_limits: DepositLimitsTable;
  deposits: DepositsTable;
  limit_reservations: LimitReservationsTable;
  limit_releases: LimitReleasesTable;
  stake_holds: StakeHoldsTable;
  play_sessions: PlaySessionsTable;
  player_reality_checks: PlayerRealityChecksTable;
  tenant_reality_checks: TenantRealityChecksTable;
}

export type DepositLimit = Selectable<DepositLimitsTable>;
export type Deposit = Selectable<DepositsTable>;
export type LimitRelease = Selectable<LimitReleasesTable>;
export type PlaySession = Selectable<PlaySessionsTable>;
