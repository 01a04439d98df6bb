import { Type, type Static } from 'typebox';
import { Timestamp } from '../../platform/schemas.js';

const Failure = Type.Object({
  file: Type.String({ description: 'Path relative to SANCTIONS_DATA_DIR' }),
  list: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  error: Type.String(),
  at: Timestamp,
});

export const ListStatus = Type.Object({
  list: Type.String({ description: 'ofac_sdn, ofac_consolidated, un, uk or eu' }),
  format: Type.String(),
  published_on: Type.String({ description: 'The publication date the list itself states' }),
  files: Type.Array(Type.String()),
  entities: Type.Integer(),
  names: Type.Integer({ description: 'Primary names, aliases and non-Latin-script names' }),
  loaded_at: Timestamp,
  age_days: Type.Integer(),
  stale: Type.Boolean({ description: 'Published more than SANCTIONS_MAX_AGE_DAYS ago' }),
  warnings: Type.Array(Type.String()),
  last_failure: Type.Union([Failure, Type.Null()]),
});

/** What this process serves; every process holding the lists loads the same directory. */
export const ListsStatus = Type.Object({
  data_dir: Type.Union([Type.String(), Type.Null()]),
  available: Type.Boolean({ description: 'Whether live tenants cut over for sanctions can be screened' }),
  max_age_days: Type.Integer(),
  hit_threshold: Type.Number(),
  index_built_at: Type.Union([Timestamp, Type.Null()]),
  last_reload_at: Type.Union([Timestamp, Type.Null()]),
  warnings: Type.Array(Type.String()),
  lists: Type.Array(ListStatus),
  superseded: Type.Array(
    Type.Object({
      list: Type.String(),
      format: Type.String(),
      published_on: Type.String(),
      files: Type.Array(Type.String()),
    }),
    { description: 'Older publications in the directory, not in force' },
  ),
  skipped: Type.Array(Type.Object({ file: Type.String(), reason: Type.String() })),
  failures: Type.Array(Failure, { description: 'Problems found by the latest reload' }),
});
export type ListsStatus = Static<typeof ListsStatus>;
