import type { Source } from './exclusions.schemas.js';

/**
 * What a row is to the tenant that reads it (the spec's `source`): its own registration is `operator`; every other
 * row, another operator's or the regulator's master list, is the national register, `regulator_comprehensive`.
 */
export const SOURCE_NAMES = {
  own: 'operator',
  other: 'regulator_comprehensive',
} as const satisfies Record<'own' | 'other', Source>;

export type SourceNames = typeof SOURCE_NAMES;
