/**
 * The console benchmark's open review work, written with set-based SQL beside seedVolume's data: sanctions hits
 * awaiting review (with their screens), AML cases under review, KYC checks pending review, a third each, spread
 * over the seeded tenants and users, due from 3 days ago to 2 days ahead (so a good part is overdue). Rows have the
 * shapes the service writes (see the stores' inserts); each case also has its webhook event, and some have staff
 * notes and assignments with their audit rows. Review alerts are stored only where they are still hours away, so
 * no alert fires while pages are measured.
 */
import { sql, type RawBuilder } from 'kysely';
import { riskScore, decisionFor, type RuleCode } from '../src/areas/aml/aml.rules.js';
import { TIERS } from '../src/areas/kyc/kyc.rules.js';
import { ESTIMATED_REVIEW_TIME } from '../src/areas/sanctions/sanctions.rules.js';
import { openDatabase } from '../src/platform/db/database.js';
import { requestFingerprint } from '../src/platform/idempotency.js';

const DAY = 86_400;
/** Members of staff who took cases and wrote notes (accounts only: they never sign in). */
const SEED_STAFF = 12;
const ASYNC_RULES: RuleCode[] = ['R-002', 'R-004'];
const SCREEN_RULES: RuleCode[] = ['R-001', 'R-002'];
const KYC_TIERS = TIERS.filter((t) => ['tier_2', 'tier_3', 'tier_4'].includes(t.tier));

/** The cases one page of each kind can be opened on, and a player with much data. */
export interface SeededCases {
  sanctions: string[];
  aml: string[];
  kyc: string[];
  player: { tenantId: string; userId: string };
  staffIds: string[];
}

type Database = { url: string | undefined; dataDir: string };

