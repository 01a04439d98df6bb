import type { ColumnType, JSONColumnType, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
import type { SanctionsEntity } from './lists/entity.js';
import type { ListVersion, SanctionsMatch } from './sanctions.matcher.js';
import type { Screening } from './sanctions.schemas.js';

export type ScreeningStatus = 'clear' | 'hit_review_pending' | 'cleared' | 'confirmed';

export interface SanctionsScreensTable {
  screen_id: string;
  tenant_id: string;
  user_id: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  nationality: string;
  email: string;
  status: ScreeningStatus;
  transactions_held: boolean;
  match_count: number;
  highest_match_score: number;
  case_id: string | null;
  vendor: 'sandbox' | 'production';
  list_versions: JSONColumnType<Record<string, ListVersion>>;
  checked_at: Timestamp;
  updated_at: Timestamp;
  request_hash: string;
  /** The answer to the first screen request, replayed to the same request (200). */
  screen_response: JSONColumnType<Screening>;
}

export type SanctionsCaseStatus = 'hit_review_pending' | 'cleared' | 'confirmed';

export interface SanctionsCasesTable {
  case_id: string;
  tenant_id: string;
  screen_id: string;
  user_id: string;
  status: SanctionsCaseStatus;
  matches: JSONColumnType<SanctionsMatch[]>;
  /** The list publications the matches came from (the screen's own versions move on with each re-screen). */
  list_versions: JSONColumnType<Record<string, ListVersion>>;
  highest_match_score: number;
  opened_at: Timestamp;
  /** The review SLA: 48 hours from opening. */
  due_at: Timestamp;
  decided_at: Timestamp | null;
  reviewer: string | null;
  decision_reason: string | null;
  trigger: CaseTrigger;
  /** A list_update case: the list version that brought it and the change of each matched entity. */
  list_change: JSONColumnType<CaseListChange | null, string | null | undefined, string | null>;
}

/** What opened a case: the signup screen, a re-screen (quarterly, bulk, one user), or a list version's changes. */
export type CaseTrigger = 'signup' | 'rescreen' | 'list_update';

export interface CaseListChange {
  version_id: string;
  list: string;
  published_on: string;
  accepted_at: string;
  entities: Array<{ entity_id: string; change: 'added' | 'changed' }>;
}

/** A quarterly re-screen: its progress, and the cursor it resumes from after a restart. */
export interface SanctionsRescreenRunsTable {
  /** `2027-Q1`: the calendar quarter the run belongs to. */
  quarter: string;
  started_at: Timestamp;
  /** clear and cleared users when the run started. */
  total: number;
  screened: ColumnType<number, number | undefined, number>;
  new_hits: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  /** The last screen re-screened (screens are walked in screen_id order); null before the first batch. */
  last_screen_id: string | null;
  finished_at: Timestamp | null;
}

/** A list version the service accepted, what it changed, and the screening of every player against that change. */
export interface SanctionsListVersionsTable {
  version_id: string;
  list: string;
  published_on: string;
  format: string;
  files: JSONColumnType<string[]>;
  /** The digest of every entity's screening-relevant content: the version's identity. */
  digest: string;
  entities: number;
  previous_version_id: string | null;
  accepted_at: Timestamp;
  /** When the service downloaded the file in force, if it did (hand-placed files: null). */
  fetched_at: Timestamp | null;
  added: number;
  changed: number;
  removed: number;
  screening_started_at: Timestamp | null;
  /** Players eligible when the screening started. */
  screening_total: number | null;
  screened: ColumnType<number, number | undefined, number>;
  new_hits: ColumnType<number, number | undefined, number>;
  /** `walk`: every eligible player by screen_id; `sweep`: the players screened since the version was accepted. */
  screening_phase: ListScreeningPhase | null;
  screening_cursor: string | null;
  screening_finished_at: Timestamp | null;
}

export type ListScreeningPhase = 'walk' | 'sweep';
export type ListChangeKind = 'added' | 'changed' | 'removed';

/** The entities of each list's latest accepted version, by content digest. */
export interface SanctionsListEntitiesTable {
  list: string;
  entity_id: string;
  digest: string;
}

/** One entity a version added, changed or removed; added and changed ones keep their screening content. */
export interface SanctionsListChangesTable {
  version_id: string;
  list: string;
  entity_id: string;
  kind: ListChangeKind;
  digest: string | null;
  entity: JSONColumnType<SanctionsEntity | null, string | null, string | null>;
}

/** A reviewer's dismissal of one match as a false positive, remembered precisely (see sanctions.rules.ts). */
export interface SanctionsDismissalsTable {
  dismissal_id: string;
  tenant_id: string;
  screen_id: string;
  user_id: string;
  case_id: string;
  list: string;
  entity_id: string;
  entity_name: string;
  /** The entity's content digest at the decision; null for dismissals recorded before contents were remembered. */
  entity_digest: string | null;
  subject_digest: string;
  score: ColumnType<number, number, number>;
  dismissed_at: Timestamp;
  dismissed_by: string | null;
  ended_at: Timestamp | null;
  ended_by: string | null;
  /** `withdrawn: <reason>` by staff, or `superseded by <case_id>` when a later dismissal replaced it. */
  end_reason: string | null;
}

export interface SanctionsTables {
  sanctions_screens: SanctionsScreensTable;
  sanctions_cases: SanctionsCasesTable;
  sanctions_rescreen_runs: SanctionsRescreenRunsTable;
  sanctions_list_versions: SanctionsListVersionsTable;
  sanctions_list_entities: SanctionsListEntitiesTable;
  sanctions_list_changes: SanctionsListChangesTable;
  sanctions_dismissals: SanctionsDismissalsTable;
}

export type SanctionsScreen = Selectable<SanctionsScreensTable>;
export type SanctionsCase = Selectable<SanctionsCasesTable>;
export type SanctionsRescreenRun = Selectable<SanctionsRescreenRunsTable>;
export type SanctionsListVersion = Selectable<SanctionsListVersionsTable>;
export type SanctionsDismissal = Selectable<SanctionsDismissalsTable>;
