import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Every version of a list the service accepted, with its comparison to the version it replaced and the progress
    -- of screening every player against what changed. A version is its content (digest), not its file name or date.
    create table sanctions_list_versions (
      version_id text primary key,
      list text not null,
      published_on text not null,
      format text not null,
      files jsonb not null,
      digest text not null,
      entities integer not null,
      previous_version_id text references sanctions_list_versions (version_id),
      accepted_at timestamptz not null,
      fetched_at timestamptz,
      added integer not null,
      changed integer not null,
      removed integer not null,
      -- The screening of players against the added and changed entities; null when there was nothing to screen.
      screening_started_at timestamptz,
      screening_total integer,
      screened integer not null default 0,
      new_hits integer not null default 0,
      screening_phase text check (screening_phase in ('walk', 'sweep')),
      screening_cursor text,
      screening_finished_at timestamptz,
      unique (list, digest)
    );
    create index sanctions_list_versions_list on sanctions_list_versions (list, accepted_at desc);

    -- The entities of each list's latest accepted version, by the digest of their screening-relevant content: the
    -- side the next version is compared with.
    create table sanctions_list_entities (
      list text not null,
      entity_id text not null,
      digest text not null,
      primary key (list, entity_id)
    );

    -- What each version changed, entity by entity; added and changed entities keep their screening content, so the
    -- screening job rebuilds its small index from the database whichever list version its process serves.
    create table sanctions_list_changes (
      version_id text not null references sanctions_list_versions (version_id),
      list text not null,
      entity_id text not null,
      kind text not null check (kind in ('added', 'changed', 'removed')),
      digest text,
      entity jsonb,
      primary key (version_id, entity_id)
    );
    create index sanctions_list_changes_removed on sanctions_list_changes (list, entity_id) where kind = 'removed';

    -- A reviewer's dismissal of one match as a false positive: that player, list and entity, the entity's content and
    -- the player's screened details at the decision, and the score then. Ended by withdrawal or by a later dismissal.
    create table sanctions_dismissals (
      dismissal_id text primary key,
      tenant_id text not null references tenants (tenant_id),
      screen_id text not null references sanctions_screens (screen_id),
      user_id text not null,
      case_id text not null references sanctions_cases (case_id),
      list text not null,
      entity_id text not null,
      entity_name text not null,
      entity_digest text,
      subject_digest text not null,
      score numeric not null,
      dismissed_at timestamptz not null,
      dismissed_by text,
      ended_at timestamptz,
      ended_by text,
      end_reason text
    );
    create unique index sanctions_dismissals_in_force on sanctions_dismissals (screen_id, list, entity_id)
      where ended_at is null;
    create index sanctions_dismissals_screen on sanctions_dismissals (screen_id);

    alter table sanctions_cases drop constraint sanctions_cases_trigger_check;
    alter table sanctions_cases add constraint sanctions_cases_trigger_check
      check (trigger in ('signup', 'rescreen', 'list_update'));
    -- A list_update case: the list version that brought it and the change of each matched entity.
    alter table sanctions_cases add column list_change jsonb;

    -- The dismissals already on record: every match of every cleared case, its entity content unknown (null), so
    -- only a change of the player's details raises it again, as before.
    insert into sanctions_dismissals (dismissal_id, tenant_id, screen_id, user_id, case_id, list, entity_id,
      entity_name, entity_digest, subject_digest, score, dismissed_at, dismissed_by)
    select distinct on (c.screen_id, m->>'list', m->>'entity_id')
      'dsm_' || substr(md5(c.case_id || (m->>'list') || (m->>'entity_id')), 1, 20), c.tenant_id, c.screen_id,
      c.user_id, c.case_id, m->>'list', m->>'entity_id', coalesce(m->>'name', ''), null,
      encode(sha256(convert_to(concat_ws(E'\\n', s.first_name, s.last_name, to_char(s.date_of_birth, 'YYYY-MM-DD'),
        s.nationality), 'UTF8')), 'hex'),
      (m->>'score')::numeric, coalesce(c.decided_at, c.opened_at), c.reviewer
    from sanctions_cases c
    join sanctions_screens s on s.screen_id = c.screen_id
    cross join lateral jsonb_array_elements(c.matches) m
    where c.status = 'cleared'
    order by c.screen_id, m->>'list', m->>'entity_id', c.decided_at desc;
    `,
  );
}