/** An ISO-8601 instant as the service writes them in JSON (toISOString). */
const iso = (column: RawBuilder<unknown>) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Writes `count` open cases (a third of each kind); returns seconds per step and the ids to measure pages on. */
export async function seedOpenCases(
  database: Database,
  tenantIds: string[],
  usersPerTenant: number,
  count: number,
  log: (line: string) => void,
): Promise<{ timings: Record<string, number>; cases: SeededCases }> {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  const timings: Record<string, number> = {};
  const step = async (name: string, statement: RawBuilder<unknown>) => {
    const started = performance.now();
    await statement.execute(db);
    timings[name] = Math.round((performance.now() - started) / 100) / 10;
    log(`  seeded ${name} in ${timings[name]} s`);
  };
  const T = tenantIds.length;
  const perKind = Math.floor(count / 3);
  const kinds = { sanctions: perKind, aml: perKind, kyc: count - 2 * perKind };
  // One instant for every statement, so ids derived from a case's times agree between statements.
  const now = sql`${new Date().toISOString()}::timestamptz`;
  const tenants = sql`(select t.tenant_id, t.ord - 1 as ord from unnest(${tenantIds}::text[]) with ordinality as t(tenant_id, ord))`;
  /** Case g of a kind: its tenant, player, due time (3 days ago to 2 days ahead) and opening 48 hours before. */
  /** Case g (from `first`) of a kind, due within `span` days from `daysAgo` days ago. */
  const base = (n: number, prefix: string, kind: string, spread: number, first = 0, daysAgo = 3, span = 5) =>
    sql`(select g, t.tenant_id, g / ${T} as u, d.due, d.due - interval '48 hours' as opened,
          ${prefix} || '_' || lpad(to_hex((extract(epoch from d.due - interval '48 hours') * 1000)::bigint), 12, '0')
            || substr(md5(${kind} || g), 1, 20) as id
        from generate_series(${first}::int, ${first + n - 1}::int) g
        join ${tenants} t on t.ord = g % ${T}
        cross join lateral (select ${now} - make_interval(days => ${daysAgo}::int) + make_interval(secs => (g * ${spread}) % ${span * DAY})) as d(due))`;
  const staff = (expr: RawBuilder<unknown>) =>
    sql`'stf_seed_' || lpad((${expr} % ${SEED_STAFF})::text, 4, '0')`;
  try {
    // The audit rows of the operators' exclusions (bench/seed.ts: every 4th), by their tenant's API key, in time
    // order: the log a search walks through is as long as the register's history makes it.
    await step(
      'audit_log_exclusions',
      sql`insert into audit_log (tenant_id, occurred_at, actor, action, request_id, details)
          select e.tenant_id, e.initiated_at, k.key_prefix, 'exclusion.created', null,
                 jsonb_build_object('exclusion_id', e.exclusion_id, 'user_id', e.user_id, 'duration', e.duration)
          from exclusions e
          join lateral (select key_prefix from api_keys where tenant_id = e.tenant_id order by created_at limit 1) k on true
          where e.origin = 'operator' and e.exclusion_id like 'exc_seed_%'
          order by e.initiated_at`,
    );
    await step(
      'staff_accounts',
      sql`insert into staff_accounts (staff_id, email, display_name, role, status, created_at, created_by)
          select 'stf_seed_' || lpad(s::text, 4, '0'), 'reviewer' || s || '@bench.example', 'Reviewer ' || s,
                 case when s % 4 = 0 then 'supervisor' else 'reviewer' end, 'active', ${now} - interval '30 days', 'backoffice'
          from generate_series(0, ${SEED_STAFF - 1}) s`,
    );
    // A hit of the sandbox's kinds: two strong matches ("TestHit") or one borderline ("Maybe…").
    const matches = sql`case when c.g % 2 = 0
      then jsonb_build_array(
        jsonb_build_object('list', 'SANDBOX', 'entity_id', 'sandbox-testhit-1', 'name', 'Test HIT', 'score', 0.91),
        jsonb_build_object('list', 'SANDBOX', 'entity_id', 'sandbox-testhit-2', 'name', 'Testa HITT', 'score', 0.88))
      else jsonb_build_array(
        jsonb_build_object('list', 'SANDBOX', 'entity_id', 'sandbox-maybe', 'name', 'Maybe' || c.g || ' BORDERLINE', 'score', 0.85))
      end`;
    const lists = sql`'{"SANDBOX":{"published_on":"sandbox-1","format":"sandbox","files":[]}}'::jsonb`;
    const sanctions = base(kinds.sanctions, 'case', 'sanctions', 7919);
    await step(
      'sanctions_screens',
      sql`insert into sanctions_screens (screen_id, tenant_id, user_id, first_name, last_name, date_of_birth, nationality,
            email, status, transactions_held, match_count, highest_match_score, case_id, vendor, list_versions,
            checked_at, updated_at, request_hash, screen_response)
          select 'scr_' || substr(c.id, 6), c.tenant_id, 'user_' || c.u,
                 case when c.g % 2 = 0 then 'Player' || c.g else 'Maybe' || c.g end,
                 case when c.g % 2 = 0 then 'TestHit' else 'Seed' end,
                 date '1960-01-01' + (c.g % 15000), (array['GB','DE','FR','ES','IT','NL'])[1 + c.g % 6],
                 'player' || c.g || '@bench.example', 'hit_review_pending', true, m.n, m.top, c.id, 'sandbox', ${lists},
                 c.opened, c.opened, md5('screen' || c.g),
                 jsonb_build_object('screen_id', 'scr_' || substr(c.id, 6), 'user_id', 'user_' || c.u,
                   'status', 'hit_review_pending', 'checked_at', ${iso(sql`c.opened`)}, 'transactions_held', true,
                   'match_count', m.n, 'highest_match_score', m.top, 'case_id', c.id, 'signup_allowed', true,
                   'estimated_review_time', ${ESTIMATED_REVIEW_TIME}::text)
          from ${sanctions} c
          cross join lateral (select case when c.g % 2 = 0 then 2 else 1 end as n,
                                     case when c.g % 2 = 0 then 0.91 else 0.85 end as top) as m`,
    );
    await step(
      'sanctions_cases',
      sql`insert into sanctions_cases (case_id, tenant_id, screen_id, user_id, status, matches, list_versions,
            highest_match_score, opened_at, due_at, trigger)
          select c.id, c.tenant_id, 'scr_' || substr(c.id, 6), 'user_' || c.u, 'hit_review_pending', ${matches}, ${lists},
                 case when c.g % 2 = 0 then 0.91 else 0.85 end, c.opened, c.due,
                 case when c.g % 10 = 0 then 'rescreen' else 'signup' end
          from ${sanctions} c`,
    );
    // AML: a seeded player's async case (one open per player), or, once every player has one, a screen's hold
    // case. The transactions are the player's seeded events (bench/seed.ts numbers them g = t + T*u + T*U*k).
    const TU = T * usersPerTenant;
    const asyncScore = riskScore(ASYNC_RULES);
    const screenScore = riskScore(SCREEN_RULES);
    const screenDecision = decisionFor(screenScore) === 'reject' ? 'reject' : 'hold';
    const aml = sql`(select b.*, b.u % ${usersPerTenant} as player, b.g >= ${TU} as screened,
          (select jsonb_agg('seed-aml-' || ((b.g % ${T}) + ${T} * (b.u % ${usersPerTenant}) + ${TU} * k)) from generate_series(0, 2) k) as txs
        from ${base(kinds.aml, 'case', 'aml', 7927)} b)`;
    const trip = (code: string, details: RawBuilder<unknown>) =>
      sql`jsonb_build_object('rule_code', ${code}::text, 'pattern_key', '', 'at', ${iso(sql`c.opened`)},
            'transaction_ids', c.txs, 'details', ${details})`;
    await step(
      'aml_screens',
      sql`insert into aml_screens (tenant_id, withdrawal_id, user_id, amount_cents, currency, usd_cents, payment_method,
            destination_country, decision, risk_score, rules_triggered, case_id, request_hash, screened_at)
          select c.tenant_id, 'seed-wd-' || c.g, 'user_' || c.player, 1500000 + c.g % 100000, 'USD',
                 1500000 + c.g % 100000, 'card_' || c.player, 'GB', ${screenDecision}::text, ${screenScore}::int,
                 ${JSON.stringify(SCREEN_RULES)}::jsonb, c.id, md5('wd' || c.g), c.opened
          from ${aml} c where c.screened`,
    );
    await step(
      'aml_cases',
      sql`insert into aml_cases (case_id, tenant_id, user_id, status, source, origin, withdrawal_id, rules_triggered,
            risk_score, transaction_ids, context, opened_at, updated_at, due_at)
          select c.id, c.tenant_id, 'user_' || c.player, 'under_review',
                 case when c.screened then 'realtime' else 'async' end,
                 case when not c.screened then 'async' when ${screenDecision}::text = 'reject' then 'screen_reject' else 'screen_hold' end,
                 case when c.screened then 'seed-wd-' || c.g end,
                 case when c.screened then ${JSON.stringify(SCREEN_RULES)}::jsonb else ${JSON.stringify(ASYNC_RULES)}::jsonb end,
                 case when c.screened then ${screenScore}::int else ${asyncScore}::int end,
                 c.txs,
                 case when c.screened then jsonb_build_array(
                     ${trip('R-001', sql`jsonb_build_object('withdrawal_usd_cents', 1500000 + c.g % 100000, 'threshold_usd_cents', 1000000)`)},
                     ${trip('R-002', sql`jsonb_build_object('deposits', 6, 'window_seconds', 3600)`)})
                   else jsonb_build_array(
                     ${trip('R-002', sql`jsonb_build_object('deposits', 6, 'window_seconds', 3600)`)},
                     ${trip('R-004', sql`jsonb_build_object('deposit_usd_cents', 250000, 'wagered_usd_cents', 1200, 'window_seconds', 86400)`)})
                 end,
                 c.opened, c.opened, c.due
          from ${aml} c`,
    );
    const tierCases = KYC_TIERS.map((t, i) => sql`when ${i} then ${t.tier}::text`);
    const tierDocs = KYC_TIERS.map((t, i) => sql`when ${i} then ${JSON.stringify(t.documents)}::jsonb`);
    const tierHash = KYC_TIERS.map(
      (t, i) => sql`when ${i} then ${requestFingerprint({ required_tier: t.tier })}::text`,
    );
    const k = KYC_TIERS.length;
    const kyc = base(kinds.kyc, 'kyc', 'kyc', 7933);
    await step(
      'kyc_checks',
      sql`insert into kyc_checks (kyc_check_id, tenant_id, user_id, required_tier, required_documents, status,
            withdrawal_id, withdrawal_amount_cents, currency, withdrawal_usd_cents, vendor_token_hash,
            vendor_token_expires_at, request_hash, created_at, updated_at, last_activity_at, review_due_at)
          select c.id, c.tenant_id, 'user_' || c.u, case c.g % ${k} ${sql.join(tierCases, sql` `)} end,
                 case c.g % ${k} ${sql.join(tierDocs, sql` `)} end, 'pending_review',
                 'seed-kyc-wd-' || c.g, 250000 + c.g % 500000, 'USD', 250000 + c.g % 500000,
                 encode(sha256(convert_to(c.id, 'UTF8')), 'hex'), c.opened,
                 case c.g % ${k} ${sql.join(tierHash, sql` `)} end,
                 c.opened - interval '1 hour', c.opened, c.opened, c.due
          from ${kyc} c`,
    );
    await step(
      'kyc_users',
      sql`insert into kyc_users (tenant_id, user_id, verified_tier, cumulative_withdrawn_usd_cents, updated_at)
          select tenant_id, user_id, 'tier_1', 150000, created_at from kyc_checks
          on conflict (tenant_id, user_id) do nothing`,
    );
    // The decided history behind the open work (twice as many cases of each kind, due 5 to 90 days ago): the queues
    // and counts must find the open cases among them.
    const history = 2 * perKind;
    const decided = (kind: string, prefix: string, spread: number) =>
      sql`(select b.*, b.due - make_interval(secs => 3600 + (b.g * 4099) % 160000) as decided,
                  ${staff(sql`b.g`)} as reviewer, b.g % 10 = 0 as adverse
           from ${base(history, prefix, kind, spread, count, 90, 85)} b)`;
    await step(
      'decided_sanctions',
      sql`with c as (select * from ${decided('sanctions', 'case', 7919)} d),
          s as (insert into sanctions_screens (screen_id, tenant_id, user_id, first_name, last_name, date_of_birth,
                  nationality, email, status, transactions_held, match_count, highest_match_score, case_id, vendor,
                  list_versions, checked_at, updated_at, request_hash, screen_response)
                select 'scr_' || substr(c.id, 6), c.tenant_id, 'user_' || c.u, 'Maybe' || c.g, 'Seed', date '1970-01-01' + (c.g % 12000),
                       'GB', 'player' || c.g || '@bench.example', case when c.adverse then 'confirmed' else 'cleared' end, c.adverse,
                       1, 0.85, c.id, 'sandbox', ${lists}, c.opened, c.decided, md5('screen' || c.g),
                       jsonb_build_object('screen_id', 'scr_' || substr(c.id, 6), 'user_id', 'user_' || c.u,
                         'status', 'hit_review_pending', 'checked_at', ${iso(sql`c.opened`)}, 'transactions_held', true,
                         'match_count', 1, 'highest_match_score', 0.85, 'case_id', c.id, 'signup_allowed', true,
                         'estimated_review_time', ${ESTIMATED_REVIEW_TIME}::text)
                from c returning screen_id)
          insert into sanctions_cases (case_id, tenant_id, screen_id, user_id, status, matches, list_versions,
            highest_match_score, opened_at, due_at, decided_at, reviewer, decision_reason, trigger)
          select c.id, c.tenant_id, 'scr_' || substr(c.id, 6), 'user_' || c.u, case when c.adverse then 'confirmed' else 'cleared' end,
                 ${matches}, ${lists}, 0.85, c.opened, c.due, c.decided, c.reviewer,
                 'Different date of birth and nationality from the listed person.', 'signup'
          from c`,
    );
    await step(
      'decided_aml',
      sql`insert into aml_cases (case_id, tenant_id, user_id, status, source, origin, withdrawal_id, rules_triggered,
            risk_score, transaction_ids, context, opened_at, updated_at, decided_at, reviewer, due_at, reviewed_at, decision_reason)
          select c.id, c.tenant_id, 'user_' || (c.u % ${usersPerTenant}), case when c.adverse then 'frozen' else 'cleared' end,
                 'async', 'async', null, ${JSON.stringify(ASYNC_RULES)}::jsonb, ${asyncScore}::int, '[]'::jsonb,
                 jsonb_build_array(jsonb_build_object('rule_code', 'R-002', 'pattern_key', '', 'at', ${iso(sql`c.opened`)},
                   'transaction_ids', '[]'::jsonb, 'details', jsonb_build_object('deposits', 6, 'window_seconds', 3600))),
                 c.opened, c.decided, c.decided, c.reviewer, c.due, c.decided, 'Deposits match the player''s declared income.'
          from ${decided('aml', 'case', 7927)} c`,
    );
    await step(
      'decided_kyc',
      sql`insert into kyc_checks (kyc_check_id, tenant_id, user_id, required_tier, required_documents, status,
            withdrawal_id, withdrawal_amount_cents, currency, withdrawal_usd_cents, vendor_token_hash,
            vendor_token_expires_at, request_hash, created_at, updated_at, last_activity_at, review_due_at,
            decided_at, decided_by, decision_reason)
          select c.id, c.tenant_id, 'user_' || (c.u % ${usersPerTenant}), case c.g % ${k} ${sql.join(tierCases, sql` `)} end,
                 case c.g % ${k} ${sql.join(tierDocs, sql` `)} end, case when c.adverse then 'rejected' else 'approved' end,
                 'seed-kyc-wd-' || c.g, 250000 + c.g % 500000, 'USD', 250000 + c.g % 500000,
                 encode(sha256(convert_to(c.id, 'UTF8')), 'hex'), c.opened, case c.g % ${k} ${sql.join(tierHash, sql` `)} end,
                 c.opened - interval '1 hour', c.decided, c.opened, c.due, c.decided, c.reviewer,
                 case when c.adverse then 'The document is expired.' else 'Documents match the player.' end
          from ${decided('kyc', 'kyc', 7933)} c`,
    );
    // Each case's webhook (no destination is configured on the bench tenants).
    await step(
      'events',
      sql`insert into events (event_id, tenant_id, event, payload, created_at, delivery_status)
          select x.event_id, x.tenant_id, x.event,
                 jsonb_build_object('event', x.event, 'event_id', x.event_id, 'timestamp', ${iso(sql`x.at`)}, 'data', x.data)::text,
                 x.at, 'no_destination'
          from (select 'evt_' || substr(x.id, strpos(x.id, '_') + 1) as event_id, x.* from (
            select case_id as id, tenant_id, 'sanctions.hit' as event, opened_at as at,
                   jsonb_build_object('user_id', user_id, 'case_id', case_id) as data
              from sanctions_cases
            union all
            select case_id, tenant_id, 'aml.flagged', opened_at,
                   jsonb_build_object('user_id', user_id, 'case_id', case_id, 'rules_triggered', rules_triggered, 'risk_score', risk_score)
              from aml_cases
            union all
            select kyc_check_id, tenant_id, 'kyc.submitted', last_activity_at,
                   jsonb_build_object('user_id', user_id, 'kyc_check_id', kyc_check_id, 'status', status, 'required_documents', required_documents)
              from kyc_checks) x) x`,
    );
    // Alerts still hours away; the ones already past fired before the run (and are gone, as the scheduler deletes them).
    await step(
      'scheduled_jobs',
      sql`insert into scheduled_jobs (job_id, kind, subject_id, tenant_id, due_at, payload)
          select 'job_' || md5(q.kind || q.subject_id), q.kind, q.subject_id, q.tenant_id, q.due_at,
                 jsonb_build_object('due_at', ${iso(sql`q.review_due`)})
          from (
            select 'review.' || c.queue || '.' || a.alert as kind, c.id as subject_id, c.tenant_id, c.due as review_due,
                   c.due - case a.alert when 'review_due_soon' then interval '4 hours' else interval '0' end as due_at
            from (select 'sanctions' as queue, case_id as id, tenant_id, due_at as due from sanctions_cases
                  union all select 'aml', case_id, tenant_id, due_at from aml_cases
                  union all select 'kyc', kyc_check_id, tenant_id, review_due_at from kyc_checks where review_due_at is not null) c
            cross join (values ('review_due_soon'), ('review_overdue')) as a (alert)
          ) q
          where q.due_at > ${now} + interval '3 hours'
          on conflict (kind, subject_id) do nothing`,
    );
    // Every 10th case taken by a seeded reviewer, every 20th with a note; each with its audit row.
    const work = sql`(select 'sanctions' as subject, case_id as id, opened_at as at from sanctions_cases
        union all select 'aml', case_id, opened_at from aml_cases
        union all select 'kyc', kyc_check_id, last_activity_at from kyc_checks)`;
    await step(
      'case_assignments',
      sql`insert into case_assignments (subject, subject_id, staff_id, taken_at)
          select w.subject, w.id, ${staff(sql`abs(hashtext(w.id || 'staff'))`)}, w.at + interval '1 hour'
          from ${work} w where abs(hashtext(w.id)) % 10 = 0`,
    );
    await step(
      'case_notes',
      sql`insert into case_notes (subject, subject_id, author, body, created_at)
          select w.subject, w.id, ${staff(sql`abs(hashtext(w.id || 'staff'))`)},
                 'Checked the player''s history; waiting for the documents the tenant asked for.', w.at + interval '2 hours'
          from ${work} w where abs(hashtext(w.id)) % 20 = 0`,
    );
    // Four eyes: every 200th sanctions hit and AML case has a decision proposed and awaiting a second approver.
    await step(
      'decision_proposals',
      sql`insert into decision_proposals (proposal_id, subject, subject_id, tenant_id, action, reason, proposed_by,
            proposed_at, status)
          select 'prop_' || substr(p.id, strpos(p.id, '_') + 1), p.subject, p.id, p.tenant_id, p.action,
                 'The listed person and the player share name, date of birth and nationality.',
                 ${staff(sql`abs(hashtext(p.id || 'staff'))`)}, p.at + interval '3 hours', 'pending'
          from (select 'sanctions' as subject, case_id as id, tenant_id, 'confirmed' as action, opened_at as at
                  from sanctions_cases where status = 'hit_review_pending'
                union all select 'aml', case_id, tenant_id, case when abs(hashtext(case_id)) % 2 = 0 then 'escalate' else 'freeze' end,
                  opened_at from aml_cases where status = 'under_review') p
          where abs(hashtext(p.id)) % 200 = 1`,
    );
    await step(
      'audit_log',
      sql`insert into audit_log (tenant_id, occurred_at, actor, action, request_id, details)
          select x.tenant_id, x.at, x.actor, x.action, null, x.details
          from (select null as tenant_id, staff_id as actor, taken_at as at, 'case.taken' as action,
                       jsonb_build_object('subject', subject, 'case_id', subject_id) as details from case_assignments
                union all select null, author, created_at, 'case.note_added',
                       jsonb_build_object('subject', subject, 'case_id', subject_id) from case_notes
                union all select tenant_id, proposed_by, proposed_at, subject || '.decision_proposed',
                       jsonb_build_object('proposal_id', proposal_id, 'case_id', subject_id, 'action', action, 'reason', reason)
                  from decision_proposals) x
          order by x.at`,
    );
    // Vacuumed as autovacuum would have by now: visibility maps set (index-only counts), no autovacuum mid-run.
    await step(
      'vacuum',
      sql`vacuum analyze sanctions_screens, sanctions_cases, aml_screens, aml_cases, kyc_checks, kyc_users, events,
            scheduled_jobs, case_assignments, case_notes, decision_proposals, audit_log, staff_accounts`,
    );
    const cases = await sampleCases(db, tenantIds[0]!);
    return { timings, cases };
  } finally {
    await close();
  }
}

