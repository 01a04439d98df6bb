import type { Kysely } from 'kysely';
import { executeStatements } from './execute-statements.js';

// Frozen once merged: later changes go in new migrations.
export async function up(db: Kysely<unknown>): Promise<void> {
  await executeStatements(
    db,
    `
    -- The keys of the keyed hashes (contact hashes, embed codes), each sealed under the master key: a rotation of the
    -- master key re-seals them and leaves every stored hash valid. The first start stores them (the key is
    -- configuration, never the database's), as the sub-keys the hashes were made with until then (ADR 0017).
    create table secret_hash_keys (
      purpose text primary key,
      sealed_key text not null,
      created_at timestamptz not null
    );

    -- Mail that carries a one-time code keeps its bodies only until it is sent or given up on: the outbox then keeps
    -- who, when, the subject and the outcome, never the code.
    alter table mail_outbox add column secret_body boolean not null default false;
    alter table mail_outbox alter column text_body drop not null;
    alter table mail_outbox alter column html_body drop not null;

    -- Exports written before CSV cells were neutralised keep rendering as they were, so their stored digests still
    -- prove their bytes; every later export is written with true.
    alter table regulator_exports add column csv_cells_neutralised boolean not null default false;
    `,
  );
}
