import { isRealDate, isRealMonth } from './validation.formats.js';

/** UTC calendar arithmetic and UTC dates as text: the service's days and months are UTC ones. */

export const DAY_MS = 86_400_000;

/** YYYY-MM-DD of the UTC day holding `at`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** YYYY-MM of the UTC month holding `at`. */
export const utcMonth = (at: Date): string => at.toISOString().slice(0, 7);

/** "2026-11-22 14:05 UTC": an instant as people read it, to the minute (an ISO string is taken as it is). */
export const utcMinute = (at: Date | string): string =>
  `${(typeof at === 'string' ? at : at.toISOString()).slice(0, 16).replace('T', ' ')} UTC`;

/** Midnight UTC starting the day holding `at`. */
export const startOfUtcDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** Midnight UTC starting a YYYY-MM-DD day. */
export const parseUtcDay = (day: string): Date => new Date(`${day}T00:00:00Z`);

export const addUtcDays = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);

/**
 * Midnight UTC of a day (month 1 to 12; a day or month past the end runs into the next, day 0 is the last of the
 * month before); unlike Date.UTC, years 0001 to 0099 are themselves, not 1901 to 1999.
 */
export function utcMidnight(year: number, month: number, day: number): Date {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  return at;
}

/** Days in a month (1 to 12) of a year: 28 to 31. */
export const daysInMonth = (year: number, month: number): number =>
  utcMidnight(year, month + 1, 0).getUTCDate();

/**
 * Start (inclusive) and end (exclusive) of a YYYY-MM-DD day or a YYYY-MM month; undefined when not a real one (the
 * `date-or-month` format: years 0001 to 9999). The end of 9999-12 is in year 10000, still a Date and a timestamptz.
 */
export function periodBounds(period: string): { start: Date; end: Date; kind: 'day' | 'month' } | undefined {
  const [year, month, day] = period.split('-').map(Number) as [number, number, number | undefined];
  if (isRealDate(period)) {
    const start = utcMidnight(year, month, day!);
    return { start, end: addUtcDays(start, 1), kind: 'day' };
  }
  if (isRealMonth(period)) {
    return { start: utcMidnight(year, month, 1), end: utcMidnight(year, month + 1, 1), kind: 'month' };
  }
  return undefined;
}

/** The first time of day `minutesAfterMidnight` (UTC) strictly after `now`: when a daily job runs next. */
export function nextDailyRun(now: Date, minutesAfterMidnight: number): Date {
  const today = new Date(startOfUtcDay(now).getTime() + minutesAfterMidnight * 60_000);
  return today > now ? today : addUtcDays(today, 1);
}

/**
 * `at` plus a span of calendar months or years (from the first of a month, always a first of a month; 29 February
 * plus a year is 1 March) or days.
 */
export function addSpan(at: Date, span: { months: number } | { years: number } | { days: number }): Date {
  const next = new Date(at);
  if ('days' in span) return new Date(at.getTime() + span.days * DAY_MS);
  if ('months' in span) next.setUTCMonth(next.getUTCMonth() + span.months);
  else next.setUTCFullYear(next.getUTCFullYear() + span.years);
  return next;
}
