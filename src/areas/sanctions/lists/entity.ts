/**
 * The one shape every sanctions-list parser produces and the matcher indexes. Parsers keep what the list says
 * (its own ids, alias quality, partial dates); nothing here is a guess.
 */

/** Which list a publication belongs to. Several publications of one list: the newest by its own date is in force. */
export type SanctionsListId =
  | 'ofac_sdn' // OFAC Specially Designated Nationals (legacy CSV set, or SDN.XML)
  | 'ofac_consolidated' // OFAC non-SDN Consolidated list (CONSOLIDATED.XML)
  | 'un' // UN Security Council consolidated list
  | 'uk' // UK: OFSI ConList (retired 2026-01-28) or the FCDO UK Sanctions List
  | 'eu'; // EU Financial Sanctions Files

export type SanctionsEntityType = 'person' | 'entity' | 'vessel' | 'aircraft';

/**
 * How far a name can be trusted as an identifier. `strong` covers primary names and good-quality AKAs; `weak`
 * is the list's own low-quality alias flag (OFAC "weak" a.k.a., UK "Low quality", UN "Low" quality).
 */
export type AliasQuality = 'primary' | 'strong' | 'weak';

export interface SanctionsName {
  /** As printed by the list (trimmed); for persons the parser may join given and family name parts. */
  name: string;
  quality: AliasQuality;
  /** True when the list gives the name in a non-Latin script (Cyrillic, Arabic, CJK…); matched after transliteration. */
  non_latin: boolean;
}

/** A date of birth as the list states it: an exact day, a year only, or a range of years/days ("circa", "between"). */
export interface SanctionsDateOfBirth {
  kind: 'exact' | 'year' | 'range';
  /** Inclusive bounds as YYYY-MM-DD; for `exact` both are the day, for `year` Jan 1 and Dec 31. */
  from: string;
  to: string;
  /** True when the list marks the date as approximate ("circa", UN APPROXIMATELY, EU circa); the range is then widened by a year each side. */
  approximate?: boolean;
}

export interface SanctionsEntity {
  list: SanctionsListId;
  /** The list's own identifier (OFAC ent_num / uid, UN DATAID or reference number, UK Group ID, EU logicalId). */
  list_entity_id: string;
  type: SanctionsEntityType;
  primary_name: string;
  /** Every name including the primary one (quality `primary`), aliases and non-Latin-script names. */
  names: SanctionsName[];
  dates_of_birth: SanctionsDateOfBirth[];
  /** ISO 3166-1 alpha-2 where the list's country resolves to one; otherwise the list's text. */
  nationalities: string[];
  citizenships: string[];
  /** Programme or regime names (OFAC program tags, UK regime, UN list type, EU programme). */
  programmes: string[];
  /** Countries of the listed addresses (ISO alpha-2 where they resolve), where the list gives them: weak corroboration only. */
  address_countries?: string[];
}

/** One parsed publication of one list. */
export interface SanctionsListPublication {
  list: SanctionsListId;
  /** The format the file(s) were read as, e.g. `ofac_csv`, `ofac_xml`, `un_xml`, `uk_conlist_csv`, `uk_fcdo_xml`, `eu_fsf_1_0`, `eu_fsf_1_1`. */
  format: string;
  /** The publication date the list itself states (YYYY-MM-DD); see the loader for lists that state none. */
  published_on: string;
  /** Paths of the files read, relative to the lists directory. */
  files: string[];
  entities: SanctionsEntity[];
}
