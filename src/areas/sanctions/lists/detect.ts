import { posix } from 'node:path';
import type { SanctionsListId, SanctionsListPublication } from './entity.js';
import { parseEuFsf10 } from './eu-fsf-1-0.parser.js';
import { parseEuFsf11 } from './eu-fsf-1-1.parser.js';
import { ofacXmlList, parseOfacXml } from './ofac-xml.parser.js';
import { decodeText, unzipIfGzip, type SourceFile } from './source.js';
import { parseUkConList } from './uk-conlist.parser.js';
import { parseUkFcdoXml } from './uk-fcdo.parser.js';
import { parseUnXml } from './un-xml.parser.js';

/** What a file turned out to be: a whole publication, one file of the OFAC CSV set, or nothing we read. */
export type Detected =
  | { kind: 'publication'; list: SanctionsListId; format: string; parse: () => SanctionsListPublication }
  | { kind: 'ofac_csv'; role: 'sdn' | 'alt' | 'add' | 'comments' }
  | { kind: 'skipped'; reason: string };

/** Extensions worth opening; anything else in the directory (MANIFEST.txt, README) is not a list file. */
export const READABLE = /\.(xml|csv|csv\.gz|xml\.gz)$/i;

const OFAC_CSV_ROLES: Record<string, 'sdn' | 'alt' | 'add' | 'comments'> = {
  'sdn.csv': 'sdn',
  'alt.csv': 'alt',
  'add.csv': 'add',
  'sdn_comments.csv': 'comments',
};

/** The first element's local name, after the XML declaration and any comments. */
function xmlRoot(head: string): string | undefined {
  const body = head.replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const name = /<([A-Za-z_][\w.:-]*)/.exec(body)?.[1];
  return name?.split(':').pop();
}

const XML_FORMATS: Record<
  string,
  (file: SourceFile, head: string) => Extract<Detected, { kind: 'publication' }> | undefined
> = {
  sdnList: (file) => ({
    kind: 'publication',
    list: ofacXmlList(file.path),
    format: 'ofac_xml',
    parse: () => parseOfacXml(file),
  }),
  CONSOLIDATED_LIST: (file) => ({
    kind: 'publication',
    list: 'un',
    format: 'un_xml',
    parse: () => parseUnXml(file),
  }),
  WHOLE: (file) => ({
    kind: 'publication',
    list: 'eu',
    format: 'eu_fsf_1_0',
    parse: () => parseEuFsf10(file),
  }),
  export: (file, head) =>
    head.includes('http://eu.europa.ec/fpi/fsd/export')
      ? { kind: 'publication', list: 'eu', format: 'eu_fsf_1_1', parse: () => parseEuFsf11(file) }
      : undefined,
  Designations: (file) => ({
    kind: 'publication',
    list: 'uk',
    format: 'uk_fcdo_xml',
    parse: () => parseUkFcdoXml(file),
  }),
};

/**
 * Tells a file's format from its name and its first bytes, never from the folder it sits in: XML by its root
 * element, the OFSI ConList by its "Last Updated," first line, the OFAC legacy CSV set by its file names and an
 * ent_num first column. The parse itself is deferred so the loader can catch its failure per file.
 */
export function detectFormat(path: string, stored: Uint8Array): Detected {
  const name = posix.basename(path).toLowerCase();
  if (name.endsWith('.xlsx')) {
    return {
      kind: 'skipped',
      reason: 'spreadsheet (xlsx) not read: the same publication is read from its CSV',
    };
  }
  if (!READABLE.test(name)) return { kind: 'skipped', reason: 'not a list file' };
  const bytes = unzipIfGzip(stored);
  const file: SourceFile = { path, bytes };
  const head = decodeText(bytes.subarray(0, 4096));

  const root = xmlRoot(head);
  if (head.trimStart().startsWith('<') && root) {
    const detected = XML_FORMATS[root]?.(file, head);
    return detected ?? { kind: 'skipped', reason: `XML with root <${root}> is no list format we read` };
  }
  if (/^Last Updated,/i.test(head)) {
    return { kind: 'publication', list: 'uk', format: 'uk_conlist_csv', parse: () => parseUkConList(file) };
  }
  const role = OFAC_CSV_ROLES[name];
  if (role && /^\d+,/.test(head)) return { kind: 'ofac_csv', role };
  return { kind: 'skipped', reason: 'CSV of no list format we read' };
}
