import { describe, expect, it } from 'vitest';
import {
  ALLOWED_DECISIONS,
  DECISIONS,
  FOUR_EYES_ACTIONS,
  isAwaitingReview,
  isOpen,
  OPENING_STATUS,
  reviewDueAt,
} from './aml.case-rules.js';

/** The case lifecycle of docs/aml.md, cell by cell: each expectation is written from the docs, not the table. */
describe('AML case decisions', () => {
  it.each([
    ['confirm_hold', 'held', 'aml.held'],
    ['clear', 'cleared', 'aml.cleared'],
    ['escalate', 'escalated', 'aml.escalated'],
    ['freeze', 'frozen', 'aml.account_frozen'],
  ] as const)('%s moves a case to %s and sends %s', (action, to, event) => {
    expect(DECISIONS[action]).toEqual({ to, event });
  });

  it('has exactly the four actions', () => {
    expect(Object.keys(DECISIONS).sort()).toEqual(['clear', 'confirm_hold', 'escalate', 'freeze']);
  });

  it('takes a freeze and an escalation only with a second member of staff (four eyes)', () => {
    expect([...FOUR_EYES_ACTIONS].sort()).toEqual(['escalate', 'freeze']);
  });

  // Origin × action: the statuses a case may be in for the action to be allowed ([] is "never").
  it.each([
    ['async', 'confirm_hold', []],
    ['async', 'clear', ['under_review', 'escalated']],
    ['async', 'escalate', ['under_review']],
    ['async', 'freeze', ['under_review', 'escalated']],
    ['screen_hold', 'confirm_hold', ['under_review']],
    ['screen_hold', 'clear', ['under_review', 'held', 'escalated']],
    ['screen_hold', 'escalate', ['under_review', 'held']],
    ['screen_hold', 'freeze', ['under_review', 'held', 'escalated']],
    ['screen_reject', 'confirm_hold', []],
    ['screen_reject', 'clear', []],
    ['screen_reject', 'escalate', ['under_review']],
    ['screen_reject', 'freeze', ['under_review', 'escalated']],
  ] as const)('a %s case takes %s from %j', (origin, action, from) => {
    expect([...ALLOWED_DECISIONS[origin][action]].sort()).toEqual([...from].sort());
  });

  it('has a row for each of the three origins and no other', () => {
    expect(Object.keys(ALLOWED_DECISIONS).sort()).toEqual(['async', 'screen_hold', 'screen_reject']);
  });

  it('opens every case under review, due 48 hours later', () => {
    expect(OPENING_STATUS).toBe('under_review');
    expect(reviewDueAt(new Date('2030-01-01T12:00:00Z')).toISOString()).toBe('2030-01-03T12:00:00.000Z');
  });

  it.each([
    ['under_review', true, true],
    ['held', true, true],
    ['escalated', true, false],
    ['cleared', false, false],
    ['frozen', false, false],
  ] as const)('%s: open %s, awaiting a reviewer %s', (status, open, awaiting) => {
    expect(isOpen(status)).toBe(open);
    expect(isAwaitingReview(status)).toBe(awaiting);
  });
});
