import type { AliasQuality, SanctionsEntityType, SanctionsListId } from '../lists/entity.js';
import type { DateOfBirthEvidence, NationalityEvidence } from './evidence.js';

/** Hit threshold by default: a score at or above it is a hit. Configuration; see docs/sanctions-matching.md. */
export const DEFAULT_HIT_THRESHOLD = 0.85;
/** Scores within this distance below the threshold are borderline: shown to reviewers on request, never a hit. */
export const BORDERLINE_BAND = 0.1;
/** A weak alias alone scores at most this far below the threshold: inside the borderline band, never a hit. */
export const WEAK_ALIAS_MARGIN = 0.05;

/** Who is screened. Same shape as the service's `ScreeningSubject`; date and nationality are optional here. */
export interface ScreeningQuery {
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD */
  date_of_birth?: string;
  /** ISO 3166-1 alpha-2 */
  nationality?: string;
}

export interface ScreenOptions {
  threshold?: number;
  /** Also return borderline matches (score within BORDERLINE_BAND below the threshold), marked `borderline`. */
  include_borderline?: boolean;
  /** Lowest score returned, overriding the two options above: the evaluation uses it to see the whole distribution. */
  min_score?: number;
  /** Entity types screened against; persons by default, since subjects are people signing up. */
  types?: SanctionsEntityType[];
  /** Most matches returned, best first. */
  limit?: number;
}

/** Why an entity matched, for the back-office case view. */
export interface MatchEvidence {
  /** The entity's name that matched best, as the list prints it. */
  matched_name: string;
  matched_name_quality: AliasQuality;
  matched_name_non_latin: boolean;
  /** The name comparison alone, before date of birth and nationality. */
  name_score: number;
  date_of_birth: DateOfBirthEvidence;
  nationality: NationalityEvidence;
  /** True when the match rests on a weak alias and its score was held inside the borderline band. */
  weak_alias_capped: boolean;
}

/** One listed entity a subject resembles. Back office only: never in a tenant response or webhook. */
export interface SanctionsIndexMatch {
  list: SanctionsListId;
  list_entity_id: string;
  entity_type: SanctionsEntityType;
  primary_name: string;
  matched_name: string;
  /** 0–1, the same meaning on every list. */
  score: number;
  band: 'hit' | 'borderline';
  programmes: string[];
  evidence: MatchEvidence;
}

export interface SanctionsScreening {
  matches: SanctionsIndexMatch[];
  /** The publication date of each list in the index, so a screening can be replayed. */
  list_versions: Record<string, string>;
  /** How many list names were scored in full: a small share of the index, whatever its size. */
  compared_names: number;
}
