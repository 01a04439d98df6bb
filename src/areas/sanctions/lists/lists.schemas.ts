import { Type, type Static } from 'typebox';
import { DownloadReport, Timestamp } from '../../../platform/schemas.js';

const Failure = Type.Object({
  file: Type.String({ description: 'Path relative to SANCTIONS_DATA_DIR' }),
  list: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  error: Type.String(),
  at: Timestamp,
});

const Screening = Type.Object(
  {
    started_at: Timestamp,
    total: Type.Integer({ description: 'Players eligible when the screening started' }),
    screened: Type.Integer(),
    new_hits: Type.Integer({ description: 'Players held with a list_update case' }),
    phase: Type.Union([Type.Literal('walk'), Type.Literal('sweep'), Type.Null()]),
    finished_at: Type.Union([Timestamp, Type.Null()]),
    seconds_to_last_player: Type.Union([Type.Number(), Type.Null()], {
      description: 'From the version accepted to the last player screened against it',
    }),
  },
  { description: 'Every eligible player screened against the added and changed entities' },
);

/** A list version the service accepted and what it changed. */
export const ListVersionView = Type.Object({
  version_id: Type.String(),
  list: Type.String(),
  published_on: Type.String(),
  format: Type.String(),
  files: Type.Array(Type.String()),
  entities: Type.Integer(),
  previous_version_id: Type.Union([Type.String(), Type.Null()], {
    description: 'null: the first version recorded, the baseline of later comparisons',
  }),
  accepted_at: Timestamp,
  fetched_at: Type.Union([Timestamp, Type.Null()], { description: 'null: put in the directory by hand' }),
  added: Type.Integer(),
  changed: Type.Integer({ description: 'A name, alias, date of birth or nationality changed' }),
  removed: Type.Integer({ description: 'Delisted: never clears a case by itself' }),
  screening: Type.Union([Screening, Type.Null()], { description: 'null: nothing added or changed' }),
});

export const ListVersionDetail = Type.Object({
  ...ListVersionView.properties,
  entity_ids: Type.Object({
    added: Type.Array(Type.String()),
    changed: Type.Array(Type.String()),
    removed: Type.Array(Type.String()),
  }),
});

export const ListVersionsQuery = Type.Object({
  list: Type.Optional(Type.String({ maxLength: 40 })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 20 }),
});
export type ListVersionsQuery = Static<typeof ListVersionsQuery>;

export const ListVersions = Type.Object({
  versions: Type.Array(ListVersionView, { description: 'Newest first' }),
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
  last_change: Type.Union([ListVersionView, Type.Null()], {
    description:
      'The latest version that changed the list: when it was published, fetched, accepted and fully screened',
  }),
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
