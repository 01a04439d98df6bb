import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The staff's safer-gambling follow-ups (docs/safer-gambling.md): one row per player whose owed interaction is
    -- overdue (and still owed) or who contested a finding, in the shape the shared case-work queue reads (an id, a
    -- status, a due time, a time of leaving). A view, not a table: sg_players stays the one record of the standing.
    -- A player contested and overdue shows as contested (the contest needs the staff's judgement). A follow-up
    -- joins the queue at the earlier of the two flags and is due to the staff 24 hours later (the queue's order).
    create view sg_follow_ups as
      select tenant_id || '/' || user_id as follow_up_id, tenant_id, user_id,
        case when contested_at is not null then 'contested' else 'overdue' end as status,
        least(overdue_at, contested_at) as follow_up_at,
        least(overdue_at, contested_at) + interval '24 hours' as due_at,
        overdue_at, contested_at, contested_interaction_id, risk_level, interaction_due_at,
        null::timestamptz as cleared_at
      from (
        select p.*, case when p.interaction_due_at is not null then p.interaction_overdue_at end as overdue_at
        from sg_players p
        -- Overdue and still owed, or contested; the first clause is the partial index sg_players_follow_up's own
        -- predicate, so the queue reads that index rather than every player with a standing.
        where (p.interaction_overdue_at is not null or p.contested_at is not null)
          and (p.interaction_due_at is not null or p.contested_at is not null)
      ) players;

    -- The monthly safer-gambling report joins the reports' types.
    alter table reports drop constraint reports_report_type_check;
    alter table reports add constraint reports_report_type_check
      check (report_type in ('threshold', 'self_limitation', 'safer_gambling'));
    `,
  );
}
