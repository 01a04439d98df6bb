import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/platform/group-commit.js';

/** A write that records each statement it was asked to make and can be told to fail on a row. */
function recordingWrite(failOn?: number) {
  const statements: number[][] = [];
  const write = async (rows: number[]) => {
    statements.push(rows);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (failOn !== undefined && rows.includes(failOn)) throw new Error(`row ${failOn} refused`);
    return rows.map((row) => row * 10);
  };
  return { statements, write };
}

describe('group commit', () => {
  it('writes a lone row at once, then groups the rows that arrive while a write is in flight', async () => {
    const { statements, write } = recordingWrite();
    const commit = new GroupCommit(write, { maxInFlight: 1 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => commit.submit(i)));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
    expect(statements[0]).toEqual([0]);
    expect(statements).toHaveLength(2);
    expect(statements[1]).toHaveLength(19);
  });

  it('answers no caller before the write holding its row has finished', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const commit = new GroupCommit(async (rows: number[]) => {
      await gate;
      return rows;
    });
    let answered = false;
    const pending = commit.submit(1).then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    release();
    await pending;
    expect(answered).toBe(true);
  });

  it('fails only the bad row of a failed batch: the others are written again on their own', async () => {
    const { statements, write } = recordingWrite(7);
    const commit = new GroupCommit(write, { maxInFlight: 1 });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => commit.submit(i)));
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
    expect((outcomes[7] as PromiseRejectedResult).reason).toEqual(new Error('row 7 refused'));
    expect((outcomes[8] as PromiseFulfilledResult<number>).value).toBe(80);
    expect(statements.some((rows) => rows.length === 1 && rows[0] === 8)).toBe(true);
  });

  it('never puts more than maxBatch rows in one statement', async () => {
    const { statements, write } = recordingWrite();
    const commit = new GroupCommit(write, { maxBatch: 4, maxInFlight: 1 });
    await Promise.all(Array.from({ length: 13 }, (_, i) => commit.submit(i)));
    expect(Math.max(...statements.map((rows) => rows.length))).toBe(4);
    expect(statements.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i));
  });

  it('puts rows of one key in different statements, each after the one before it, in arrival order', async () => {
    const { statements, write } = recordingWrite();
    // Keyed by tens: 10, 11 and 12 share a key, as do 20 and 21.
    const commit = new GroupCommit(write, { maxInFlight: 1, keyOf: (row) => String(Math.floor(row / 10)) });
    const rows = [1, 10, 11, 20, 12, 21, 30];
    expect(await Promise.all(rows.map((row) => commit.submit(row)))).toEqual(rows.map((row) => row * 10));
    expect(statements).toEqual([[1], [10, 20, 30], [11, 21], [12]]);
  });
});
