import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE, RETENTION_BOUNDS, type Keep } from '../../src/platform/data-lifecycle.js';
import {
  boundsOf,
  cutoffOf,
  defaultKeep,
  FROM_CLOSURE,
  keepFor,
  overridable,
  overrideProblem,
  RETAINED_TABLES,
} from '../../src/platform/retention.rules.js';

const amount = (keep: Keep) => ('years' in keep ? keep.years : keep.days);

describe('the retention rules', () => {
  it('counts whole calendar years back, 29 February to 28 February (never a day short), and days as days', () => {
    expect(cutoffOf({ years: 5 }, new Date('2036-02-29T10:00:00Z'))).toEqual(
      new Date('2031-02-28T10:00:00Z'),
    );
    expect(cutoffOf({ years: 4 }, new Date('2036-02-29T10:00:00Z'))).toEqual(
      new Date('2032-02-29T10:00:00Z'),
    );
    expect(cutoffOf({ years: 6 }, new Date('2036-03-01T00:00:00Z'))).toEqual(
      new Date('2030-03-01T00:00:00Z'),
    );
    expect(cutoffOf({ days: 90 }, new Date('2030-04-01T00:00:00Z'))).toEqual(
      new Date('2030-01-01T00:00:00Z'),
    );
  });

  it("keeps the end of a relationship at least as long as every period counted from it, a tenant's too", () => {
    expect(FROM_CLOSURE.length).toBeGreaterThan(10);
    for (const table of FROM_CLOSURE) {
      expect(amount(defaultKeep('player_closures')), table).toBeGreaterThanOrEqual(
        amount(defaultKeep(table)),
      );
    }
    expect(keepFor('player_closures', new Map([['deposits', { years: 9 }]]))).toEqual({ years: 9 });
    expect(keepFor('player_closures', new Map([['deposits', { years: 5 }]]))).toEqual({ years: 6 });
  });

  it('gives each basis its reason, every default within its own bounds', () => {
    for (const bounds of Object.values(RETENTION_BOUNDS))
      if (bounds) expect(bounds.why.length).toBeGreaterThan(20);
    for (const table of RETAINED_TABLES) {
      if (!overridable(table, true)) continue;
      const bounds = boundsOf(table)!;
      expect(overrideProblem(table, defaultKeep(table)), table).toBeUndefined();
      expect(amount(bounds.shortest), table).toBeLessThanOrEqual(amount(defaultKeep(table)));
    }
  });

  it('lets nothing shorten what the law fixes', () => {
    expect(overrideProblem('deposits', { years: 4 })).toContain('from 5 years to 10 years');
    expect(overrideProblem('deposits', { years: 10 })).toBeUndefined();
    expect(overrideProblem('reports', { years: 5 })).toContain('from 6 years');
    expect(overrideProblem('exclusions', { years: 5 })).toBeDefined();
    expect(overrideProblem('mail_outbox', { days: 1 })).toBeUndefined();
    expect(overrideProblem('mail_outbox', { years: 1 })).toContain('kept in days');
    expect(overridable('security_log', false)).toBe(false);
    expect(overridable('limit_reservations', true)).toBe(false);
    expect(overridable('player_closures', true)).toBe(false);
    // The AML events' pseudonymisation is a tenant's to lengthen; their keys go with them, not by a period.
    expect(overridable('aml_events', true)).toBe(true);
    expect(overrideProblem('aml_events', { years: 11 })).toContain('from 5 years to 10 years');
    expect(overridable('aml_event_keys', true)).toBe(false);
    expect(DATA_LIFECYCLE.player_closures.keep).toEqual({ years: 6 });
  });
});