/** The cases to open pages on in a database seeded earlier (a kept database): its tenants and sample cases. */
export async function seededCases(database: Database): Promise<{ tenantIds: string[]; cases: SeededCases }> {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    const tenants = await db.selectFrom('tenants').select('tenant_id').orderBy('name').execute();
    const tenantIds = tenants.map((t) => t.tenant_id);
    return { tenantIds, cases: await sampleCases(db, tenantIds[0]!) };
  } finally {
    await close();
  }
}

/** The oldest and the newest open case of each kind, and tenant 1's user_0 (a case of every kind). */
async function sampleCases(
  db: Awaited<ReturnType<typeof openDatabase>>['db'],
  tenantId: string,
): Promise<SeededCases> {
  const pick = async (table: string, id: string, due: string, status: string) => {
    const { rows } = await sql<{ id: string }>`
      (select ${sql.ref(id)} as id from ${sql.table(table)} where status = ${status} order by ${sql.ref(due)} limit 1)
      union all (select ${sql.ref(id)} from ${sql.table(table)} where status = ${status} order by ${sql.ref(due)} desc limit 1)
      union all (select ${sql.ref(id)} from ${sql.table(table)} where tenant_id = ${tenantId} and user_id = 'user_0')`.execute(
      db,
    );
    return rows.map((r) => r.id);
  };
  return {
    sanctions: await pick('sanctions_cases', 'case_id', 'due_at', 'hit_review_pending'),
    aml: await pick('aml_cases', 'case_id', 'due_at', 'under_review'),
    kyc: await pick('kyc_checks', 'kyc_check_id', 'review_due_at', 'pending_review'),
    player: { tenantId, userId: 'user_0' },
    staffIds: Array.from({ length: SEED_STAFF }, (_, s) => `stf_seed_${String(s).padStart(4, '0')}`),
  };
}

