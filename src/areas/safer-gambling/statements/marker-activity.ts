import { sql, type RawBuilder } from 'kysely';
import { jobUpsertSql } from '../../../platform/scheduler.js';
import { EVALUATE_JOB } from '../safer-gambling.jobs.js';

/**
 * markerActivity as SQL, for a hot statement that decides in SQL (the deposit check's rejection): one job per row of
 * `source` (`from … where …`), each field an SQL expression over it.
 */
export function markerActivitySql(input: {
  jobId: RawBuilder<string>;
  tenantId: RawBuilder<string>;
  userId: RawBuilder<string>;
  source: RawBuilder<string>;
  at: RawBuilder<Date>;
  from: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  return jobUpsertSql({
    kind: EVALUATE_JOB,
    jobId: input.jobId,
    subjectId: sql`${input.tenantId} || '/' || ${input.userId}`,
    tenantId: input.tenantId,
    dueAt: input.at,
    payload: sql`jsonb_build_object('user_id', ${input.userId}, 'source', ${input.source})`,
    source: input.from,
  });
}
