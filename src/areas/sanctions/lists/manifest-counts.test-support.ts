import { expect } from 'vitest';
import type { SanctionsListPublication } from './entity.js';
import type { LoadedSanctionsLists } from './loader.js';
import { parseOfacCsvSet } from './ofac-csv.parser.js';
import { countBy, entity, manifestCount } from './shipped-data.js';
import type { SourceFile } from './source.js';

/**
 * What the excerpt tests (`*.pure.test.ts`) and the whole-list tests (full-lists.test.ts) check alike: each list's
 * files, and the counts its MANIFEST.txt states. The excerpts' MANIFEST.txt states its counts in the words of the
 * shared one, so one check serves both.
 */

// EU
export const EU_EXTRACT = 'eu/EU_FSF_v1_0_2016-02-11_extract.xml';

export function expectEuCounts(eu: SanctionsListPublication, block: string) {
  expect(eu.entities).toHaveLength(manifestCount(block, /entries: ([\d,]+) entities/));
  expect(countBy(eu, (e) => e.type === 'person')).toBe(manifestCount(block, /\(([\d,]+) persons/));
  expect(countBy(eu, (e) => e.type === 'entity')).toBe(manifestCount(block, /([\d,]+) entities\)/));
}

// UN
export const UN_XML = 'un/UN_consolidated.xml';

export function expectUnCounts(un: SanctionsListPublication, block: string) {
  expect(countBy(un, (e) => e.type === 'person')).toBe(manifestCount(block, /([\d,]+) individuals/));
  expect(countBy(un, (e) => e.type === 'entity')).toBe(manifestCount(block, /([\d,]+) entities/));
  expect(un.entities).toHaveLength(manifestCount(block, /= ([\d,]+)/));
}

/** Nationalities left as the list's text: those that resolved to no ISO code. */
export const unresolvedCountries = (un: SanctionsListPublication) =>
  un.entities.flatMap((e) => e.nationalities).filter((c) => !/^[A-Z]{2}$/.test(c));

// UK
export const CONLIST_2025 = 'uk/ConList_2025-04-10.derived-from-xlsx.csv.gz';
export const EXTRACT_2016 = 'uk/ConList_2016-02-12_extract.csv';

export function expect2025Counts(conList: SanctionsListPublication, block: string) {
  expect(conList.entities).toHaveLength(manifestCount(block, /covering ([\d,]+) designations/));
  expect(countBy(conList, (e) => e.type === 'person')).toBe(manifestCount(block, /\(([\d,]+) Individual/));
  expect(countBy(conList, (e) => e.type === 'entity')).toBe(manifestCount(block, /([\d,]+) Entity/));
  expect(countBy(conList, (e) => e.type === 'vessel')).toBe(manifestCount(block, /([\d,]+) Ship\)/));
  const regimes = new Set(conList.entities.flatMap((e) => e.programmes));
  expect(regimes.size).toBe(manifestCount(block, /in ([\d,]+) regimes/));
}

// OFAC
export const SDN_2024 = 'ofac/sdn_csv_2024-05-03/';
export const SET_2021 = 'ofac/sdn_csv_2021-07-07/';
export const CONSOLIDATED = 'ofac/consolidated_xml_2026-01-24/CONSOLIDATED.XML';

type Read = (path: string) => SourceFile;
export const read2024 = (read: Read) => parseOfacCsvSet({ sdn: read(`${SDN_2024}sdn.csv`) }, '2024-05-03');
export const read2021 = (read: Read) =>
  parseOfacCsvSet(
    {
      sdn: read(`${SET_2021}sdn.csv`),
      alt: read(`${SET_2021}alt.csv`),
      add: read(`${SET_2021}add.csv`),
      comments: read(`${SET_2021}sdn_comments.csv`),
    },
    '2021-07-07',
  );

