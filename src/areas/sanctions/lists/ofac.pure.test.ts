import { describe, expect, it } from 'vitest';
import {
  CONSOLIDATED,
  expect2021Counts,
  expect2024Counts,
  expectConsolidatedCounts,
  read2021,
  read2024,
  SDN_2024,
  SET_2021,
} from './manifest-counts.test-support.js';
import { ofacXmlList, parseOfacXml } from './ofac-xml.parser.js';
import { entity, excerpt, excerptManifestBlock } from './shipped-data.js';

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
