/**
 * The screened players of the list-change benchmark, written with set-based SQL in the shapes the service writes
 * (screenUser, and for the cleared ones their decided case and remembered dismissal): `count` players spread over
 * the tenants, screened over the last 400 days against the list versions in force (read from
 * sanctions_list_versions), with names, dates of birth and nationalities drawn from the ordinary-name stock of the
 * sanctions evaluation; one in a thousand cleared after review of a match on an entity the change leaves alone; and
 * the planted players, whom the change will match.
 */
import { sql } from 'kysely';
import { ordinaryNameCultures } from '../../scripts/eval-inputs.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { seedSteps } from '../seed.js';
import type { PlantedPlayer } from './publication.js';

const DAY = 86_400;
const NATIONALITIES_PER_CULTURE = 12;

export async function seedScreenedPlayers(
  database: { url: string | undefined; dataDir: string },
  tenantIds: string[],
  count: number,
  planted: PlantedPlayer[],
  untouched: { entity_id: string; name: string },
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  const { timings, timed } = seedSteps(log);
  const step = (name: string, statement: ReturnType<typeof sql>) => timed(name, () => statement.execute(db));
  const cultures = Object.values(ordinaryNameCultures());
  const given = cultures.flatMap((c) => c.given.slice(0, 36));
  const surnames = cultures.flatMap((c) => c.surnames.slice(0, 36));
  const nationalities = cultures.flatMap((c) =>
    Array.from({ length: NATIONALITIES_PER_CULTURE }, (_, i) => c.nationalities[i % c.nationalities.length]!),
  );
  const C = cultures.length;
  const T = tenantIds.length;
  const tenants = sql`(select t.tenant_id, t.ord - 1 as ord from unnest(${tenantIds}::text[]) with ordinality as t(tenant_id, ord))`;
  const iso = (column: ReturnType<typeof sql>) =>
    sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  // The versions every seeded screening ran against: each list's latest accepted version, as the matcher states it.
  const versions = sql`(select jsonb_object_agg(list, jsonb_build_object('published_on', published_on, 'format', format,
      'files', files, 'digest', digest)) from (select distinct on (list) * from sanctions_list_versions
      order by list, accepted_at desc) v)`;
  try {
    // Player g: culture c, names and nationality of that culture, screened at `at` (ids ordered by time, as newId's).
    await step(
      'sanctions_screens',
      sql`insert into sanctions_screens (screen_id, tenant_id, user_id, first_name, last_name, date_of_birth, nationality,
            email, status, transactions_held, match_count, highest_match_score, case_id, vendor, list_versions,
            checked_at, updated_at, request_hash, screen_response)
          select p.screen_id, t.tenant_id, p.user_id,
                 (${given}::text[])[1 + p.c * 36 + ((g * 31 + g / ${C}) % 36)::int],
                 (${surnames}::text[])[1 + p.c * 36 + ((g * 17 + g / ${C * 36}) % 36)::int],
                 date '1945-01-01' + ((g * 104729) % 22280)::int,
                 (${nationalities}::text[])[1 + p.c * ${NATIONALITIES_PER_CULTURE} + (g % ${NATIONALITIES_PER_CULTURE})::int],
                 'player' || g || '@bench.example', p.status, false, p.matched, p.score, p.case_id, 'production',
                 ${versions}, p.at, p.at, md5('screen' || g),
                 case when p.case_id is null
                   then jsonb_build_object('screen_id', p.screen_id, 'user_id', p.user_id, 'status', 'clear',
                          'checked_at', ${iso(sql`p.at`)}, 'transactions_held', false)
                   else jsonb_build_object('screen_id', p.screen_id, 'user_id', p.user_id, 'status', 'hit_review_pending',
                          'checked_at', ${iso(sql`p.at`)}, 'transactions_held', true, 'match_count', 1,
                          'highest_match_score', 0.88, 'case_id', p.case_id, 'signup_allowed', true,
                          'estimated_review_time', '48 hours') end
          from generate_series(0::bigint, ${count - 1}) g
          join ${tenants} t on t.ord = g % ${T}
          cross join lateral (select now() - make_interval(secs => 3600 + (g * 7907) % ${400 * DAY}) as at) a
          cross join lateral (select a.at, ((g * 2654435761) % ${C})::int as c,
                 'scr_' || lpad(to_hex((extract(epoch from a.at) * 1000)::bigint), 12, '0') || substr(md5('scr' || g), 1, 20) as screen_id,
                 'user_' || (g / ${T}) as user_id,
                 case when g % 1000 = 500 then 'cleared' else 'clear' end as status,
                 case when g % 1000 = 500 then 1 else 0 end as matched,
                 case when g % 1000 = 500 then 0.88 else 0 end as score,
                 case when g % 1000 = 500 then 'case_' || substr(md5('case' || g), 1, 24) end as case_id) p`,
    );
    // The cleared players' cases: a signup hit on an entity the change leaves alone, dismissed by a reviewer.
    const match = sql`jsonb_build_array(jsonb_build_object('list', 'ofac_sdn', 'entity_id', ${untouched.entity_id}::text,
      'name', ${untouched.name}::text, 'score', 0.88, 'entity_type', 'person', 'primary_name', ${untouched.name}::text,
      'matched_name_quality', 'primary', 'name_score', 0.88, 'date_of_birth', 'conflict', 'nationality', 'not_listed'))`;
    await step(
      'sanctions_cases',
      sql`insert into sanctions_cases (case_id, tenant_id, screen_id, user_id, status, matches, list_versions,
            highest_match_score, opened_at, due_at, decided_at, reviewer, decision_reason, trigger)
          select s.case_id, s.tenant_id, s.screen_id, s.user_id, 'cleared', ${match}, s.list_versions, 0.88,
                 s.checked_at, s.checked_at + interval '48 hours', s.checked_at + interval '5 hours', 'stf_seed_0001',
                 'Different date of birth and nationality', 'signup'
          from sanctions_screens s where s.status = 'cleared'`,
    );
    await step(
      'sanctions_dismissals',
      sql`insert into sanctions_dismissals (dismissal_id, tenant_id, screen_id, user_id, case_id, list, entity_id,
            entity_name, entity_digest, subject_digest, score, dismissed_at, dismissed_by)
          select 'dsm_' || substr(md5(s.case_id), 1, 20), s.tenant_id, s.screen_id, s.user_id, s.case_id, 'ofac_sdn',
                 ${untouched.entity_id}::text, ${untouched.name}::text,
                 (select digest from sanctions_list_entities where list = 'ofac_sdn' and entity_id = ${untouched.entity_id}::text),
                 encode(sha256(convert_to(concat_ws(E'\\n', s.first_name, s.last_name,
                   to_char(s.date_of_birth, 'YYYY-MM-DD'), s.nationality), 'UTF8')), 'hex'),
                 0.88, s.checked_at + interval '5 hours', 'stf_seed_0001'
          from sanctions_screens s where s.status = 'cleared'`,
    );
    // The planted players, among the others in screen_id order (screened at times spread over the same 400 days).
    const rows = planted.map((p, i) => ({ ...p, n: count + i }));
    await step(
      'planted_players',
      sql`insert into sanctions_screens (screen_id, tenant_id, user_id, first_name, last_name, date_of_birth, nationality,
            email, status, transactions_held, match_count, highest_match_score, case_id, vendor, list_versions,
            checked_at, updated_at, request_hash, screen_response)
          select p.screen_id, t.tenant_id, p.user_id, r.first_name, r.last_name, r.date_of_birth::date, r.nationality,
                 'planted' || r.n || '@bench.example', 'clear', false, 0, 0, null, 'production', ${versions}, p.at, p.at,
                 md5('screen' || r.n),
                 jsonb_build_object('screen_id', p.screen_id, 'user_id', p.user_id, 'status', 'clear',
                   'checked_at', ${iso(sql`p.at`)}, 'transactions_held', false)
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as r(first_name text, last_name text, date_of_birth text, nationality text, n bigint)
          join ${tenants} t on t.ord = r.n % ${T}
          cross join lateral (select now() - make_interval(secs => 3600 + (r.n * 7907) % ${400 * DAY}) as at) a
          cross join lateral (select a.at,
                 'scr_' || lpad(to_hex((extract(epoch from a.at) * 1000)::bigint), 12, '0') || substr(md5('scr' || r.n), 1, 20) as screen_id,
                 'planted_' || r.n as user_id) p`,
    );
    await step('vacuum', sql`vacuum analyze sanctions_screens, sanctions_cases, sanctions_dismissals`);
    if (database.url) await step('checkpoint', sql`checkpoint`);
  } finally {
    await close();
  }
  return timings;
}
