import type { ColumnType, JSONColumnType, Selectable } from 'kysely';
import type { Timestamp } from '../../platform/db/platform-tables.js';
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
  trigger: 'signup' | 'rescreen';
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

export interface SanctionsTables {
  sanctions_screens: SanctionsScreensTable;
  sanctions_cases: SanctionsCasesTable;
  sanctions_rescreen_runs: SanctionsRescreenRunsTable;
}

export type SanctionsScreen = Selectable<SanctionsScreensTable>;
export type SanctionsCase = Selectable<SanctionsCasesTable>;
export type SanctionsRescreenRun = Selectable<SanctionsRescreenRunsTable>;