/**
 * Gives a member of staff `perQueue` cases of each queue, spread evenly down the queue (so "assigned to me" has to
 * look past other people's cases), with their audit rows.
 */
export async function assignTo(database: Database, staffId: string, perQueue: number): Promise<void> {
  const { db, close } = await openDatabase({ url: database.url, dataDir: database.dataDir });
  try {
    await sql`insert into case_assignments (subject, subject_id, staff_id, taken_at)
        select q.subject, q.id, ${staffId}, now() from (
          select subject, id, row_number() over (partition by subject order by due, id) as n,
                 count(*) over (partition by subject) as total
          from (select 'sanctions' as subject, case_id as id, due_at as due from sanctions_cases where status = 'hit_review_pending'
                union all select 'aml', case_id, due_at from aml_cases where status = 'under_review'
                union all select 'kyc', kyc_check_id, review_due_at from kyc_checks where status = 'pending_review') c
        ) q
        where q.n % greatest(1, q.total / ${perQueue}) = 0
        on conflict (subject, subject_id) do update set staff_id = excluded.staff_id, taken_at = excluded.taken_at`.execute(
      db,
    );
    await sql`insert into audit_log (tenant_id, occurred_at, actor, action, request_id, details)
        select null, taken_at, staff_id, 'case.taken', null, jsonb_build_object('subject', subject, 'case_id', subject_id)
        from case_assignments where staff_id = ${staffId}`.execute(db);
    await sql`analyze case_assignments`.execute(db);
    await sql`analyze audit_log`.execute(db);
  } finally {
    await close();
  }
}
