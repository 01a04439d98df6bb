import type { AliasQuality, SanctionsEntityType, SanctionsListPublication } from './entity.js';
import { EntityBuilder, joinName } from './entity-builder.js';
import { resolveCountries, splitNumbered } from './countries.js';
import { parseDateOfBirthText } from './dates.js';
import { decodeText, isoDay, parseCsv, unzipIfGzip, type SourceFile } from './source.js';

type Row = Record<string, string | undefined>;

const TYPES: Record<string, SanctionsEntityType> = { individual: 'person', entity: 'entity', ship: 'vessel' };

/**
 * "Primary name" (2022) and "Prime Alias" (pre-2022) are the primary name; a "Primary name variation" is a spelling
 * of it. AKA and FKA are aliases, weak only when OFSI marks them "Low quality" (the 2022 Alias Quality column).
 */
function quality(row: Row): AliasQuality {
  const type = (row['Alias Type'] ?? '').toLowerCase();
  if (type === 'primary name' || type === 'prime alias') return 'primary';
  if (type === 'primary name variation') return 'strong';
  return /^low/i.test(row['Alias Quality'] ?? '') ? 'weak' : 'strong';
}

/** Line 1 is "Last Updated,DD/MM/YYYY"; line 2 the header; then one row per name, grouped by Group ID. */
function readRows(file: SourceFile): { lastUpdated: string; rows: Row[]; layout: '2022' | 'pre_2022' } {
  const text = decodeText(unzipIfGzip(file.bytes));
  const firstBreak = text.indexOf('\n');
  const first = /^Last Updated,\s*"?([\d/]+)/i.exec(text.slice(0, firstBreak));
  const lastUpdated = first?.[1] ? isoDay(first[1]) : undefined;
  if (!lastUpdated) throw new Error('not an OFSI ConList CSV: line 1 is not "Last Updated,DD/MM/YYYY"');
  const { rows, fields: header } = parseCsv<Row>(text.slice(firstBreak + 1), true);
  if (!header.includes('Group ID') || !header.includes('Name 6')) {
    throw new Error('not an OFSI ConList CSV: the header lacks "Name 6" or "Group ID"');
  }
  return { lastUpdated, rows, layout: header.includes('Alias Quality') ? '2022' : 'pre_2022' };
}

/** The OFSI Consolidated List CSV (ConList.csv, `.csv.gz`): the 2022 layout and the pre-2022 29-column one. */
export function parseUkConList(file: SourceFile): SanctionsListPublication {
  const { lastUpdated, rows, layout } = readRows(file);
  const groups = new Map<string, EntityBuilder>();
  for (const row of rows) {
    const groupId = (row['Group ID'] ?? '').trim();
    if (!groupId) continue;
    let entity = groups.get(groupId);
    if (!entity) {
      const type = TYPES[(row['Group Type'] ?? '').trim().toLowerCase()] ?? 'entity';
      entity = new EntityBuilder('uk', groupId, type);
      groups.set(groupId, entity);
    }
    // Name 6 is the surname (or the whole name of an entity or ship); Names 1-5 are the given names in order.
    const name = joinName(
      row['Name 1'],
      row['Name 2'],
      row['Name 3'],
      row['Name 4'],
      row['Name 5'],
      row['Name 6'],
    );
    entity.addName(name, quality(row));
    for (const nonLatin of splitNumbered(row['Name Non-Latin Script'] ?? ''))
      entity.addName(nonLatin, 'strong');
    for (const dob of splitNumbered(row.DOB ?? '')) entity.addDateOfBirth(parseDateOfBirthText(dob));
    entity.addNationalities(resolveCountries(row.Nationality));
    entity.addAddressCountries(resolveCountries(row.Country));
    entity.addProgrammes([row.Regime]);
  }
  return {
    list: 'uk',
    format: layout === '2022' ? 'uk_conlist_csv' : 'uk_conlist_csv_pre_2022',
    published_on: lastUpdated,
    files: [file.path],
    entities: [...groups.values()].filter((entity) => entity.hasNames).map((entity) => entity.build()),
  };
}
