/**
 * CSV as RFC 4180 describes it: fields separated by commas, records ended by CRLF, a field quoted when it holds a
 * comma, a double quote, CR or LF, and a double quote inside a quoted field doubled. null and undefined are empty
 * fields.
 *
 * A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a single quote before
 * it (OWASP's CSV injection advice), so a spreadsheet opening the file shows the text and never runs it as a formula:
 * a tenant's `user_id` of `=1+1` must not compute in a regulator's spreadsheet. Numbers (a negative amount) and
 * booleans are data the service wrote, not text a tenant chose: they stay as they are, for the regulator's tooling.
 */
export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export interface CsvOptions {
  /** false only to render again a file written before cells were neutralised, byte for byte (its digest). */
  neutralise?: boolean;
}

export function csvField(value: CsvValue, options: CsvOptions = {}): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && options.neutralise !== false && FORMULA_START.test(text))
    text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[], options: CsvOptions = {}): string {
  return `${values.map((value) => csvField(value, options)).join(',')}\r\n`;
}
