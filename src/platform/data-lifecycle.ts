import type { DB, Tables } from './db/schema.js';

/**
 * Every table's lifecycle as data (docs/data.md): what it holds, the personal data in it, why it is kept, how long
 * and from when, and what happens at the end. Typed over the whole schema, so a table without a row does not compile;
 * `test/platform/data-lifecycle.test.ts` also compares it with the tables a migrated database has.
 */

/** The kinds of personal data a table can hold (what an export lists and an erasure must act on). */
export type PersonalData =
  /** A player's id at the tenant. */
  | 'player_id'
  /** Email addresses and phone numbers, in clear. */
  | 'contact'
  /** Keyed hashes of contacts: personal data still, as the service can match them. */
  | 'contact_hash'
  /** Names and dates of birth. */
  | 'identity'
  | 'ip_address'
  /** Transactions: amounts, payment methods, times. */
  | 'transactions'
  /** Text a person typed about a player (reasons, notes). */
  | 'free_text'
  /** The service's staff: names, emails, credentials. */
  | 'staff';

/** Where a row's retention counts from. */
export type RetentionFrom =
  | 'creation'
  /** The end of the business relationship: the account closed (POST /v1/players/{user_id}/closed). */
  | 'relationship_end'
  /** A case's closing decision. */
  | 'case_closure'
  /** The end of the self-exclusion (never before it ends). */
  | 'exclusion_end'
  /** The row's own expiry (a session's, a hold's). */
  | 'expiry';

export type RetentionEnd = 'delete' | 'pseudonymise';

/** The forms a contact is stored in: as given (normalised), the register's canonical email, and keyed hashes. */
export type ContactForm = 'email' | 'email_canonical' | 'email_hash' | 'phone' | 'phone_hash' | 'any_hash';

/**
 * How a table's rows of one contact are found: by columns holding one of its forms, or by the id of one of the
 * contact's own rows in another table (an exclusion's export rows).
 */
export type ContactLink =
  | { columns: readonly { column: string; form: ContactForm }[] }
  | { of: keyof DB & string; key: string; column: string };

/**
 * How a table's rows of one player (a tenant's user_id) are found: by its tenant_id and user_id columns; by its
 * tenant_id and the user_id inside a JSON column (an event's payload, an audit entry's details); or by the id of one
 * of the player's own rows in another table (a case's notes, an exclusion's export rows).
 */
export type PlayerLink =
  | 'user_id'
  | { json: 'payload' | 'details'; path: readonly string[]; tenantPath?: readonly string[] }
  | {
      of: readonly { table: keyof DB & string; key: string }[];
      column: string;
      /** The table's own tenant_id is the player's tenant: matched too, so that its (tenant_id, column) key is used. */
      sameTenant?: true;
    };

/** Why a kind of data is kept: each basis once, cited by the rows. */
export const BASES = {
  mlr: 'AML record keeping: the UK Money Laundering Regulations 2017 reg. 40 (and the EU AML directive art. 40) keep customer due diligence and transaction records 5 years after the business relationship ends',
  limitation:
    "Evidence of how the operator treated the player, for complaints and claims: the Limitation Act 1980's 6 years (contract claims), the Gambling Commission's social responsibility code",
  spec_geo: 'The interface specification: the geo-compliance audit log is kept 7 years',
  spec_reports: 'The interface specification: regulatory reports are kept 6 years',
  exclusion:
    'A self-exclusion must be honoured for its whole period (UK LCCP SR 3.5.3) and evidenced after it: kept while in force, then 6 years (limitation)',
  security: 'Security of processing (UK GDPR art. 32): kept only as long as an investigation needs it',
  service: 'Needed to run the service (the contract with the tenant): kept while in use',
  audit:
    'The accountability of the service and its staff (UK GDPR art. 5(2)): who did what, kept as long as what it concerns',
} as const;
export type Basis = keyof typeof BASES;

