import { describe, expect, it } from 'vitest';
import { AML_RULES, decisionFor, recommendedAction, riskScore, RULE_CODES, sortCodes } from './aml.rules.js';
import { nearTierThreshold } from './rules/r003-structuring.js';
import { withinTolerance } from './rules/r005-round-tripping.js';
import { sessionMismatches } from './rules/r007-geographic-anomaly.js';

describe('AML rule catalogue', () => {
  it('holds the spec severities and modes', () => {
    expect(RULE_CODES.map((code) => [code, AML_RULES[code].severity, AML_RULES[code].mode])).toEqual([
      ['R-001', 7, 'realtime'],
      ['R-002', 6, 'async'],
      ['R-003', 9, 'async'],
      ['R-004', 7, 'async'],
      ['R-005', 8, 'async'],
      ['R-006', 8, 'async'],
      ['R-007', 5, 'async'],
      ['R-008', 6, 'async'],
      ['R-009', 7, 'async'],
    ]);
  });

  it('scores min(100, 10 × sum of severities), counting each rule once', () => {
    expect(riskScore([])).toBe(0);
    expect(riskScore(['R-007'])).toBe(50);
    expect(riskScore(['R-001'])).toBe(70);
    expect(riskScore(['R-001', 'R-001'])).toBe(70);
    expect(riskScore(['R-002', 'R-007'])).toBe(100);
    expect(riskScore(RULE_CODES)).toBe(100);
  });

  // Scores are multiples of 10 (and a single rule is at least 50), so 49 and 79 never occur from rules; the
  // decision bands are checked here on the bare numbers, and through HTTP at 0/50 and 70/80.
  it.each([
    [0, 'allow', 'review'],
    [49, 'allow', 'review'],
    [50, 'hold', 'hold_and_review'],
    [79, 'hold', 'hold_and_review'],
    [80, 'reject', 'escalate'],
    [100, 'reject', 'escalate'],
  ])('score %i decides %s and recommends %s', (score, decision, action) => {
    expect(decisionFor(score)).toBe(decision);
    expect(recommendedAction(score)).toBe(action);
  });

  it('sorts codes in catalogue order without repeats', () => {
    expect(sortCodes(['R-009', 'R-002', 'R-009'])).toEqual(['R-002', 'R-009']);
  });

  it.each([
    [100_00, true],
    [99_99, false],
    [300_00, true],
    [300_01, false],
    [1_900_00, true],
    [1_899_99, false],
    [2_100_00, true],
    [19_950_00, true],
    [100_100_00, true],
    [100_100_01, false],
    [50_000_00, false],
  ])('R-003: USD cents %i near a tier threshold: %s', (cents, near) => {
    expect(nearTierThreshold(cents)).toBe(near);
  });

  it.each([
    [1_000_00, 950_00, true],
    [1_000_00, 949_99, false],
    [950_00, 1_000_00, true],
    [1_000_00, 1_052_63, true],
    [1_000_00, 1_052_64, false],
    [0, 0, false],
  ])('R-005: %i and %i within 5%% of the larger: %s', (a, b, within) => {
    expect(withinTolerance(a, b)).toBe(within);
  });

  it('R-007: compares a login ip_country with a deposit card_country, else its ip_country', () => {
    const login = (id: string, session: string, ip: string) => ({
      transaction_id: id,
      event_type: 'login',
      metadata: { session_id: session, ip_country: ip },
    });
    const deposit = (id: string, session: string, metadata: Record<string, string>) => ({
      transaction_id: id,
      event_type: 'deposit',
      metadata: { session_id: session, ...metadata },
    });
    const found = sessionMismatches([
      login('l1', 's1', 'GB'),
      deposit('d1', 's1', { card_country: 'fr', ip_country: 'GB' }),
      login('l2', 's2', 'GB'),
      deposit('d2', 's2', { ip_country: 'gb' }),
      login('l3', 's3', 'DE'),
      deposit('d3', 's4', { card_country: 'FR' }),
    ]);
    expect([...found]).toEqual([['s1', ['l1', 'd1']]]);
  });
});
