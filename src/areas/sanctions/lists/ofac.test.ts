import { describe, expect, it } from 'vitest';
import type { SanctionsListPublication } from './entity.js';
import { describeFullLists, fullList, fullListsManifestBlock } from './full-lists.test-support.js';
import { parseOfacCsvSet } from './ofac-csv.parser.js';
import { ofacXmlList, parseOfacXml } from './ofac-xml.parser.js';
import { countBy, entity, excerpt, excerptManifestBlock, manifestCount } from './shipped-data.js';
import type { SourceFile } from './source.js';

const SDN_2024 = 'ofac/sdn_csv_2024-05-03/';
const SET_2021 = 'ofac/sdn_csv_2021-07-07/';
const CONSOLIDATED = 'ofac/consolidated_xml_2026-01-24/CONSOLIDATED.XML';

type Read = (path: string) => SourceFile;
const read2024 = (read: Read) => parseOfacCsvSet({ sdn: read(`${SDN_2024}sdn.csv`) }, '2024-05-03');
const read2021 = (read: Read) =>
  parseOfacCsvSet(
    {
      sdn: read(`${SET_2021}sdn.csv`),
      alt: read(`${SET_2021}alt.csv`),
      add: read(`${SET_2021}add.csv`),
      comments: read(`${SET_2021}sdn_comments.csv`),
    },
    '2021-07-07',
  );