/** The kinds of case whose closing decision starts a clock (case_closure): the four-eyes subjects and review queues. */
export type CaseKind = 'aml' | 'sanctions' | 'kyc' | 'exclusion' | 'staff' | 'safer_gambling';

/**
 * What pseudonymising a row does to one column (data-lifecycle.store.ts applies it):
 * - `pseudonym`: a player's id becomes `pseudonym:<hex>`, a keyed hash of the tenant and the id, the same in every
 *   table, so a pseudonymised player's records still tie together and the service can find them from the id;
 * - `pseudonymAt`: the same, for a player's id inside a JSON column (the tenant from the row, or from `tenantAt`;
 *   `jsonText`: the column is JSON kept as text, the outbox's payload);
 * - `hash`: a name or a contact becomes `hash:<hex>`, its keyed hash: whoever holds the key can tell whether a given
 *   name was screened, nobody can read it;
 * - `year`: a date of birth becomes the first day of its year;
 * - `erase`: cleared (null).
 */
export type Treatment =
  | 'pseudonym'
  | 'hash'
  | 'year'
  | 'erase'
  | { pseudonymAt: readonly string[]; tenantAt?: readonly string[]; jsonText?: true };

export interface TableLifecycle<Columns extends string = string> {
  holds: string;
  /** Where it comes from: the endpoint or the work that writes it. */
  source: string;
  personal: readonly PersonalData[];
  basis: Basis;
  /** How long after `from`: whole years or days; 'in_use' while the service needs it (configuration, state). */
  keep: Keep | 'in_use';
  from: RetentionFrom;
  /** At the end: deleted, or pseudonymised where a report, an aggregate or an audit trail must survive. */
  end: RetentionEnd;
  /**
   * The row's own column its clock reads: its creation or its expiry, a staff account's end (disabled_at). Absent
   * for the clocks read elsewhere: the player's closure (relationship_end, by `player: 'user_id'`), the case
   * (`caseOf`), the parent row (`through`), the exclusion's own end.
   */
  at?: Columns;
  /** case_closure: the row's column holding its case's id, and the kind of case (or the column naming it). */
  caseOf?: { key: Columns; kind: CaseKind | Columns };
  /** A row without a time of its own is due with its parent row (an export's rows, a list version's changes). */
  through?: { table: keyof Tables & string; key: Columns };
  /** How one player's rows are found (an export, an erasure); absent: the table holds nothing tied to a player id. */
  player?: PlayerLink;
  /** How the rows of one email or phone are found (an export of a contact in the register); absent: none held. */
  contact?: ContactLink;
  /** The scheduled job that applies it. */
  appliedBy?: string;
  /**
   * What pseudonymising a row does to its columns: at the end of its retention when `end` is 'pseudonymise', and at
   * an erasure request for what must be kept. Absent: nothing in the row can be pseudonymised, so an erasure
   * deletes it when its basis allows (`service`, `security`) and keeps it whole otherwise.
   */
  pseudonymise?: { readonly [C in Columns]?: Treatment };
  /**
   * Rows that still protect the player (an exclusion in force; a time-out or a limit in force while the account is
   * open): an erasure applies only `pseudonymise` here to them, and finishes them when they stop protecting (at
   * `until`, or when the account closes).
   */
  inForce?: {
    column: Columns;
    values: readonly string[];
    until?: Columns;
    whileAccountOpen?: boolean;
    pseudonymise: { readonly [C in Columns]?: Treatment };
  };
  /**
   * The row of a partitioned table this row keys (its natural key, unique across partitions): kept as long as that
   * row, so due only once its partition is dropped; never a tenant's to override.
   */
  keptWith?: { table: keyof Tables & string; key: Columns; at: Columns };
  /** Partitioned by time: dropped a partition at a time (src/platform/partitions.ts). */
  partition?: TimePartitions;
}

/**
 * A table partitioned by range of a creation time (docs/data.md, Partitions): each partition spans `every`, and is
 * dropped whole once its whole span is more than `dropAfter` old (its newest possible row has reached that age).
 */
