import { describe, expect, it } from 'vitest';
import { DATA_LIFECYCLE, RETENTION_BOUNDS } from '../../src/platform/data-lifecycle.js';
import {
  parsePartition,
  partitionName,
  planPartitions,
  type Partition,
} from '../../src/platform/partitions.js';
import { addSpan } from '../../src/platform/utc-calendar.js';

const at = (iso: string) => new Date(iso);
const monthly = {
  table: 'geo_audit_log',
  column: 'checked_at',
  every: { months: 1 },
  dropAfter: { years: 7 },
};
const weekly = {
  table: 'webhook_attempts',
  column: 'attempted_at',
  every: { days: 7 },
  dropAfter: { days: 90 },
};
const part = (table: string, from: string | null, to: string): Partition => ({
  name: partitionName(table, from ? at(from) : null, at(to)),
  from: from ? at(from) : null,
  to: at(to),
});
const spans = (partitions: Partition[]) =>
  partitions.map((p) => `${p.from?.toISOString().slice(0, 10) ?? 'min'}..${p.to.toISOString().slice(0, 10)}`);

describe('time partitions', () => {
  it('names a partition by its bounds and reads them back', () => {
    const p = part('audit_log', '2030-01-01', '2030-02-01');
    expect(p.name).toBe('audit_log_20300101_20300201');
    expect(parsePartition('audit_log', p.name)).toEqual(p);
    expect(parsePartition('audit_log', 'audit_log_before_20270101')).toEqual(
      part('audit_log', null, '2027-01-01'),
    );
    // Another table's partition whose name starts the same is not this table's.
    expect(parsePartition('audit_log', 'geo_audit_log_20300101_20300201')).toBeUndefined();
  });

  it('keeps two partitions ahead of the clock, each starting where the last ends', () => {
    const existing = [
      part('geo_audit_log', null, '2027-01-01'),
      part('geo_audit_log', '2027-01-01', '2027-02-01'),
    ];
    const plan = planPartitions(monthly, existing, at('2027-01-20T10:00:00Z'));
    expect(spans(plan.create)).toEqual(['2027-02-01..2027-03-01', '2027-03-01..2027-04-01']);
    expect(plan.drop).toEqual([]);
    // Nothing more to do until the clock enters the next month.
    const all = [...existing, ...plan.create];
    expect(planPartitions(monthly, all, at('2027-01-31T23:59:59Z')).create).toEqual([]);
    expect(spans(planPartitions(monthly, all, at('2027-02-01T00:00:00Z')).create)).toEqual([
      '2027-04-01..2027-05-01',
    ]);
  });

  it('fills a gap of several spans before now with one partition (a clock moved years ahead)', () => {
    const existing = [part('geo_audit_log', null, '2027-01-01')];
    const plan = planPartitions(monthly, existing, at('2030-01-01T12:00:00Z'));
    expect(spans(plan.create)).toEqual([
      '2027-01-01..2030-01-01',
      '2030-01-01..2030-02-01',
      '2030-02-01..2030-03-01',
      '2030-03-01..2030-04-01',
    ]);
    const weeks = planPartitions(
      weekly,
      [part('webhook_attempts', null, '2027-01-01')],
      at('2027-01-20T00:00:00Z'),
    );
    expect(spans(weeks.create)).toEqual([
      '2027-01-01..2027-01-15',
      '2027-01-15..2027-01-22',
      '2027-01-22..2027-01-29',
      '2027-01-29..2027-02-05',
    ]);
  });

  it('drops a partition exactly when its whole span is past retention, and says when the next one goes', () => {
    const existing = [
      part('geo_audit_log', null, '2027-01-01'),
      part('geo_audit_log', '2027-01-01', '2027-02-01'),
      part('geo_audit_log', '2027-02-01', '2027-03-01'),
    ];
    const before = planPartitions(monthly, existing, at('2033-12-31T23:59:59.999Z'));
    expect(before.drop).toEqual([]);
    expect(before.nextDropAt).toEqual(at('2034-01-01T00:00:00Z'));
    const plan = planPartitions(monthly, existing, at('2034-01-01T00:00:00Z'));
    expect(spans(plan.drop)).toEqual(['min..2027-01-01']);
    expect(plan.nextDropAt).toEqual(at('2034-02-01T00:00:00Z'));
    expect(
      planPartitions(
        weekly,
        [part('webhook_attempts', '2027-01-01', '2027-01-08')],
        at('2027-04-08T00:00:00Z'),
      ).drop,
    ).toHaveLength(1);
    expect(
      planPartitions(
        weekly,
        [part('webhook_attempts', '2027-01-01', '2027-01-08')],
        at('2027-04-07T23:59:59Z'),
      ).drop,
    ).toEqual([]);
  });

  it('steps calendar months and years from the first of a month', () => {
    expect(addSpan(at('2030-01-01T00:00:00Z'), { months: 1 })).toEqual(at('2030-02-01T00:00:00Z'));
    expect(addSpan(at('2030-12-01T00:00:00Z'), { months: 1 })).toEqual(at('2031-01-01T00:00:00Z'));
    expect(addSpan(at('2030-03-01T00:00:00Z'), { years: 10 })).toEqual(at('2040-03-01T00:00:00Z'));
  });

  it('partitions the tables that grow with traffic, each dropped at the end of its retention', () => {
    const partitioned = Object.entries(DATA_LIFECYCLE).flatMap(([table, t]) =>
      t.partition ? [{ table, keep: t.keep, dropAfter: t.partition.dropAfter, appliedBy: t.appliedBy }] : [],
    );
    for (const p of partitioned.filter((p) => p.table !== 'aml_events')) {
      expect(p.dropAfter, p.table).toEqual(p.keep);
      expect(p.appliedBy, p.table).toBe('partitions.maintain');
    }
    // The AML events are pseudonymised by the retention job first; their partitions go at the MLR's longest.
    expect(DATA_LIFECYCLE.aml_events.partition!.dropAfter).toEqual(RETENTION_BOUNDS.mlr!.longest);
    expect(DATA_LIFECYCLE.aml_events.appliedBy).toBe('data.retention');
    expect(partitioned.map((p) => p.table).sort()).toEqual([
      'aml_events',
      'audit_log',
      'events',
      'geo_audit_log',
      'webhook_attempts',
    ]);
  });
});
