import { randomBytes } from 'node:crypto';

/** The type prefix of every identifier the service issues. */
const PREFIXES = {
  tenant: 'ten',
  key: 'key',
  event: 'evt',
  job: 'job',
  request: 'req',
  exclusion: 'exc',
  limit: 'lim',
  time_out: 'tmo',
  deposit: 'dep',
  stake_hold: 'stk',
  play_session: 'pls',
  kyc_check: 'kyc',
  screen: 'scr',
  case: 'case',
  list_version: 'lsv',
  dismissal: 'dsm',
  aml_event: 'amlevt',
  aml_dead_letter: 'amldl',
  alert: 'alr',
  staff: 'stf',
  proposal: 'prop',
  embed_session: 'emb',
  embed_code: 'emc',
  mail: 'mail',
  report: 'rpt',
  regulator_export: 'rex',
  marker_trip: 'sgt',
  interaction: 'sgi',
  financial_check: 'sgf',
} as const;

export type IdKind = keyof typeof PREFIXES;

// Random bits drawn from the CSPRNG a few kilobytes at a time: one call per id cost more than the rest of a request.
const POOL_BYTES = 4096;
const ID_RANDOM_BYTES = 10;
let pool = randomBytes(POOL_BYTES);
let offset = 0;

function randomHex(): string {
  if (offset + ID_RANDOM_BYTES > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  offset += ID_RANDOM_BYTES;
  return pool.toString('hex', offset - ID_RANDOM_BYTES, offset);
}

/** `exc_0193a0f1c2d4e5f6a7b8c9d0e1f2a3b4`: millisecond time then 80 random bits, so ids sort by creation. */
export function newId(kind: IdKind): string {
  const time = Date.now().toString(16).padStart(12, '0');
  return `${PREFIXES[kind]}_${time}${randomHex()}`;
}