export interface TimePartitions {
  column: string;
  every: { months: number } | { days: number };
  dropAfter: { years: number } | { days: number };
}

/** A retention period: whole calendar years, or days. */
export type Keep = { years: number } | { days: number };

/** The one job that applies the lifecycle (src/platform/retention.ts). */
export const RETENTION_JOB = 'data.retention';

/**
 * How far a tenant may move a table's period from its default, per basis (`default`: never shorter than the
 * default); null: not the tenant's to change. An override is in the unit of the table's default.
 */
export const RETENTION_BOUNDS: Record<
  Basis,
  { shortest: Keep | 'default'; longest: Keep; why: string } | null
> = {
  mlr: {
    shortest: { years: 5 },
    longest: { years: 10 },
    why: 'MLR 2017 reg. 40(3): at least 5 years from the end of the relationship; reg. 40(4): no longer than 10 years in all (EU AML directive art. 40: 5 more years at most)',
  },
  limitation: {
    shortest: 'default',
    longest: { years: 15 },
    why: 'Shorter loses the evidence for claims the Limitation Act 1980 allows 6 years; 15 years is its longstop (s. 14B)',
  },
  spec_geo: {
    shortest: 'default',
    longest: { years: 10 },
    why: 'The specification fixes 7 years; past 10 no purpose is served that data minimisation (UK GDPR art. 5(1)(e)) would let outweigh',
  },
  spec_reports: {
    shortest: 'default',
    longest: { years: 10 },
    why: 'The specification fixes 6 years; past 10 no purpose is served that data minimisation would let outweigh',
  },
  exclusion: {
    shortest: 'default',
    longest: { years: 10 },
    why: 'The evidence of an honoured exclusion serves claims for 6 years after it ends (limitation); 10 at most, by data minimisation',
  },
  security: {
    shortest: { days: 1 },
    longest: { days: 90 },
    why: "The law fixes no minimum: a day lets a mail be retried and an embed session end; 90 days is as long as an investigation of misuse needs (UK GDPR art. 32, the security log's default)",
  },
  service: null,
  audit: {
    shortest: 'default',
    longest: { years: 10 },
    why: 'The trail is kept as long as what it concerns (6 years); 10 at most, by data minimisation',
  },
};

const years = (n: number) => ({ years: n });
const days = (n: number) => ({ days: n });

