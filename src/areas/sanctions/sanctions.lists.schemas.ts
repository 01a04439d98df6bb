import { Type, type Static } from 'typebox';
import { DownloadReport, Timestamp } from '../../platform/schemas.js';

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
  fetched_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When the service downloaded this version; null for a file put in the directory by hand',
  }),
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
  fetch_enabled: Type.Boolean({ description: 'SANCTIONS_FETCH: the service downloads the lists itself' }),
  sources: Type.Array(
    Type.Object({
      ...DownloadReport.properties,
      list: Type.String(),
      file: Type.String({ description: 'Where the download is kept, relative to SANCTIONS_DATA_DIR' }),
    }),
    { description: 'Each configured download source and its latest check' },
  ),
});
export type ListsStatus = Static<typeof ListsStatus>;

export const ListsFetchResponse = Type.Object({
  downloads: Type.Array(DownloadReport, { description: 'What this run did, one entry per configured list' }),
  lists: ListsStatus,
});
