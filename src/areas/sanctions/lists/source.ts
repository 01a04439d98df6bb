import { gunzipSync } from 'node:zlib';
import Papa from 'papaparse';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One file of a publication: its path relative to the lists directory and its bytes as stored. */
export interface SourceFile {
  path: string;
  bytes: Uint8Array;
}

/** The DOS end-of-file byte (SUB) that closes OFAC's legacy CSV files. */
const END_OF_FILE = '\u001A';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const windows1252 = new TextDecoder('windows-1252');

/**
 * WHATWG windows-1252 for bytes 0x80-0x9F (0x81, 0x8D, 0x8F, 0x90, 0x9D map to themselves). Node 20.18.3 and later
 * 20.x decode 'windows-1252' as Latin-1, giving C1 controls there (nodejs/node#60888), so the decoder's output is
 * corrected with the standard's table; on a fixed Node this is a no-op.
 */
const C1_TO_CP1252 = Array.from(
  '\u20AC\x81\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\x8D\u017D\x8F' +
    '\x90\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\x9D\u017E\u0178',
);

function cp1252(bytes: Uint8Array): string {
  return windows1252.decode(bytes).replace(/[\x80-\x9F]/g, (c) => C1_TO_CP1252[c.charCodeAt(0) - 0x80] ?? c);
}

/** Undoes `.gz` (UK ships ConList as csv.gz); other bytes pass through. */
export function unzipIfGzip(bytes: Uint8Array): Uint8Array {
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
}

/**
 * Text of a list file. UTF-8 when the bytes are valid UTF-8 (UK 2022 layout, the XML lists), otherwise cp1252 (the
 * OFAC legacy CSV and the pre-2022 UK list). A BOM and the DOS end-of-file byte 0x1A OFAC appends are dropped.
 */
export function decodeText(bytes: Uint8Array, encoding?: 'windows-1252'): string {
  let text: string;
  if (encoding) text = cp1252(bytes);
  else {
    try {
      text = utf8.decode(bytes);
    } catch {
      text = cp1252(bytes);
    }
  }
  text = text.replace(/^\uFEFF/, '');
  const end = text.trimEnd();
  return end.endsWith(END_OF_FILE) ? end.slice(0, -END_OF_FILE.length) : text;
}

/**
 * A CSV as rows of cells. A quote left open means the file was cut short (a half-finished download): that fails the
 * file rather than loading part of a list.
 */
export function parseCsv<T extends string[] | Record<string, string | undefined>>(
  text: string,
  header: boolean,
): { rows: T[]; fields: string[] } {
  // papaparse: csv-parse took about 4 s on the 15 MB UK ConList, papaparse a quarter of a second.
  const parsed = Papa.parse<T>(text, { header, skipEmptyLines: true });
  const broken = parsed.errors.find((error) => error.type === 'Quotes');
  if (broken) throw new Error(`malformed CSV at row ${broken.row ?? '?'}: ${broken.message}`);
  return { rows: parsed.data, fields: parsed.meta.fields ?? [] };
}

/**
 * One parser configuration for every XML list: attributes kept, values left as text (ids such as "0012" and dates
 * stay as printed), namespaces dropped (EU 1.1 and OFAC declare a default namespace), `arrayTags` always arrays.
 */
export function parseXml(text: string, arrayTags: string[]): Record<string, unknown> {
  // The parser accepts a truncated document and returns half a list; the validator does not.
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`malformed XML at line ${valid.err.line}: ${valid.err.msg}`);
  const arrays = new Set(arrayTags);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    removeNSPrefix: true,
    trimValues: true,
    processEntities: true,
    isArray: (name) => arrays.has(name),
  });
  return parser.parse(text) as Record<string, unknown>;
}

/** Node shapes fast-xml-parser produces: text, an element object, or an array of either. */
export type XmlNode = Record<string, unknown>;

export function asArray(value: unknown): XmlNode[] {
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) =>
    typeof item === 'object' && item !== null ? (item as XmlNode) : { '#text': item },
  );
}

/** Text of a child element or attribute ("" when absent). */
export function text(node: XmlNode | undefined, key: string): string {
  const value = node?.[key];
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return String((value as XmlNode)['#text'] ?? '').trim();
  return String(value).trim();
}

/** Texts of repeated children, e.g. `<programList><program>…</program>…` → texts(list, 'program'). */
export function texts(node: XmlNode | undefined, key: string): string[] {
  return asArray(node?.[key])
    .map((item) => text(item, '#text'))
    .filter(Boolean);
}

/** "2026-02-27T00:00:09.554Z", "2026-02-27", "27/02/2026" or "02/27/2026" (`order: 'mdy'`, OFAC) → "2026-02-27". */
export function isoDay(value: string, order: 'dmy' | 'mdy' = 'dmy'): string | undefined {
  const t = value.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(t);
  if (!m) return undefined;
  const [first, second] = [m[1]!.padStart(2, '0'), m[2]!.padStart(2, '0')];
  return order === 'dmy' ? `${m[3]}-${second}-${first}` : `${m[3]}-${first}-${second}`;
}