// The excerpts' MANIFEST.txt states its counts in the words of the shared one, so one check serves both.
function expect2024Counts(sdn2024: SanctionsListPublication, block: string) {
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

function expect2021Counts(set2021: SanctionsListPublication, block: string) {
  expect(set2021.entities).toHaveLength(manifestCount(block, /sdn ([\d,]+)/));
  expect(countBy(set2021, (e) => e.type === 'person')).toBe(manifestCount(block, /\(([\d,]+) individual\)/));
  expect(countBy(set2021, (e) => e.dates_of_birth.length > 0)).toBe(
    manifestCount(block, /([\d,]+) sdn rows have/),
  );
}

function expectConsolidatedCounts(consolidated: SanctionsListPublication, block: string) {
  expect(consolidated.entities).toHaveLength(manifestCount(block, /Record_Count ([\d,]+)/));
  expect(countBy(consolidated, (e) => e.type === 'person')).toBe(
    manifestCount(block, /\(([\d,]+) Individual/),
  );
  expect(countBy(consolidated, (e) => e.type === 'entity')).toBe(manifestCount(block, /([\d,]+) Entity\)/));
}

describe('OFAC legacy CSV (sdn.csv as published: cp1252, CRLF, trailing 0x1A, "-0-" for empty)', () => {
  const sdn2024 = read2024(excerpt);
  const set2021 = read2021(excerpt);

  it('reads every entry of the 2024 excerpt with the types, DOB and nationality counts its MANIFEST.txt states', () => {
    expect2024Counts(sdn2024, excerptManifestBlock(`${SDN_2024}sdn.csv`));
  });

  it('reads the 2021 four-file set: names from alt.csv are strong, "a.k.a. \'…\'" in the remarks are weak', () => {
    expect2021Counts(set2021, excerptManifestBlock(SET_2021));
    expect(set2021.files).toEqual([
      `${SET_2021}sdn.csv`,
      `${SET_2021}alt.csv`,
      `${SET_2021}add.csv`,
      `${SET_2021}sdn_comments.csv`,
    ]);

    const bank = entity(set2021, '306');
    expect(bank.primary_name).toBe('BANCO NACIONAL DE CUBA');
    expect(bank.names).toContainEqual({ name: 'NATIONAL BANK OF CUBA', quality: 'strong', non_latin: false });
    expect(bank.names).toContainEqual({ name: 'BNC', quality: 'weak', non_latin: false });
    expect(bank.programmes).toEqual(['CUBA']);
    expect(bank.address_countries).toEqual(['CH', 'ES', 'JP', 'PA']); // add.csv: Zurich, Madrid, Tokyo, Panama
  });

  it('continues a remark cut off in sdn.csv from sdn_comments.csv', () => {
    // sdn.csv stops at "…; P"; the overflow row carries "hone Number …; a.k.a. 'blackjack1987'; a.k.a. 'khaleesi'".
    const hacker = entity(set2021, '28264');
    expect(hacker.names.filter((n) => n.quality === 'weak').map((n) => n.name)).toEqual([
      'blackjack1987',
      'khaleesi',
    ]);
    expect(hacker.nationalities).toEqual(['CN']);
  });

  it('reads DOB remarks as exact days, years, year ranges, months and circa ranges', () => {
    expect(entity(sdn2024, '2674').dates_of_birth).toEqual([
      { kind: 'exact', from: '1948-12-10', to: '1948-12-10' },
    ]);
    expect(entity(sdn2024, '2678').dates_of_birth).toEqual([
      { kind: 'year', from: '1946-01-01', to: '1946-12-31' },
    ]);
    expect(entity(sdn2024, '15496').dates_of_birth).toEqual([
      { kind: 'range', from: '1929-01-01', to: '1930-12-31' },
    ]);
    expect(entity(sdn2024, '7782').dates_of_birth).toEqual([
      { kind: 'range', from: '1950-01-01', to: '1952-12-31', approximate: true },
    ]);
    // Several DOBs separated by ";" ("DOB 1951 to 1953; alt. DOB 1960 to 1962; alt. DOB Apr 1961; alt. DOB 1953").
    expect(entity(sdn2024, '12057').dates_of_birth).toEqual([
      { kind: 'range', from: '1951-01-01', to: '1953-12-31' },
      { kind: 'range', from: '1960-01-01', to: '1962-12-31' },
      { kind: 'range', from: '1961-04-01', to: '1961-04-30' },
      { kind: 'year', from: '1953-01-01', to: '1953-12-31' },
    ]);
  });

  it('resolves "nationality" and "citizen" remarks to ISO codes and splits the program column', () => {
    const coronel = entity(sdn2024, '9335');
    expect(coronel.nationalities).toEqual(['MX']);
    expect(coronel.citizenships).toEqual(['MX']);
    expect(coronel.names).toContainEqual({ name: 'NACHO CORONEL', quality: 'weak', non_latin: false });
    expect(entity(sdn2024, '12057').programmes).toEqual([
      'SDGT',
      'NPWMD',
      'IRGC',
      'IFSR',
      'IRAN-HR',
      'IRAN-EO13876',
    ]);
    // "Nationality of Registration" is a vessel's or aircraft's flag, never taken for a nationality.
    const flagged = sdn2024.entities.filter((e) => e.type === 'vessel' || e.type === 'aircraft');
    expect(flagged.every((e) => e.nationalities.every((n) => !/registration/i.test(n)))).toBe(true);
  });
});

describe('OFAC sdnList XML (SDN.XML / CONSOLIDATED.XML)', () => {
  const consolidated = parseOfacXml(excerpt(CONSOLIDATED));

  it('reads CONSOLIDATED.XML as the non-SDN consolidated list, dated by its Publish_Date', () => {
    expect(consolidated.list).toBe('ofac_consolidated');
    expect(consolidated.format).toBe('ofac_xml');
    expect(consolidated.published_on).toBe('2026-01-08'); // Publish_Date 01/08/2026 is month first
    expectConsolidatedCounts(consolidated, excerptManifestBlock(CONSOLIDATED));
    expect(ofacXmlList('ofac/2026-02-01/SDN.XML')).toBe('ofac_sdn');
  });

  it('keeps akaList category weak/strong, DOB items, nationality and programmes', () => {
    const zahar = entity(consolidated, '9647');
    expect(zahar.type).toBe('person');
    expect(zahar.primary_name).toBe('Mahmoud Khaled ZAHHAR');
    expect(zahar.names).toContainEqual({
      name: 'Mahmoud Khaled AL ZAHAR',
      quality: 'strong',
      non_latin: false,
    });
    expect(zahar.names).toContainEqual({ name: 'ZAHAR, Mahmoud', quality: 'weak', non_latin: false });
    expect(zahar.dates_of_birth).toEqual([{ kind: 'year', from: '1945-01-01', to: '1945-12-31' }]);
    expect(zahar.nationalities).toEqual(['PS']); // the list says "Palestinian"
    expect(zahar.programmes).toEqual(['NS-PLC', 'SDGT']);
  });
});

describeFullLists(
  'OFAC full lists: every entry of each published file, as the shared MANIFEST.txt counts them',
  () => {
    it('reads every entry of the full 2024 sdn.csv', () => {
      expect2024Counts(read2024(fullList), fullListsManifestBlock(`${SDN_2024}sdn.csv`));
    });

    it('reads every entry of the full 2021 four-file set', () => {
      expect2021Counts(read2021(fullList), fullListsManifestBlock(SET_2021));
    });

    it('reads every sdnEntry of the full CONSOLIDATED.XML', () => {
      expectConsolidatedCounts(parseOfacXml(fullList(CONSOLIDATED)), fullListsManifestBlock(CONSOLIDATED));
    });
  },
);
