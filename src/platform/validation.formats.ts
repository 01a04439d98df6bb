import type { Ajv, ErrorObject } from 'ajv';
import { codes as iso4217Codes, publishDate as iso4217PublishDate } from 'currency-codes';
import type { Clock } from './clock.js';

/**
 * What the service's validators know beyond JSON Schema: real instants and calendar dates, ISO 4217 codes,
 * timestamps bounded by the service clock, and size limits on free-form JSON. Registered on every Ajv the service
 * compiles requests with.
 */

/** RFC 3339 as ajv-formats reads it (T, t or a space; Z, z or an offset; any fraction of a second). */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A day of the calendar that exists, years 0001 to 9999 (four digits). PostgreSQL has no year 0000 and JavaScript
 * reads it as 1 BC, so the range starts at 0001; every such day is a PostgreSQL date, a timestamptz and a JS Date.
 */
function isRealDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** A calendar date, YYYY-MM-DD, that exists, years 0001 to 9999: no 0000, no 30 February, no 29 February of 2025. */
export function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  return match !== null && isRealDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** A calendar month, YYYY-MM, years 0001 to 9999. */
export function isRealMonth(value: string): boolean {
  const match = MONTH.exec(value);
  return match !== null && isRealDay(Number(match[1]), Number(match[2]), 1);
}

/** A UTC day or a calendar month: what the reports call a period. */
export const isRealDateOrMonth = (value: string) => isRealDate(value) || isRealMonth(value);

/**
 * A date-time that names one real instant between years 0001 and 9999 UTC: a calendar date that exists, no leap
 * second (23:59:60 passes RFC 3339 but neither JavaScript nor PostgreSQL stores it as an instant of its own).
 */
export function isRealInstant(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = Number(match[7] ?? 0);
  const offsetMinutes = Number(match[8] ?? 0);
  if (!isRealDay(year, month, day)) return false;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return false;
  const instant = Date.parse(value);
  return Number.isFinite(instant) && instant >= EARLIEST && instant <= LATEST;
}

/**
 * A form's datetime-local value (`2030-01-01T12:00`, seconds and a fraction optional, no zone) read as UTC, when it
 * names a real instant (as isRealInstant); else undefined. `new Date` alone would take 30 February as 2 March.
 */
export function utcLocalInstant(value: string): Date | undefined {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return undefined;
  const iso = `${match[1]}${match[2] ?? ':00'}Z`;
  return isRealInstant(iso) ? new Date(iso) : undefined;
}

/** ISO 4217 List One as the currency-codes package ships it; the same on every process, whatever its Node. */
const ISO_4217 = new Set(iso4217Codes());
export const ISO_4217_PUBLISHED = iso4217PublishDate;
export const isIso4217 = (value: string) => ISO_4217.has(value);

/** Schema keyword: a timestamp no further than these from the service clock's now. */
export const INSTANT_WINDOW = 'x-instant-window';
export interface InstantWindow {
  /** null: no bound in the past (the format still requires year 0001 or later). */
  max_past_seconds: number | null;
  max_future_seconds: number;
}

/** Schema keyword: free-form JSON (an object or array) at most this deep and this long once serialised. */
export const JSON_LIMITS = 'x-json-limits';
export interface JsonLimits {
  /** Containers on the longest path, the value itself included: `{}` is 1, `{"a":{}}` is 2. */
  max_depth: number;
  /** UTF-8 bytes of its compact JSON, as the service stores it. */
  max_bytes: number;
}

export function describeSeconds(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

/** Whether any path through the value holds more than maxDepth objects and arrays. Iterative: depth costs no stack. */
function deeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

type KeywordCheck = ((data: unknown) => boolean) & { errors?: Partial<ErrorObject>[] };

/** Adds the service's formats and keywords. Without a clock, a schema that uses INSTANT_WINDOW fails to compile. */
export function addServiceFormats(ajv: Ajv, clock: Clock | undefined): Ajv {
  ajv.addFormat('date-time', { type: 'string', validate: isRealInstant });
  ajv.addFormat('date', { type: 'string', validate: isRealDate });
  ajv.addFormat('date-or-month', { type: 'string', validate: isRealDateOrMonth });
  ajv.addFormat('iso4217', { type: 'string', validate: isIso4217 });

  ajv.addKeyword({
    keyword: INSTANT_WINDOW,
    type: 'string',
    schemaType: 'object',
    errors: true,
    compile(window: InstantWindow) {
      if (!clock) throw new Error(`${INSTANT_WINDOW} needs the service clock`);
      const past = window.max_past_seconds;
      const bounds =
        `at most ${describeSeconds(window.max_future_seconds)} after` +
        (past === null ? '' : ` and ${describeSeconds(past)} before`) +
        ' the service clock';
      const check: KeywordCheck = (data) => {
        const at = Date.parse(data as string);
        if (!Number.isFinite(at)) return true; // not an instant: the format answers for it
        const now = clock.now().getTime();
        if (at <= now + window.max_future_seconds * 1000 && (past === null || at >= now - past * 1000)) {
          return true;
        }
        check.errors = [
          {
            keyword: INSTANT_WINDOW,
            params: { ...window },
            message: `must be ${bounds} (now ${new Date(now).toISOString()})`,
          },
        ];
        return false;
      };
      return check;
    },
  });

  ajv.addKeyword({
    keyword: JSON_LIMITS,
    schemaType: 'object',
    errors: true,
    compile(limits: JsonLimits) {
      const check: KeywordCheck = (data) => {
        // Depth first: it bounds the serialiser's recursion, and 5,000 levels would exhaust the stack.
        const message = deeperThan(data, limits.max_depth)
          ? `must be nested at most ${limits.max_depth} levels deep`
          : Buffer.byteLength(JSON.stringify(data)) > limits.max_bytes
            ? `must be at most ${limits.max_bytes} bytes as JSON`
            : undefined;
        if (message === undefined) return true;
        check.errors = [{ keyword: JSON_LIMITS, params: { ...limits }, message }];
        return false;
      };
      return check;
    },
  });
  return ajv;
}
