import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- An event's outcome (metadata.status): whether its money moved. Value rules count succeeded events only, so the
    -- index every rule window scans carries it (counts and sums stay index-only).
    alter table aml_events add column status text not null default 'succeeded'
      check (status in ('succeeded', 'failed', 'pending'));
    update aml_events set status = metadata->>'status' where metadata->>'status' in ('failed', 'pending');
    drop index aml_events_user_time;
    create index aml_events_user_time on aml_events (tenant_id, user_id, occurred_at)
      include (event_type, usd_cents, status);

    -- R-006 links users by an explicit metadata.payment_method_fingerprint only: a payment method kind ("card")
    -- stored as a fingerprint is no instrument.
    update aml_events set fingerprint = null
      where fingerprint is not null and fingerprint is distinct from metadata->>'payment_method_fingerprint';

    -- Where a case came from decides which decisions it can take (a rejected withdrawal is never released), and
    -- when its review is due (48 hours from opening, the spec's AML review SLA).
    alter table aml_cases add column origin text, add column due_at timestamptz, add column reviewed_at timestamptz,
      add column decision_reason text;
    update aml_cases set origin = case when source = 'async' then 'async' else 'screen_hold' end,
      due_at = opened_at + interval '48 hours',
      reviewed_at = case when status in ('under_review', 'held') then null else decided_at end;
    -- A real-time case carries its withdrawal: the screen's primary key finds its decision.
    update aml_cases c set origin = 'screen_reject'
      from aml_screens s
      where c.source = 'realtime' and s.tenant_id = c.tenant_id and s.withdrawal_id = c.withdrawal_id
        and s.decision = 'reject';
    alter table aml_cases alter column origin set not null, alter column due_at set not null,
      add constraint aml_cases_origin check (origin in ('async', 'screen_hold', 'screen_reject'));
    -- The review queue: oldest-due first, keyset on (due_at, case_id), overall, by tenant and by status.
    create index aml_cases_due on aml_cases (due_at, case_id);
    create index aml_cases_tenant_due on aml_cases (tenant_id, due_at, case_id);
    drop index aml_cases_status;
    create index aml_cases_status_due on aml_cases (status, due_at, case_id);

    -- The "due soon" (4 hours before, the default of REVIEW_WARNING_HOURS) and "overdue" alerts of the cases already
    -- awaiting review, as src/platform/review-deadlines.ts stores them for new ones.
    insert into scheduled_jobs (job_id, kind, subject_id, tenant_id, due_at, payload)
      select 'job_' || md5(q.kind || q.subject_id), q.kind, q.subject_id, q.tenant_id, q.due_at,
             jsonb_build_object('due_at', to_char(q.review_due at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from (
        select 'review.aml.' || a.alert as kind, c.case_id as subject_id, c.tenant_id, c.due_at as review_due,
               c.due_at - case a.alert when 'review_due_soon' then interval '4 hours' else interval '0' end as due_at
          from aml_cases c
          cross join (values ('review_due_soon'), ('review_overdue')) as a (alert)
          where c.status in ('under_review', 'held')
      ) q
      on conflict (kind, subject_id) do nothing;

    -- Events whose evaluation kept failing after its retries: listed for staff and re-driven into the queue. A
    -- re-driven row stays, with who re-drove it and when; an event has at most one dead letter not yet re-driven.
    create table aml_dead_letters (
      dead_letter_id text primary key,
      event_id text not null references aml_events (event_id),
      tenant_id text not null references tenants (tenant_id),
      attempts integer not null,
      last_error text not null,
      dead_lettered_at timestamptz not null,
      redriven_at timestamptz,
      redriven_by text
    );
    create unique index aml_dead_letters_pending on aml_dead_letters (event_id) where redriven_at is null;
    create index aml_dead_letters_order on aml_dead_letters (dead_lettered_at, dead_letter_id);
  `,
  );
}
