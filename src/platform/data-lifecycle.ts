import type { DB } from './db/schema.js';

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

export interface TableLifecycle {
  holds: string;
  personal: readonly PersonalData[];
  basis: Basis;
  /** How long after `from`: whole years or days; 'in_use' while the service needs it (configuration, state). */
  keep: { years: number } | { days: number } | 'in_use';
  from: RetentionFrom;
  /** At the end: deleted, or pseudonymised where a report, an aggregate or an audit trail must survive. */
  end: RetentionEnd;
  /** The scheduled job that applies it today; absent: not applied yet (the rest of docs/data.md says what is next). */
  appliedBy?: string;
}

const years = (n: number) => ({ years: n });
const days = (n: number) => ({ days: n });

export const DATA_LIFECYCLE: { readonly [Table in keyof DB]: TableLifecycle } = {
  // The platform
  tenants: {
    holds: 'Operators and their settings',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  api_keys: {
    holds: "Tenants' API keys (SHA-256 hashes)",
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  audit_log: {
    holds: "Each tenant's audit trail of state changes",
    personal: ['player_id', 'staff'],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'pseudonymise',
  },
  security_log: {
    holds: 'Failed authentications without a tenant',
    personal: ['ip_address'],
    basis: 'security',
    keep: days(90),
    from: 'creation',
    end: 'delete',
    appliedBy: 'security_log.retention',
  },
  events: {
    holds: 'The outbox: every webhook event and its payload',
    personal: ['player_id', 'transactions'],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'pseudonymise',
  },
  webhook_attempts: {
    holds: 'Each delivery attempt of an event',
    personal: [],
    basis: 'audit',
    keep: days(90),
    from: 'creation',
    end: 'delete',
  },
  scheduled_jobs: {
    holds: 'Work due on the service clock',
    personal: ['player_id'],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  service_settings: {
    holds: 'Service-wide settings (the test clock)',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  download_sources: {
    holds: 'Sanctions and geo list downloads',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  alerts: {
    holds: "Alerts for the service's staff",
    personal: ['player_id'],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'pseudonymise',
  },
  mail_outbox: {
    holds: 'Mail to players and staff, with its address',
    personal: ['contact'],
    basis: 'security',
    keep: days(7),
    from: 'creation',
    end: 'delete',
    appliedBy: 'mail.retention',
  },
  secret_hash_keys: {
    holds: 'Sealed keys of the keyed hashes',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  process_load: {
    holds: "Each process's load samples",
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  fx_rates: {
    holds: 'Exchange rates to USD',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  decision_proposals: {
    holds: 'Four-eyes proposals and their approvals',
    personal: ['player_id', 'free_text', 'staff'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
  },
  case_assignments: {
    holds: 'Which member of staff holds a case',
    personal: ['staff'],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  case_notes: {
    holds: "Staff's notes on cases",
    personal: ['free_text', 'staff'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'delete',
  },
  // The staff
  staff_accounts: {
    holds: "The service's staff and their credentials",
    personal: ['staff'],
    basis: 'audit',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  staff_setup_links: {
    holds: 'Single-use setup links (hashes)',
    personal: [],
    basis: 'security',
    keep: days(30),
    from: 'expiry',
    end: 'delete',
  },
  staff_sessions: {
    holds: 'Console sessions (hashes)',
    personal: ['staff'],
    basis: 'security',
    keep: days(90),
    from: 'expiry',
    end: 'delete',
  },
  staff_sign_in_throttle: {
    holds: 'Failed sign-in counts (keyed hashes)',
    personal: [],
    basis: 'security',
    keep: days(1),
    from: 'creation',
    end: 'delete',
    appliedBy: 'staff.sign_in_throttle.retention',
  },
  // Self-exclusion
  exclusions: {
    holds: 'Self-exclusions, with the contacts they match on',
    personal: ['player_id', 'contact', 'contact_hash', 'free_text'],
    basis: 'exclusion',
    keep: years(6),
    from: 'exclusion_end',
    end: 'pseudonymise',
  },
  contact_sightings: {
    holds: 'Which tenant has shown which contact (keyed hashes)',
    personal: ['contact_hash'],
    basis: 'exclusion',
    keep: years(6),
    from: 'creation',
    end: 'delete',
  },
  regulator_exports: {
    holds: "Exports to the regulator's list",
    personal: ['staff'],
    basis: 'spec_reports',
    keep: years(6),
    from: 'creation',
    end: 'delete',
  },
  regulator_export_rows: {
    holds: 'The rows of each export (contacts of excluded players)',
    personal: ['contact', 'identity'],
    basis: 'exclusion',
    keep: years(6),
    from: 'creation',
    end: 'delete',
  },
  // Limits, sessions, time-outs
  deposit_limits: {
    holds: 'Limits of every kind and their changes',
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  deposits: {
    holds: 'Committed deposits counted by the limits',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  limit_reservations: {
    holds: "A player's live deposit holds",
    personal: ['player_id'],
    basis: 'service',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
  },
  limit_releases: {
    holds: 'Released deposit holds',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  stake_holds: {
    holds: 'Stakes held by the wager check',
    personal: ['player_id'],
    basis: 'service',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
  },
  play_sessions: {
    holds: 'Play sessions and time played',
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  player_reality_checks: {
    holds: "A player's reality-check interval",
    personal: ['player_id'],
    basis: 'service',
    keep: 'in_use',
    from: 'relationship_end',
    end: 'delete',
  },
  tenant_reality_checks: {
    holds: "A tenant's default reality-check interval",
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  time_outs: {
    holds: 'Time-outs',
    personal: ['player_id', 'free_text'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  // KYC
  kyc_users: {
    holds: "A player's verified tier and withdrawn total",
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  kyc_checks: {
    holds: 'Verification checks and their decisions',
    personal: ['player_id', 'free_text'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  kyc_withdrawals: {
    holds: 'Withdrawals counted towards the tiers',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  // Sanctions
  sanctions_screens: {
    holds: 'Screens: names, dates of birth, nationality, email',
    personal: ['player_id', 'identity', 'contact'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  sanctions_cases: {
    holds: 'Hits, their matches and decisions',
    personal: ['player_id', 'free_text'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
  },
  sanctions_rescreen_runs: {
    holds: 'Quarterly re-screen runs',
    personal: [],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
  },
  sanctions_list_versions: {
    holds: 'Versions of the sanctions lists',
    personal: [],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
  },
  sanctions_list_entities: {
    holds: 'The entities of the lists in use',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  sanctions_list_changes: {
    holds: 'What each list version changed',
    personal: [],
    basis: 'audit',
    keep: years(6),
    from: 'creation',
    end: 'delete',
  },
  sanctions_dismissals: {
    holds: 'Matches dismissed for a player',
    personal: ['player_id', 'staff'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  // Geo
  geo_countries: {
    holds: 'Country tiers',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  geo_country_list: {
    holds: "The country list's version",
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  geo_country_changes: {
    holds: 'Changes of country tiers',
    personal: [],
    basis: 'spec_geo',
    keep: years(7),
    from: 'creation',
    end: 'delete',
  },
  geo_audit_log: {
    holds: 'Every geo check: IP address, user agent, result',
    personal: ['ip_address'],
    basis: 'spec_geo',
    keep: years(7),
    from: 'creation',
    end: 'delete',
    appliedBy: 'geo.audit_retention',
  },
  // AML
  aml_events: {
    holds: 'Every transaction event',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  aml_evaluation_queue: {
    holds: 'Events waiting for evaluation',
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  aml_cases: {
    holds: 'AML cases, findings and decisions',
    personal: ['player_id', 'transactions', 'free_text'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
  },
  aml_screens: {
    holds: 'Withdrawal screens',
    personal: ['player_id', 'transactions'],
    basis: 'mlr',
    keep: years(5),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  aml_rule_trips: {
    holds: 'Patterns already reported',
    personal: ['player_id'],
    basis: 'mlr',
    keep: years(5),
    from: 'case_closure',
    end: 'pseudonymise',
  },
  aml_settings: {
    holds: "A tenant's AML settings",
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  aml_dead_letters: {
    holds: 'Events whose evaluation failed',
    personal: [],
    basis: 'audit',
    keep: years(5),
    from: 'creation',
    end: 'delete',
  },
  // Safer gambling
  sg_tenant_settings: {
    holds: "A tenant's safer-gambling settings",
    personal: [],
    basis: 'service',
    keep: 'in_use',
    from: 'creation',
    end: 'delete',
  },
  sg_marker_trips: {
    holds: 'Each marker trip, with what it measured',
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  sg_player_markers: {
    holds: "Each marker's state for a player",
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  sg_players: {
    holds: "A player's safer-gambling level",
    personal: ['player_id'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  sg_interactions: {
    holds: "The operator's interactions with a player",
    personal: ['player_id', 'free_text'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  sg_financial_checks: {
    holds: 'Financial checks called for',
    personal: ['player_id', 'transactions'],
    basis: 'limitation',
    keep: years(6),
    from: 'relationship_end',
    end: 'pseudonymise',
  },
  // Hosted embeds and reports
  embed_sessions: {
    holds: "Embed sessions: a player's id, email and phone",
    personal: ['player_id', 'contact'],
    basis: 'security',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
    appliedBy: 'embeds.retention',
  },
  embed_codes: {
    holds: 'Confirmation codes (hashes)',
    personal: ['contact_hash'],
    basis: 'security',
    keep: days(1),
    from: 'expiry',
    end: 'delete',
    appliedBy: 'embeds.retention',
  },
  reports: {
    holds: 'Regulatory reports, every version',
    personal: ['player_id'],
    basis: 'spec_reports',
    keep: years(6),
    from: 'creation',
    end: 'delete',
    appliedBy: 'reports.retention',
  },
};

const period = (keep: TableLifecycle['keep']) =>
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

/** The lifecycle as the Markdown table of docs/data.md (written by `npx tsx scripts/data-doc.ts`). */
export function lifecycleTable(): string {
  const rows = Object.entries(DATA_LIFECYCLE).map(([table, t]) => [
    `\`${table}\``,
    t.holds,
    t.personal.length ? t.personal.map((p) => `\`${p}\``).join(', ') : 'none',
    `\`${t.basis}\``,
    t.keep === 'in_use' ? 'while in use' : `${period(t.keep)} from ${FROM[t.from]}`,
    t.end,
    t.appliedBy ? `\`${t.appliedBy}\`` : t.keep === 'in_use' ? '—' : 'not yet',
  ]);
  const head = ['table', 'holds', 'personal data', 'basis', 'kept', 'then', 'applied by'];
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}
