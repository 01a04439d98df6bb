/** UTC calendar arithmetic for work that runs per day or per month (the reports, the regulator's export). */

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of the UTC day holding `at`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** YYYY-MM of the UTC month holding `at`. */
export const utcMonth = (at: Date): string => at.toISOString().slice(0, 7);

/** Midnight UTC starting the day holding `at`. */
export const startOfUtcDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

export const addUtcDays = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);

/** Start (inclusive) and end (exclusive) of a YYYY-MM-DD day or a YYYY-MM month; undefined when not a real one. */
export function periodBounds(period: string): { start: Date; end: Date; kind: 'day' | 'month' } | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(period);
  if (day) {
    const start = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
    if (utcDay(start) !== period) return undefined;
    return { start, end: addUtcDays(start, 1), kind: 'day' };
  }
  const month = /^(\d{4})-(\d{2})$/.exec(period);
  if (month) {
    const start = new Date(Date.UTC(Number(month[1]), Number(month[2]) - 1, 1));
    if (utcMonth(start) !== period) return undefined;
    return { start, end: new Date(Date.UTC(Number(month[1]), Number(month[2]), 1)), kind: 'month' };
  }
  return undefined;
}

/** The first time of day `minutesAfterMidnight` (UTC) strictly after `now`: when a daily job runs next. */
export function nextDailyRun(now: Date, minutesAfterMidnight: number): Date {
  const today = new Date(startOfUtcDay(now).getTime() + minutesAfterMidnight * 60_000);
  return today > now ? today : addUtcDays(today, 1);
}