export function expect2024Counts(sdn2024: SanctionsListPublication, block: string) {
  expect(sdn2024.list).toBe('ofac_sdn');
  expect(sdn2024.entities).toHaveLength(manifestCount(block, /entries: ([\d,]+)/));
  expect(countBy(sdn2024, (e) => e.type === 'person')).toBe(manifestCount(block, /([\d,]+) individual/));
  expect(countBy(sdn2024, (e) => e.type === 'vessel')).toBe(manifestCount(block, /([\d,]+) vessel/));
  expect(countBy(sdn2024, (e) => e.type === 'aircraft')).toBe(manifestCount(block, /([\d,]+) aircraft/));
  expect(countBy(sdn2024, (e) => e.type === 'entity')).toBe(manifestCount(block, /([\d,]+) entity "-0-"/));
  expect(countBy(sdn2024, (e) => e.dates_of_birth.length > 0)).toBe(
    manifestCount(block, /([\d,]+) have a "DOB"/),
  );
  expect(countBy(sdn2024, (e) => e.nationalities.length > 0)).toBe(
    manifestCount(block, /([\d,]+) a "nationality" remark/),
  );
  // The last row, just before the trailing 0x1A byte, is read whole.
  const last = entity(sdn2024, String(manifestCount(block, /max ent_num ([\d,]+)/)));
  expect(last).toMatchObject({
    primary_name: 'UZAY GROUP DIS TICARET LIMITED SIRKETI',
    programmes: ['RUSSIA-EO14024'],
  });
  expect(sdn2024.entities.every((e) => !JSON.stringify(e).includes('-0-'))).toBe(true);
}

export function expect2021Counts(set2021: SanctionsListPublication, block: string) {
  expect(set2021.entities).toHaveLength(manifestCount(block, /sdn ([\d,]+)/));
  expect(countBy(set2021, (e) => e.type === 'person')).toBe(manifestCount(block, /\(([\d,]+) individual\)/));
  expect(countBy(set2021, (e) => e.dates_of_birth.length > 0)).toBe(
    manifestCount(block, /([\d,]+) sdn rows have/),
  );
}

export function expectConsolidatedCounts(consolidated: SanctionsListPublication, block: string) {
  expect(consolidated.entities).toHaveLength(manifestCount(block, /Record_Count ([\d,]+)/));
  expect(countBy(consolidated, (e) => e.type === 'person')).toBe(
    manifestCount(block, /\(([\d,]+) Individual/),
  );
  expect(countBy(consolidated, (e) => e.type === 'entity')).toBe(manifestCount(block, /([\d,]+) Entity\)/));
}

// The loader: the excerpts mirror the shared folder's files.
export const SPREADSHEET_SKIPPED = 'spreadsheet (xlsx) not read: the same publication is read from its CSV';

/** The excerpts mirror the shared folder's files, so both directories put the same publications in force. */
export function expectListsInForce(loaded: LoadedSanctionsLists) {
  expect(loaded.failures).toEqual([]);
  const inForce = loaded.publications.map((p) => [p.list, p.format, p.published_on, p.files]);
  expect(inForce).toEqual([
    ['un', 'un_xml', '2026-02-27', ['un/UN_consolidated.xml']],
    ['ofac_consolidated', 'ofac_xml', '2026-01-08', ['ofac/consolidated_xml_2026-01-24/CONSOLIDATED.XML']],
    ['uk', 'uk_conlist_csv', '2025-04-10', ['uk/ConList_2025-04-10.derived-from-xlsx.csv.gz']],
    ['ofac_sdn', 'ofac_csv', '2024-05-03', ['ofac/sdn_csv_2024-05-03/sdn.csv']],
    ['eu', 'eu_fsf_1_0', '2016-02-11', ['eu/EU_FSF_v1_0_2016-02-11_extract.xml']],
  ]);
  // The 2024 sdn.csv is in force over the complete 2021 set; the 2025 UK list over the 2016 extract.
  expect(loaded.superseded).toEqual([
    {
      list: 'ofac_sdn',
      format: 'ofac_csv',
      published_on: '2021-07-07',
      files: ['sdn.csv', 'alt.csv', 'add.csv', 'sdn_comments.csv'].map((f) => `ofac/sdn_csv_2021-07-07/${f}`),
    },
    {
      list: 'uk',
      format: 'uk_conlist_csv_pre_2022',
      published_on: '2016-02-12',
      files: ['uk/ConList_2016-02-12_extract.csv'],
    },
  ]);
}
