import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE } from '../../src/platform/data-lifecycle.js';
import { contactRowsStatement, playerRowsStatement } from '../../src/platform/data-export.store.js';
import { useSuite } from '../helpers/suite.js';
import { TestService } from '../helpers/test-service.js';

/** The plan of `statement` on the test's database, with sequential scans off (its tables are small). */
async function planOf(t: TestService, statement: { sql: string; parameters: readonly unknown[] }) {
  return t.db.transaction().execute(async (tx) => {
    // The test's tables are small: without this, any plan would read them whole.
    await sql`set local enable_seqscan = off`.execute(tx);
    const explained = await tx.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
    );
    return explained.rows.map((row) => Object.values(row).join(' ')).join('\n');
  });
}

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
    const plan = await planOf(t, statement);
    expect(plan).toContain('Index Scan using events_user');
    // The player is found in the index, not by reading each of the tenant's events and filtering them.
    expect(plan).toMatch(/Index Cond: .*'user_id'::text\) = 'plan-player'/);
  });

  it("reads the keys of the player's AML events by their primary key, not every event's key", async () => {
    const t = suite.current;
    // A tenant's keys are many (every event of every player), a player's events few: the plan the statistics pick.
    await sql`insert into aml_event_keys (tenant_id, transaction_id, event_id, occurred_at)
      select 'ten_plan', 'tx-' || g, 'evt-' || g, now() from generate_series(1, 5000) g`.execute(t.db);
    await sql`analyze aml_event_keys`.execute(t.db);
    const link = DATA_LIFECYCLE.aml_event_keys.player!;
    const statement = playerRowsStatement('aml_event_keys', link, 'ten_plan', 'plan-player').compile(t.db);
    const plan = await planOf(t, statement);
    expect(plan).toContain('aml_event_keys_pkey');
    expect(plan).toMatch(/Index Cond: \(\(tenant_id = 'ten_plan'::text\) AND \(transaction_id = /);
  });

  it("reads the player's audit entries through the audit log's index on the player, in every partition", async () => {
    const t = suite.current;
    const statement = playerRowsStatement(
      'audit_log',
      DATA_LIFECYCLE.audit_log.player!,
      'ten_plan',
      'plan-player',
    ).compile(t.db);
    const plan = await planOf(t, statement);
    // Each partition's copy of audit_log_user (named by PostgreSQL), with the player in its condition.
    const scans = plan.match(/Index Scan using audit_log_\w+_tenant_id_expr_idx/g) ?? [];
    expect(scans.length).toBeGreaterThan(1);
    expect(plan.match(/Index Cond: .*'user_id'::text\) = 'plan-player'/g)).toHaveLength(scans.length);
    expect(plan).not.toMatch(/Seq Scan/);
  });
});

/**
 * The register is the largest table a contact's export reads (every exclusion, of every status, for years): the
 * export finds the contact's rows, ended ones too, through the register's indexes on the contact over every status.
 */
describe("a contact's data export's reads", () => {
  const suite = useSuite(async (own) => own(await TestService.start()));
  const forms = {
    email: 'jane.doe+casino@gmail.com',
    email_canonical: 'janedoe@gmail.com',
    email_hash: 'hash-of-the-email',
    phone: '+447700900123',
    phone_hash: 'hash-of-the-phone',
  };
  const owners = (table: string) => DATA_LIFECYCLE[table as keyof typeof DATA_LIFECYCLE]?.contact;

  it("reads the register's rows of an email and a phone through its contact indexes, not every row", async () => {
    const t = suite.current;
    const statement = contactRowsStatement('exclusions', DATA_LIFECYCLE.exclusions.contact!, forms, owners)!;
    const plan = await planOf(t, statement.compile(t.db));
    expect(plan).toMatch(/Index Cond: \(email_canonical = 'janedoe@gmail.com'::text\)/);
    expect(plan).toMatch(/Index Cond: \(phone = '\+447700900123'::text\)/);
    // Every status: the live check's indexes (active rows only) would not find an ended exclusion.
    expect(plan).toMatch(/exclusions_contact_email/);
    expect(plan).toMatch(/exclusions_contact_phone/);
    expect(plan).not.toMatch(/status/);
  });

  it('reads the sanctions screens of an email through their index on it, not every screen', async () => {
    const t = suite.current;
    const link = DATA_LIFECYCLE.sanctions_screens.contact!;
    const statement = contactRowsStatement('sanctions_screens', link, forms, owners)!;
    const plan = await planOf(t, statement.compile(t.db));
    expect(plan).toMatch(/sanctions_screens_email/);
    expect(plan).toMatch(/Index Cond: \(lower\(email\) = 'jane.doe\+casino@gmail.com'::text\)/);
  });

  it("reads an export's rows of the contact through the register's contact index, not every exclusion", async () => {
    const t = suite.current;
    const link = DATA_LIFECYCLE.regulator_export_rows.contact!;
    const statement = contactRowsStatement(
      'regulator_export_rows',
      link,
      { phone: forms.phone, phone_hash: forms.phone_hash },
      owners,
    )!;
    const plan = await planOf(t, statement.compile(t.db));
    expect(plan).toMatch(/exclusions_contact_phone/);
    expect(plan).toMatch(/Index Cond: \(phone = '\+447700900123'::text\)/);
  });
});
