import type { JSONColumnType, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type {
  FinancialCheckLevel,
  FinancialWindow,
  InteractionKind,
  InteractionOutcome,
  MarkerCode,
  MarkerLevel,
  RiskLevel,
} from './safer-gambling.markers.js';
import type { FinancialProfileOverrides, MarkerOverrides, PolicyOverrides } from './safer-gambling.rules.js';

export interface SgTenantSettingsTable {
  tenant_id: string;
  time_zone: string;
  marker_overrides: JSONColumnType<MarkerOverrides>;
  policy: JSONColumnType<PolicyOverrides>;
  financial_profile: JSONColumnType<FinancialProfileOverrides>;
  updated_at: Timestamp;
  updated_by: string;
}

/** One trip of a marker: the evidence, never updated. */
export interface SgMarkerTripsTable {
  trip_id: string;
  tenant_id: string;
  user_id: string;
  code: MarkerCode;
  level: MarkerLevel;
  /** The moment of the player's history that tripped it (event time). */
  observed_at: Timestamp;
  /** When the service recorded it (service clock). */
  tripped_at: Timestamp;
  measured_value: number;
  threshold: number;
  details: JSONColumnType<Record<string, unknown>>;
  catalogue_version: string;
  /** What it was evaluated for: an AML event's id, a limit's id or a play session's id. */
  source: string;
}

/** A marker's state for one player. */
export interface SgPlayerMarkersTable {
  tenant_id: string;
  user_id: string;
  code: MarkerCode;
  level: MarkerLevel;
  first_tripped_at: Timestamp;
  last_tripped_at: Timestamp;
  measured_value: number;
  threshold: number;
  /** Active until then (30 days after the last trip); null once reviewed. */
  active_until: Timestamp | null;
  reviewed_at: Timestamp | null;
  reviewed_value: number | null;
  review_quiet_until: Timestamp | null;
  reviewed_by_interaction_id: string | null;
}

export interface SgPlayersTable {
  tenant_id: string;
  user_id: string;
  risk_level: RiskLevel;
  level_changed_at: Timestamp;
  interaction_required_at: Timestamp | null;
  interaction_due_at: Timestamp | null;
  interaction_overdue_at: Timestamp | null;
  contested_at: Timestamp | null;
  contested_interaction_id: string | null;
  updated_at: Timestamp;
}

export interface SgInteractionsTable {
  tenant_id: string;
  interaction_id: string;
  user_id: string;
  kind: InteractionKind;
  outcome: InteractionOutcome;
  occurred_at: Timestamp;
  notes: string | null;
  recorded_at: Timestamp;
  reviewed_markers: JSONColumnType<{ code: MarkerCode; measured_value: number }[]>;
  /** The due time of the interaction it settled; null when none was due or it kept it due (no_response). */
  settled_due_at: Timestamp | null;
  request_hash: string;
}

export interface SgFinancialChecksTable {
  check_id: string;
  tenant_id: string;
  user_id: string;
  level: FinancialCheckLevel;
  window_name: FinancialWindow;
  net_deposits_cents: number;
  currency: string;
  threshold_cents: number;
  observed_at: Timestamp;
  called_at: Timestamp;
  source: string;
}

export interface SaferGamblingTables {
  sg_tenant_settings: SgTenantSettingsTable;
  sg_marker_trips: SgMarkerTripsTable;
  sg_player_markers: SgPlayerMarkersTable;
  sg_players: SgPlayersTable;
  sg_interactions: SgInteractionsTable;
  sg_financial_checks: SgFinancialChecksTable;
}

export type SgTenantSettingsRow = Selectable<SgTenantSettingsTable>;
export type SgMarkerTripRow = Selectable<SgMarkerTripsTable>;
export type SgPlayerMarkerRow = Selectable<SgPlayerMarkersTable>;
export type SgPlayerRow = Selectable<SgPlayersTable>;
export type SgInteractionRow = Selectable<SgInteractionsTable>;
export type SgFinancialCheckRow = Selectable<SgFinancialChecksTable>;

/**
 * The staff's follow-ups (a view over sg_players, migration 0033): a player whose owed interaction is overdue and
 * still owed, or who contested a finding. Read by the shared case-work queue; never written.
 */
export interface SgFollowUpsView {
  /** tenant_id/user_id: the queue's case id. */
  follow_up_id: string;
  tenant_id: string;
  user_id: string;
  status: 'overdue' | 'contested';
  /** When the player joined the queue: the earlier of the two flags. */
  follow_up_at: Date;
  /** 24 hours after it joined: the staff's due time, and the queue's order. */
  due_at: Date;
  overdue_at: Date | null;
  contested_at: Date | null;
  contested_interaction_id: string | null;
  risk_level: RiskLevel;
  interaction_due_at: Date | null;
  /** Always null: a follow-up leaves the view when it is settled or cleared. */
  cleared_at: Date | null;
}

export interface SaferGamblingViews {
  sg_follow_ups: SgFollowUpsView;
}
