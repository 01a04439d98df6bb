/**
 * CSV as RFC 4180 describes it: fields separated by commas, records ended by CRLF, a field quoted when it holds a
 * comma, a double quote, CR or LF, and a double quote inside a quoted field doubled. null and undefined are empty
 * fields. Values are written as they are (no spreadsheet-formula escaping): the reader is a regulator's data team,
 * and the bytes must be the data.
 */
export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
