import { DATA_LIFECYCLE, type TableLifecycle } from './data-lifecycle.js';
import {
  both,
  butNot,
  countRows,
  deleteRows,
  inForceCondition,
  pseudonymiseRows,
} from './data-lifecycle.store.js';
import { playerCondition } from './data-export.store.js';
import type { Executor } from './db/database.js';
import { addSpan } from './utc-calendar.js';

/** What an erasure does to a table's rows of the player. */
export type ErasureAction = 'deleted' | 'pseudonymised' | 'kept';

/**
 * The erasure's decision table (docs/data.md): what the law lets go is deleted (kept only to run the service, or for
 * security); what must be kept and can be pseudonymised is (AML, sanctions and player-protection records, the
 * outbox, the audit trail); the rest is kept whole (case notes and four-eyes decisions, the exports to the
 * regulator, the erasure requests themselves).
 */
export function erasureAction(t: TableLifecycle): ErasureAction {
  if (t.pseudonymise) return 'pseudonymised';
  return t.basis === 'service' || t.basis === 'security' ? 'deleted' : 'kept';
}

/** What one erasure did to one table's rows of the player. */
export interface TableErasure {
  table: string;
  action: ErasureAction;
  /** The rows deleted, pseudonymised or kept. */
  records: number;
  /** The rows left whole because they still protect the player, and the earliest time one of them stops. */
  in_force?: { records: number; until: string | null };
  /** When what is kept goes, where the service knows it (the clock runs from the account's closure). */
  kept_until: string | null;
}

// A table found through another's rows (a case's notes, an embed session's codes) goes first, while its owner's
// rows still hold the player's id.
const PLAYER_TABLES = Object.entries(DATA_LIFECYCLE)
  .filter(([, t]) => t.player !== undefined)
  .sort(
    ([, a], [, b]) =>
      Number(typeof b.player === 'object' && 'of' in b.player) -
      Number(typeof a.player === 'object' && 'of' in a.player),
  );

/**
 * Erases one player's data in every table the lifecycle links to a player, in the caller's transaction, as
 * `erasureAction` says; the rows that still protect the player (`inForce`) get only their own lighter treatment and
 * are finished by a later run once they stop. Running it again changes only what appeared or stopped protecting
 * since. `closedAt`: the account's closure, if the operator has told it.
 */
export async function erasePlayerData(
  db: Executor,
  key: Buffer,
  player: { tenantId: string; userId: string },
  now: Date,
  closedAt: Date | null,
): Promise<TableErasure[]> {
  const outcome: TableErasure[] = [];
  for (const [table, t] of PLAYER_TABLES) {
    const ofPlayer = playerCondition(t.player!, player.tenantId, player.userId);
    let rest = ofPlayer;
    let inForce: TableErasure['in_force'];
    if (t.inForce && !(t.inForce.whileAccountOpen && closedAt)) {
      const held = both(ofPlayer, inForceCondition(t.inForce, now));
      const found = await countRows(db, table, held, t.inForce.until);
      if (found.records > 0) {
        await pseudonymiseRows(db, table, t.inForce.pseudonymise, held, key);
        inForce = { records: found.records, until: found.until?.toISOString() ?? null };
      }
      rest = butNot(ofPlayer, inForceCondition(t.inForce, now));
    }
    const action = erasureAction(t);
    const records =
      action === 'deleted'
        ? await deleteRows(db, table, rest)
        : action === 'pseudonymised'
          ? await pseudonymiseRows(db, table, t.pseudonymise!, rest, key)
          : (await countRows(db, table, rest)).records;
    const keptUntil =
      action !== 'deleted' && t.from === 'relationship_end' && closedAt && t.keep !== 'in_use'
        ? addSpan(closedAt, t.keep)
        : null;
    outcome.push({
      table,
      action,
      records,
      ...(inForce && { in_force: inForce }),
      kept_until: keptUntil?.toISOString() ?? null,
    });
  }
  return outcome;
}