export const DATA_LIFECYCLE: {
  readonly [Table in keyof Tables]: TableLifecycle<keyof Tables[Table] & string>;
} = {
  // The platform
  tenants: {
    holds: 'Operators and their settings',
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  api_keys: {
    holds: "Tenants' API keys (SHA-256 hashes)",
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  audit_log: {
    holds: "Each tenant's audit trail of state changes",
    source: 'every state change, by the tenant, the staff or the service',
    personal: ['player_id', 'staff'],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    player: { json: 'details', path: ['user_id'] },
    pseudonymise: { details: { pseudonymAt: ['user_id'] } },
    appliedBy: 'partitions.maintain',
    partition: { column: 'occurred_at', every: { months: 1 }, dropAfter: years(6) },
  },
  security_log: {
    holds: 'Failed authentications without a tenant',
    source: 'refused authentications',
    personal: ['ip_address'],
    basis: 'security',
    keep: days(90),
    from: 'creation',
    end: 'delete',
    at: 'occurred_at',
    appliedBy: RETENTION_JOB,
  },
  events: {
    holds: 'The outbox: every webhook event and its payload',
    source: 'every state change that the tenant is told of',
    personal: ['player_id', 'transactions'],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    player: { json: 'payload', path: ['data', 'user_id'] },
    pseudonymise: { payload: { pseudonymAt: ['data', 'user_id'], jsonText: true } },
    appliedBy: 'partitions.maintain',
    partition: { column: 'created_at', every: { months: 1 }, dropAfter: years(6) },
  },
  webhook_attempts: {
    holds: 'Each delivery attempt of an event',
    source: "deliveries to the tenant's endpoint",
    personal: [],
    basis: 'audit',
    keep: days(90),
    from: 'creation',
    end: 'delete',
    appliedBy: 'partitions.maintain',
    partition: { column: 'attempted_at', every: { days: 7 }, dropAfter: days(90) },
  },
  scheduled_jobs: {
    holds: 'Work due on the service clock',
    source: 'the service, for work due later',
    personal: ['player_id'],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
    player: { json: 'payload', path: ['user_id'] },
  },
  service_settings: {
    holds: 'Service-wide settings (the test clock)',
    source: 'the service',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  download_sources: {
    holds: 'Sanctions and geo list downloads',
    source: 'list downloads',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  alerts: {
    holds: "Alerts for the service's staff",
    source: 'the service, for its staff',
    personal: ['player_id'],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'pseudonymise',
    at: 'raised_at',
    player: { json: 'details', path: ['user_id'], tenantPath: ['tenant_id'] },
    appliedBy: RETENTION_JOB,
    pseudonymise: { details: { pseudonymAt: ['user_id'], tenantAt: ['tenant_id'] } },
  },
  mail_outbox: {
    holds: 'Mail to players and staff, with its address',
    source: 'the hosted embeds and staff accounts',
    personal: ['contact'],
    basis: 'security',
    keep: days(7),
    from: 'creation',
    end: 'delete',
    at: 'created_at',
    contact: { columns: [{ column: 'to_address', form: 'email' }] },
    appliedBy: RETENTION_JOB,
  },
  secret_hash_keys: {
    holds: 'Sealed keys of the keyed hashes',
    source: 'the service',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  process_load: {
    holds: "Each process's load samples",
    source: 'the service',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  fx_rates: {
    holds: 'Exchange rates to USD',
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  decision_proposals: {
    holds: 'Four-eyes proposals and their approvals',
    source: "staff's four-eyes decisions on the player's cases",
    personal: ['player_id', 'free_text', 'staff'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
    caseOf: { key: 'subject_id', kind: 'subject' },
    player: {
      of: [
        { table: 'aml_cases', key: 'case_id' },
        { table: 'sanctions_cases', key: 'case_id' },
        { table: 'kyc_checks', key: 'kyc_check_id' },
        { table: 'exclusions', key: 'exclusion_id' },
      ],
      column: 'subject_id',
    },
    appliedBy: RETENTION_JOB,
    // The reason is required: kept as its keyed hash (whether a given text was the reason can be told, not read).
    pseudonymise: { reason: 'hash', decision_reason: 'erase' },
  },
  case_assignments: {
    holds: 'Which member of staff holds a case',
    source: 'staff taking cases',
    personal: ['staff'],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  case_notes: {
    holds: "Staff's notes on cases",
    source: "staff's notes on the player's cases",
    personal: ['free_text', 'staff'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'delete',
    caseOf: { key: 'subject_id', kind: 'subject' },
    player: {
      of: [
        { table: 'aml_cases', key: 'case_id' },
        { table: 'sanctions_cases', key: 'case_id' },
        { table: 'kyc_checks', key: 'kyc_check_id' },
        { table: 'exclusions', key: 'exclusion_id' },
      ],
      column: 'subject_id',
    },
    appliedBy: RETENTION_JOB,
  },
  // The staff
  staff_accounts: {
    holds: "The service's staff and their credentials",
    source: 'the back office (staff)',
    personal: ['staff'],
    basis: 'audit',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    at: 'disabled_at',
    appliedBy: RETENTION_JOB,
    pseudonymise: { email: 'hash', display_name: 'hash', password_hash: 'erase', totp_secret: 'erase' },
  },
  staff_setup_links: {
    holds: 'Single-use setup links (hashes)',
    source: 'the back office (staff)',
    personal: [],
    basis: 'security',
    keep: days(30),
    from: 'expiry',
    end: 'delete',
    at: 'expires_at',
    appliedBy: RETENTION_JOB,
  },
  staff_sessions: {
    holds: 'Console sessions (hashes)',
    source: 'console sign-ins',
    personal: ['staff'],
    basis: 'security',
    keep: days(90),
    from: 'expiry',
    end: 'delete',
    at: 'last_seen_at',
    appliedBy: RETENTION_JOB,
  },
  staff_sign_in_throttle: {
    holds: 'Failed sign-in counts (keyed hashes)',
    source: 'failed console sign-ins',
    personal: [],
    basis: 'security',
    keep: days(1),
    from: 'creation',
    end: 'delete',
    at: 'last_attempt_at',
    appliedBy: RETENTION_JOB,
  },
  // Self-exclusion
  exclusions: {
    holds: 'Self-exclusions, with the contacts they match on',
    source: 'POST /v1/exclusions and the hosted self-exclusion embed',
    personal: ['player_id', 'contact', 'contact_hash', 'free_text'],
    basis: 'exclusion',
    keep: years(6),
    from: 'exclusion_end',
    end: 'pseudonymise',
    player: 'user_id',
    // Found by the forms the others derive from (the canonical email of the email, the keyed hashes of these two),
    // each read through its index over every status: a pseudonymised row keeps none of them.
    contact: {
      columns: [
        { column: 'email_canonical', form: 'email_canonical' },
        { column: 'phone', form: 'phone' },
      ],
    },
    appliedBy: RETENTION_JOB,
    pseudonymise: {
      user_id: 'pseudonym',
      // Hashed rather than erased: a row keeps the email or phone it was made with (a check of the table).
      email: 'hash',
      email_canonical: 'erase',
      email_hash: 'erase',
      phone: 'hash',
      phone_hash: 'erase',
      reason: 'erase',
    },
    // In force, an exclusion keeps every form of the contact and the player's id it matches on (LCCP SR 3.5.3).
    inForce: { column: 'status', values: ['active'], until: 'expires_at', pseudonymise: { reason: 'erase' } },
  },
  contact_sightings: {
    holds: 'Which tenant has shown which contact (keyed hashes)',
    source: 'contacts the tenant sent to the live check, KYC and screening',
    personal: ['contact_hash'],
    basis: 'exclusion',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    at: 'first_seen_at',
    contact: { columns: [{ column: 'contact_hash', form: 'any_hash' }] },
    appliedBy: RETENTION_JOB,
  },
  regulator_exports: {
    holds: "Exports to the regulator's list",
    source: "the hand-over to the regulator's list",
    personal: ['staff'],
    basis: 'spec_reports',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    at: 'created_at',
    appliedBy: RETENTION_JOB,
  },
  regulator_export_rows: {
    holds: 'The rows of each export (contacts of excluded players)',
    source: "the hand-over to the regulator's list",
    personal: ['contact', 'identity'],
    basis: 'exclusion',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    through: { table: 'regulator_exports', key: 'export_id' },
    player: { of: [{ table: 'exclusions', key: 'exclusion_id' }], column: 'exclusion_id' },
    contact: { of: 'exclusions', key: 'exclusion_id', column: 'exclusion_id' },
    appliedBy: RETENTION_JOB,
  },
  // Limits, sessions, time-outs
  deposit_limits: {
    holds: 'Limits of every kind and their changes',
    source: 'POST /v1/limits and the hosted limits embed',
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
    inForce: { column: 'status', values: ['pending', 'active'], whileAccountOpen: true, pseudonymise: {} },
  },
  deposits: {
    holds: 'Committed deposits counted by the limits',
    source: 'POST /v1/limits/commit',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  limit_reservations: {
    holds: "A player's live deposit holds",
    source: 'POST /v1/limits/check',
    personal: ['player_id'],
    basis: 'service',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
    at: 'held_until',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
  },
  limit_releases: {
    holds: 'Released deposit holds: a repeated release answers the same',
    source: 'POST /v1/limits/release and failed deposit events',
    personal: ['player_id', 'transactions'],
    basis: 'service',
    keep: days(30),
    from: 'creation',
    end: 'delete',
    at: 'released_at',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  stake_holds: {
    holds: 'Stakes held by the wager check',
    source: 'POST /v1/limits/wager-check',
    personal: ['player_id'],
    basis: 'service',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
    at: 'expires_at',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
  },
  play_sessions: {
    holds: 'Play sessions and time played',
    source: 'POST /v1/play-sessions',
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  player_reality_checks: {
    holds: "A player's reality-check interval",
    source: 'PUT /v1/players/{user_id}/reality-check and the limits embed',
    personal: ['player_id'],
    basis: 'service',
    keep: 'in_use',
    from: 'relationship_end',
    end: 'delete',
    player: 'user_id',
  },
  tenant_reality_checks: {
    holds: "A tenant's default reality-check interval",
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  time_outs: {
    holds: 'Time-outs',
    source: 'POST /v1/time-outs and the limits embed',
    personal: ['player_id', 'free_text'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
    inForce: {
      column: 'status',
      values: ['active'],
      until: 'ends_at',
      whileAccountOpen: true,
      pseudonymise: {},
    },
  },
  // KYC
  kyc_users: {
    holds: "A player's verified tier and withdrawn total",
    source: 'KYC decisions and POST /v1/kyc/withdrawal-completed',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  kyc_checks: {
    holds: 'Verification checks and their decisions',
    source: 'POST /v1/kyc/start and the KYC vendor',
    personal: ['player_id', 'free_text'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  kyc_withdrawals: {
    holds: 'Withdrawals counted towards the tiers',
    source: 'POST /v1/kyc/withdrawal-completed',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  // Sanctions
  sanctions_screens: {
    holds: 'Screens: names, dates of birth, nationality, email',
    source: 'POST /v1/sanctions/screen',
    personal: ['player_id', 'identity', 'contact'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    contact: { columns: [{ column: 'email', form: 'email' }] },
    appliedBy: RETENTION_JOB,
    pseudonymise: {
      user_id: 'pseudonym',
      first_name: 'hash',
      last_name: 'hash',
      date_of_birth: 'year',
      email: 'hash',
    },
  },
  sanctions_cases: {
    holds: 'Hits, their matches and decisions',
    source: 'screens and re-screens with a match, and staff decisions',
    personal: ['player_id', 'free_text'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
    caseOf: { key: 'case_id', kind: 'sanctions' },
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  sanctions_rescreen_runs: {
    holds: 'Quarterly re-screen runs',
    source: 'the quarterly re-screen',
    personal: [],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    at: 'started_at',
    appliedBy: RETENTION_JOB,
  },
  sanctions_list_versions: {
    holds: 'Versions of the sanctions lists',
    source: 'list downloads',
    personal: [],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    at: 'accepted_at',
    appliedBy: RETENTION_JOB,
  },
  sanctions_list_entities: {
    holds: 'The entities of the lists in use',
    source: 'list downloads',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  sanctions_list_changes: {
    holds: 'What each list version changed',
    source: 'list downloads',
    personal: [],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    through: { table: 'sanctions_list_versions', key: 'version_id' },
    appliedBy: RETENTION_JOB,
  },
  sanctions_dismissals: {
    holds: 'Matches dismissed for a player',
    source: "staff's dismissals of matches",
    personal: ['player_id', 'staff'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  // Geo
  geo_countries: {
    holds: 'Country tiers',
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  geo_country_list: {
    holds: "The country list's version",
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  geo_country_changes: {
    holds: 'Changes of country tiers',
    source: 'the back office (staff)',
    personal: [],
    basis: 'spec_geo',
    keep: years(7),
    from: 'creation',
    end: 'delete',
    at: 'changed_at',
    appliedBy: RETENTION_JOB,
  },
  geo_audit_log: {
    holds: 'Every geo check: IP address, user agent, result',
    source: 'POST /v1/geo/check',
    personal: ['ip_address'],
    basis: 'spec_geo',
    keep: years(7),
    from: 'creation',
    end: 'delete',
    appliedBy: 'partitions.maintain',
    partition: { column: 'checked_at', every: { months: 1 }, dropAfter: years(7) },
  },
  // AML
  aml_events: {
    holds: 'Every transaction event',
    source: 'POST /v1/aml/event',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
    // MLR 2017 reg. 40(4): a relationship's transaction records are kept no longer than 10 years in all.
    partition: { column: 'occurred_at', every: { months: 1 }, dropAfter: years(10) },
  },
  aml_event_keys: {
    holds: "Each transaction event's natural key (tenant, transaction_id)",
    source: 'POST /v1/aml/event',
    personal: ['transactions'],
    basis: 'mlr',
    keep: years(10),
    from: 'creation',
    end: 'delete',
    at: 'occurred_at',
    keptWith: { table: 'aml_events', key: 'event_id', at: 'occurred_at' },
    player: {
      of: [{ table: 'aml_events', key: 'transaction_id' }],
      column: 'transaction_id',
      sameTenant: true,
    },
    appliedBy: RETENTION_JOB,
  },
  aml_evaluation_queue: {
    holds: 'Events waiting for evaluation',
    source: 'POST /v1/aml/event',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  aml_cases: {
    holds: 'AML cases, findings and decisions',
    source: 'AML evaluation, screens and staff decisions',
    personal: ['player_id', 'transactions', 'free_text'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
    caseOf: { key: 'case_id', kind: 'aml' },
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  aml_screens: {
    holds: 'Withdrawal screens',
    source: 'POST /v1/aml/screen',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  aml_rule_trips: {
    holds: 'Patterns already reported',
    source: 'AML evaluation',
    personal: ['player_id'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
    caseOf: { key: 'case_id', kind: 'aml' },
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  aml_settings: {
    holds: "A tenant's AML settings",
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  aml_dead_letters: {
    holds: 'Events whose evaluation failed',
    source: 'AML evaluation',
    personal: [],
    basis: 'audit',
    keep: years(5),
    from: 'creation',
    end: 'delete',
    at: 'dead_lettered_at',
    appliedBy: RETENTION_JOB,
  },
  // Safer gambling
  sg_tenant_settings: {
    holds: "A tenant's safer-gambling settings",
    source: 'the back office (staff)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  sg_marker_trips: {
    holds: 'Each marker trip, with what it measured',
    source: "the evaluation of the player's events, limits and sessions",
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  sg_player_markers: {
    holds: "Each marker's state for a player",
    source: "the evaluation of the player's events, limits and sessions",
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  sg_players: {
    holds: "A player's safer-gambling level",
    source: 'the evaluation of markers and interactions',
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  sg_interactions: {
    holds: "The operator's interactions with a player",
    source: 'POST /v1/players/{user_id}/interactions',
    personal: ['player_id', 'free_text'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym', notes: 'erase' },
  },
  sg_financial_checks: {
    holds: 'Financial checks called for',
    source: "the evaluation of the player's deposits and withdrawals",
    personal: ['player_id', 'transactions'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  // Players
  player_closures: {
    holds: "When a player's account closed: the end of the business relationship",
    source: 'POST /v1/players/{user_id}/closed',
    personal: ['player_id'],
    basis: 'mlr',
    // The longest of the kinds kept from it (a tenant's longer override keeps it longer still): the clock outlives them.
    keep: years(6),
    from: 'relationship_end',
    end: 'delete',
    at: 'closed_at',
    player: 'user_id',
    appliedBy: RETENTION_JOB,
    pseudonymise: { user_id: 'pseudonym' },
  },
  retention_overrides: {
    holds: "A tenant's retention periods within their bounds",
    source: 'the back office (staff)',
    personal: ['staff'],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  erasure_requests: {
    holds: "A player's erasure requests and what each erased or kept",
    source: 'POST /v1/players/{user_id}/erasure-requests and the back office',
    personal: ['player_id'],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    // The player's id in clear only while records that still protect the player wait to be erased.
    player: 'user_id',
    at: 'received_at',
    appliedBy: RETENTION_JOB,
  },
  // Hosted embeds and reports
  embed_sessions: {
    holds: "Embed sessions: a player's id, email and phone",
    source: 'POST /v1/embeds/sessions',
    personal: ['player_id', 'contact'],
    basis: 'security',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
    at: 'expires_at',
    player: 'user_id',
    contact: {
      columns: [
        { column: 'email', form: 'email' },
        { column: 'phone', form: 'phone' },
      ],
    },
    appliedBy: RETENTION_JOB,
  },
  embed_codes: {
    holds: 'Confirmation codes (hashes)',
    source: 'the hosted embeds',
    personal: ['contact_hash'],
    basis: 'security',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
    at: 'expires_at',
    player: { of: [{ table: 'embed_sessions', key: 'embed_session_id' }], column: 'embed_session_id' },
    appliedBy: RETENTION_JOB,
  },
  reports: {
    holds: 'Regulatory reports, every version',
    source: 'the reports compiled from every area',
    personal: ['player_id'],
    basis: 'spec_reports',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    at: 'compiled_at',
    appliedBy: RETENTION_JOB,
  },
};

/**
 * The tables whose retention is only the drop of whole partitions (`partition`, ending in deletion): the retention
 * job leaves them alone, and a tenant's override cannot apply to them (a partition holds every tenant's rows). A
 * partitioned table pseudonymised before its partitions go (the AML events) is the retention job's too.
 */
export const DROPPED_WHOLE: readonly (keyof Tables)[] = (
  Object.keys(DATA_LIFECYCLE) as (keyof Tables)[]
).filter((table) => DATA_LIFECYCLE[table].partition && DATA_LIFECYCLE[table].end === 'delete');

export const period = (keep: TableLifecycle['keep']) =>
  keep === 'in_use'
    ? 'while in use'
    : 'years' in keep
      ? `${keep.years} year${keep.years === 1 ? '' : 's'}`
      : `${keep.days} day${keep.days === 1 ? '' : 's'}`;

const FROM: Record<RetentionFrom, string> = {
  creation: 'its creation',
  relationship_end: 'the end of the relationship',
  case_closure: "the case's closure",
  exclusion_end: "the exclusion's end",
  expiry: 'its expiry',
};

/** How long a table's rows are kept, in words: "5 years from the end of the relationship". */
export const keptFor = (t: TableLifecycle) =>
  t.keep === 'in_use' ? 'while in use' : `${period(t.keep)} from ${FROM[t.from]}`;

const partitioning = (p: TimePartitions) =>
  `by \`${p.column}\`, ${'months' in p.every ? `${p.every.months} month` : `${p.every.days} days`} each, dropped ${period(p.dropAfter)} after the end`;

/** The lifecycle as the Markdown table of docs/data.md (written by `npx tsx scripts/data-doc.ts`). */
export function lifecycleTable(): string {
  const rows = Object.entries(DATA_LIFECYCLE).map(([table, t]) => [
    `\`${table}\``,
    t.holds,
    t.personal.length ? t.personal.map((p) => `\`${p}\``).join(', ') : 'none',
    `\`${t.basis}\``,
    keptFor(t),
    t.end,
    t.appliedBy ? `\`${t.appliedBy}\`` : t.keep === 'in_use' ? '—' : 'not yet',
    t.partition ? partitioning(t.partition) : '—',
  ]);
  const head = ['table', 'holds', 'personal data', 'basis', 'kept', 'then', 'applied by', 'partitions'];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
