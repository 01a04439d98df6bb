import type { SanctionsEntityType, SanctionsListPublication } from './entity.js';
import { EntityBuilder, clean } from './entity-builder.js';
import { resolveCountries, resolveCountry } from './countries.js';
import { parseDateOfBirthText } from './dates.js';
import { decodeText, parseCsv, type SourceFile } from './source.js';

/** The OFAC legacy CSV set: sdn.csv and, when OFAC ships them beside it, alt.csv, add.csv and sdn_comments.csv. */
export interface OfacCsvSet {
  sdn: SourceFile;
  alt?: SourceFile;
  add?: SourceFile;
  comments?: SourceFile;
}

const TYPES: Record<string, SanctionsEntityType> = {
  individual: 'person',
  vessel: 'vessel',
  aircraft: 'aircraft',
};

/** No header, cp1252, CRLF, a trailing 0x1A; quotes are doubled inside quoted fields. */
function rows(file: SourceFile | undefined): string[][] {
  if (!file) return [];
  const text = decodeText(file.bytes, 'windows-1252');
  return parseCsv<string[]>(text, false).rows.map((row) => row.map((cell) => cell.trim()));
}

/**
 * The remark items that carry identity: weak AKAs (OFAC's legacy files give them only here, as "a.k.a. 'X'"),
 * dates of birth, nationality and citizenship, each possibly prefixed "alt.".
 */
function applyRemarks(entity: EntityBuilder, remarks: string): void {
  for (const programme of remarks.matchAll(/\[([A-Z0-9-]+)\]/g)) entity.addProgrammes([programme[1]]);
  for (const rawItem of remarks.split(';')) {
    const item = rawItem.trim().replace(/^alt\.\s+/i, '');
    const aka = /^(?:weak\s+)?[afn]\.k\.a\.,?\s+'(.+)'\.?$/i.exec(item);
    if (aka) entity.addName(aka[1], 'weak');
    else if (/^DOB\s/i.test(item)) entity.addDateOfBirth(parseDateOfBirthText(item.slice(4)));
    // "Nationality of Registration" is a vessel's or aircraft's flag, not a person's nationality.
    else if (/^nationality\s+(?!of\s)/i.test(item))
      entity.addNationalities([resolveCountry(trimEnd(item.slice(12)))]);
    else if (/^citizen\s/i.test(item)) entity.addCitizenships([resolveCountry(trimEnd(item.slice(8)))]);
  }
}

const trimEnd = (text: string) => text.trim().replace(/\.$/, '');

/** OFAC's Program column lists several programmes as "SDGT] [IFSR" (the legacy text format's bracket tags). */
const programmes = (column: string) => column.split(/\]\s*\[/).map((p) => p.replace(/[[\]]/g, ''));

export function parseOfacCsvSet(set: OfacCsvSet, publishedOn: string): SanctionsListPublication {
  const overflow = new Map<string, string>();
  for (const [entNum, text] of rows(set.comments)) if (entNum) overflow.set(entNum, text ?? '');

  const entities = new Map<string, EntityBuilder>();
  for (const row of rows(set.sdn)) {
    const [entNum, name, type, program, , , , , , , , remarks] = row;
    if (!entNum || !/^\d+$/.test(entNum)) continue;
    const entity = new EntityBuilder('ofac_sdn', entNum, TYPES[clean(type).toLowerCase()] ?? 'entity');
    entity.addName(name, 'primary');
    entity.addProgrammes(programmes(clean(program)));
    // Remarks longer than the column continue in sdn_comments.csv, cut mid-word: join without a separator.
    applyRemarks(entity, clean(remarks) + (overflow.get(entNum) ?? ''));
    entities.set(entNum, entity);
  }
  for (const [entNum, , altType, altName, altRemarks] of rows(set.alt)) {
    const weak = /weak/i.test(`${altType ?? ''} ${altRemarks ?? ''}`);
    entities.get(entNum ?? '')?.addName(altName, weak ? 'weak' : 'strong');
  }
  for (const [entNum, , , , country] of rows(set.add)) {
    entities.get(entNum ?? '')?.addAddressCountries(resolveCountries(clean(country)));
  }

  const files = [set.sdn, set.alt, set.add, set.comments]
    .filter((f): f is SourceFile => !!f)
    .map((f) => f.path);
  return {
    list: 'ofac_sdn',
    format: 'ofac_csv',
    published_on: publishedOn,
    files,
    entities: [...entities.values()].map((entity) => entity.build()),
  };
}
