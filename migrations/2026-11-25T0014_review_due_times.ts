import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- Sanctions hits are due for review 48 hours after the case opened (the spec's SLA); the reviewer's reason is
    -- kept with the decision.
    alter table sanctions_cases add column due_at timestamptz, add column decision_reason text;
    update sanctions_cases set due_at = opened_at + interval '48 hours';
    alter table sanctions_cases alter column due_at set not null;
    -- The review queue: oldest-due first, keyset on (due_at, case_id), by status.
    drop index sanctions_cases_status;
    create index sanctions_cases_due on sanctions_cases (status, due_at, case_id);

    -- KYC checks are due for review 48 hours after entering pending_review; null until then.
    alter table kyc_checks add column review_due_at timestamptz;
    update kyc_checks set review_due_at = last_activity_at + interval '48 hours' where status = 'pending_review';
    create index kyc_checks_review_due on kyc_checks (review_due_at, kyc_check_id) where review_due_at is not null;
    -- A check in pending_review waits on reviewers, not on the player: it no longer expires after 7 days.
    delete from scheduled_jobs
      where kind = 'kyc.expire'
        and subject_id in (select kyc_check_id from kyc_checks where status = 'pending_review');

    -- The "due soon" (4 hours before, the default of REVIEW_WARNING_HOURS) and "overdue" alerts of the cases
    -- already awaiting review, as src/platform/review-deadlines.ts stores them for new ones.
    insert into scheduled_jobs (job_id, kind, subject_id, tenant_id, due_at, payload)
      select 'job_' || md5(q.kind || q.subject_id), q.kind, q.subject_id, q.tenant_id, q.due_at,
             jsonb_build_object('due_at', to_char(q.review_due at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from (
        select 'review.sanctions.' || a.alert as kind, c.case_id as subject_id, c.tenant_id, c.due_at as review_due,
               c.due_at - case a.alert when 'review_due_soon' then interval '4 hours' else interval '0' end as due_at
          from sanctions_cases c
          cross join (values ('review_due_soon'), ('review_overdue')) as a (alert)
          where c.status = 'hit_review_pending'
        union all
        select 'review.kyc.' || a.alert, k.kyc_check_id, k.tenant_id, k.review_due_at,
               k.review_due_at - case a.alert when 'review_due_soon' then interval '4 hours' else interval '0' end
          from kyc_checks k
          cross join (values ('review_due_soon'), ('review_overdue')) as a (alert)
          where k.status = 'pending_review'
      ) q
      on conflict (kind, subject_id) do nothing;

    -- The quarterly re-screen runs on calendar quarters: the start-up seeds its job again at the next quarter.
    delete from scheduled_jobs where kind = 'sanctions.rescreen_quarterly';

    -- One row per quarterly re-screen: its progress, and the cursor (the last screen re-screened) it resumes from.
    create table sanctions_rescreen_runs (
      quarter text primary key,
      started_at timestamptz not null,
      total integer not null,
      screened integer not null default 0,
      new_hits integer not null default 0,
      skipped integer not null default 0,
      last_screen_id text,
      finished_at timestamptz
    );
  `,
  );
}
