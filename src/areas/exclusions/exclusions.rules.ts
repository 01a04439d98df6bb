import { addUtcDays, daysInMonth } from '../../platform/utc-calendar.js';

/**
 * What a row is to the tenant that reads it (the spec's `source`): its own registration is `operator`; every other
 * row, another operator's or the regulator's master list, is the national register, `regulator_comprehensive`.
 */
export const SOURCE_NAMES = {
  own: 'operator',
  other: 'regulator_comprehensive',
} as const;

export type SourceNames = typeof SOURCE_NAMES;

/** The spec's exclusion durations, as data: each is a span on the UTC calendar, or permanent. */
export const DURATIONS = [
  'duration_24h',
  'duration_7d',
  'duration_30d',
  'duration_6m',
  'duration_1y',
  'duration_permanent',
] as const;
export type Duration = (typeof DURATIONS)[number];

type Span = { hours: number } | { days: number } | { months: number } | null;

/** null is permanent. Months and years are calendar months (a year is 12 of them), not fixed day counts. */
export const DURATION_SPANS: Record<Duration, Span> = {
  duration_24h: { hours: 24 },
  duration_7d: { days: 7 },
  duration_30d: { days: 30 },
  duration_6m: { months: 6 },
  duration_1y: { months: 12 },
  duration_permanent: null,
};

export const isPermanent = (duration: Duration): boolean => DURATION_SPANS[duration] === null;

/**
 * When an exclusion that starts at `from` ends; null for permanent. Days are 24-hour UTC days. A calendar month
 * keeps the time of day and the day of month, clamped to the last day of a shorter month (31 Aug + 6 months is
 * 28 or 29 Feb; 29 Feb + 1 year is 28 Feb), which is also PostgreSQL's interval arithmetic.
 */
export function expiresAt(duration: Duration, from: Date): Date | null {
  const span = DURATION_SPANS[duration];
  if (span === null) return null;
  if ('hours' in span) return new Date(from.getTime() + span.hours * 3_600_000);
  if ('days' in span) return addUtcDays(from, span.days);
  const target = new Date(from);
  const day = from.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + span.months);
  target.setUTCDate(Math.min(day, daysInMonth(target.getUTCFullYear(), target.getUTCMonth() + 1)));
  return target;
}
