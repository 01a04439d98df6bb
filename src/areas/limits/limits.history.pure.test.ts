import { describe, expect, it } from 'vitest';
import { limitChanges, type LimitHistoryEntry } from './limits.history.js';

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 12, minute));
const limit = (id: string, fields: Partial<LimitHistoryEntry>): LimitHistoryEntry => ({
  limit_id: id,
  limit_kind: 'loss',
  limit_type: 'limit_daily',
  amount: 10_000,
  previous_amount: null,
  currency: 'USD',
  is_increase: false,
  cooloff_seconds: 0,
  created_at: at(0),
  effective_from: at(0),
  ended_at: null,
  status: 'active',
  ...fields,
});

/** Which changes a limit's row stands for, newest first (what the console's player page lists). */
describe('limitChanges', () => {
  it.each([
    ['a first limit', limit('a', {}), [['a', 'created', 0]]],
    ['a decrease', limit('b', { previous_amount: 20_000 }), [['b', 'decreased', 0]]],
    [
      'an increase still cooling off',
      limit('c', { previous_amount: 5_000, is_increase: true, status: 'pending', effective_from: at(30) }),
      [['c', 'increase_requested', 0]],
    ],
    [
      'an increase whose cool-off has ended, then replaced itself',
      limit('d', { previous_amount: 5_000, is_increase: true, status: 'superseded', effective_from: at(10) }),
      [
        ['d', 'activated', 10],
        ['d', 'increase_requested', 0],
      ],
    ],
    [
      'an increase cancelled at once (the same instant)',
      limit('e', { previous_amount: 5_000, is_increase: true, status: 'cancelled', ended_at: at(0) }),
      [
        ['e', 'cancelled', 0],
        ['e', 'increase_requested', 0],
      ],
    ],
  ])('%s', (_, row, expected) => {
    const changes = limitChanges([row], at(20));
    expect(changes.map((c) => [c.limit.limit_id, c.change, c.at.getUTCMinutes()])).toEqual(expected);
  });

  it('a decrease that cancels a pending increase comes after the cancellation, at the same instant', () => {
    const pending = limit('p', {
      previous_amount: 5_000,
      is_increase: true,
      status: 'cancelled',
      created_at: at(1),
      effective_from: at(59),
      ended_at: at(5),
    });
    const decrease = limit('q', {
      previous_amount: 5_000,
      amount: 2_000,
      created_at: at(5),
      effective_from: at(5),
    });
    expect(limitChanges([decrease, pending], at(20)).map((c) => [c.limit.limit_id, c.change])).toEqual([
      ['q', 'decreased'],
      ['p', 'cancelled'],
      ['p', 'increase_requested'],
    ]);
  });

  it('a limit set and raised at once: the increase after the first limit', () => {
    const first = limit('f', {});
    const raise = limit('r', {
      previous_amount: 10_000,
      amount: 20_000,
      is_increase: true,
      status: 'pending',
      effective_from: at(59),
    });
    expect(limitChanges([raise, first], at(20)).map((c) => [c.limit.limit_id, c.change])).toEqual([
      ['r', 'increase_requested'],
      ['f', 'created'],
    ]);
  });
});
