import { daysInMonth } from '../../../platform/utc-calendar.js';
import type { SanctionsDateOfBirth } from './entity.js';

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const plausibleYear = (year: number) => year >= 1850 && year <= 2100;

/** A date the list gives to a day, a month or a year; `undefined` parts are unknown. */
export interface PartialDate {
  year: number;
  month?: number;
  day?: number;
}

function bounds(date: PartialDate): { from: string; to: string } {
  const { year, month, day } = date;
  if (month && day)
    return { from: `${year}-${pad(month)}-${pad(day)}`, to: `${year}-${pad(month)}-${pad(day)}` };
  if (month)
    return { from: `${year}-${pad(month)}-01`, to: `${year}-${pad(month)}-${pad(daysInMonth(year, month))}` };
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

/** A partial date as the list states it: a whole day is exact, a year alone is `year`, a month is a range. */
export function dateOfBirth(date: PartialDate, approximate = false): SanctionsDateOfBirth | undefined {
  if (!plausibleYear(date.year)) return undefined;
  if (date.month !== undefined && (date.month < 1 || date.month > 12))
    return dateOfBirth({ year: date.year });
  if (date.day !== undefined && (date.day < 1 || date.day > daysInMonth(date.year, date.month ?? 1)))
    return dateOfBirth({ year: date.year, month: date.month });
  if (approximate) return approximateRange(date, date);
  const { from, to } = bounds(date);
  if (date.month && date.day) return { kind: 'exact', from, to };
  if (date.month) return { kind: 'range', from, to };
  return { kind: 'year', from, to };
}

/** From the start of one partial date to the end of another ("1958 to 1962"). */
export function dateOfBirthRange(
  start: PartialDate,
  end: PartialDate,
  approximate = false,
): SanctionsDateOfBirth | undefined {
  if (!plausibleYear(start.year) || !plausibleYear(end.year)) return undefined;
  if (approximate) return approximateRange(start, end);
  const from = bounds(start).from;
  const to = bounds(end).to;
  return from <= to
    ? { kind: 'range', from, to }
    : { kind: 'range', from: bounds(end).from, to: bounds(start).to };
}

/** "circa 1960": the list does not say how far off, so the range takes in the year either side. */
function approximateRange(start: PartialDate, end: PartialDate): SanctionsDateOfBirth {
  return { kind: 'range', from: `${start.year - 1}-01-01`, to: `${end.year + 1}-12-31`, approximate: true };
}

/** "12 Jan 1960", "Jan 1960", "1960", "1960-01-12", "12/01/1960", "00/00/1960", "dd/mm/1960", "01/1960". */
export function parsePartialDate(text: string): PartialDate | undefined {
  // The FCDO list writes unknown parts as letters: "dd/mm/1960", "dd/05/1960".
  const t = text
    .trim()
    .replace(/\.$/, '')
    .replace(/^dd(?=\/)/i, '00')
    .replace(/(?<=^\d\d\/)mm(?=\/)/i, '00');
  let m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(t);
  if (m) return withMonth(Number(m[3]), m[2], Number(m[1]));
  m = /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(t);
  if (m) return withMonth(Number(m[2]), m[1]);
  m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T.*)?$/.exec(t);
  if (m) return known(Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return known(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return known(Number(m[2]), Number(m[1]), 0);
  return undefined;
}

function withMonth(year: number, monthName: string | undefined, day?: number): PartialDate | undefined {
  const month = MONTHS[(monthName ?? '').toLowerCase()];
  return month ? { year, month, ...(day ? { day } : {}) } : undefined;
}

/** Zero day or month means "not known" (UK "00/00/1960", EU "1960-00-00"). */
function known(year: number, month: number, day: number): PartialDate {
  if (!month) return { year };
  return day ? { year, month, day } : { year, month };
}

/**
 * A date of birth written as text: one date, "circa …", "… to …" or "1958 - 1962", as OFAC remarks and XML, the UK
 * list and the EU 1.0 file write them. Unreadable text gives `undefined` (the caller keeps the entity).
 */
export function parseDateOfBirthText(text: string): SanctionsDateOfBirth | undefined {
  let t = text.trim().replace(/\.$/, '');
  const approximate = /^circa\s+|\(approximat\w*\)|^approx\w*\.?\s+/i.test(t);
  t = t
    .replace(/^circa\s+|^approx\w*\.?\s+/i, '')
    .replace(/\(approximat\w*\)/i, '')
    .trim();
  const parts = t.split(/\s+to\s+|\s*-\s*(?=\d{4}$)/);
  if (parts.length === 2) {
    const start = parsePartialDate(parts[0] ?? '');
    const end = parsePartialDate(parts[1] ?? '');
    return start && end ? dateOfBirthRange(start, end, approximate) : undefined;
  }
  const date = parsePartialDate(t);
  return date ? dateOfBirth(date, approximate) : undefined;
}
