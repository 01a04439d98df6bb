import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE } from '../../src/platform/data-lifecycle.js';
import { playerRowsStatement } from '../../src/platform/data-export.store.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

/**
 * The outbox is the largest table a player's export reads (every webhook of every player for years): the export
 * finds the player's through the outbox's index on them (events_user), whose expression its statement must repeat.
 */
describe("a player's data export's reads", () => {
  const suite = useSuite(async (own) => own(await TestService.start()));

  it("reads the player's webhooks through the outbox's index on the player, not every event", async () => {
    const t = suite.current;
    const link = DATA_LIFECYCLE.events.player!;
    const statement = playerRowsStatement('events', link, 'ten_plan', 'plan-player').compile(t.db);
    const plan = await t.db.transaction().execute(async (tx) => {
      // The test's outbox is small: without this, any plan would read it whole.
      await sql`set local enable_seqscan = off`.execute(tx);
      const explained = await tx.executeQuery<Record<string, string>>(
        CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
      );
      return explained.rows.map((row) => Object.values(row).join(' ')).join('\n');
    });
    expect(plan).toContain('Index Scan using events_user');
    // The player is found in the index, not by reading each of the tenant's events and filtering them.
    expect(plan).toMatch(/Index Cond: .*'user_id'::text\) = 'plan-player'/);
  });
});
