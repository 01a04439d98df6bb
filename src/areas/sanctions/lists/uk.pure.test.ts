import { describe, expect, it } from 'vitest';
import { CONLIST_2025, expect2025Counts, EXTRACT_2016 } from './manifest-counts.test-support.js';
import { parseUkConList } from './uk-conlist.parser.js';
import { parseUkFcdoXml } from './uk-fcdo.parser.js';
import { countBy, entity, excerpt, excerptManifestBlock, fixture, manifestCount } from './shipped-data.js';

describe('UK OFSI ConList CSV, 2022 layout (csv.gz)', () => {
  const conList = parseUkConList(excerpt(CONLIST_2025));

  it('groups the name rows by Group ID into the designations the excerpt MANIFEST.txt counts', () => {
    expect(conList.list).toBe('uk');
    expect(conList.format).toBe('uk_conlist_csv');
    expect(conList.published_on).toBe('2025-04-10'); // line 1: "Last Updated,10/04/2025"
    expect2025Counts(conList, excerptManifestBlock(CONLIST_2025));
  });

  it('keeps "Name Non-Latin Script", Low-quality aliases as weak, a year-only DOB and the nationality', () => {
    const group = entity(conList, '6923');
    expect(group.primary_name).toBe('Nashwan Abd Al-Razzaq ABD AL-BAQI'); // Names 1-5, then Name 6 (surname)
    expect(group.names).toContainEqual({
      name: 'نشوان عبد الرزاق عبد الباقي',
      quality: 'strong',
      non_latin: true,
    });
    expect(group.names).toContainEqual({ name: 'Abu ABDALLAH', quality: 'weak', non_latin: false });
    expect(group.names).toContainEqual({ name: 'Abdul Hadi Arif ALI', quality: 'strong', non_latin: false });
    expect(group.dates_of_birth).toEqual([{ kind: 'year', from: '1961-01-01', to: '1961-12-31' }]); // "00/00/1961"
    expect(group.nationalities).toEqual(['IQ']);
    expect(group.programmes).toEqual(["ISIL (Da'esh) and Al-Qaida"]);
  });

  it('reads a Cyrillic name, a primary name variation and an exact DOB', () => {
    const zadachin = entity(conList, '15890');
    expect(zadachin.names).toEqual([
      { name: 'Andrei Andreevich ZADACHIN', quality: 'strong', non_latin: false },
      { name: 'Andrey Andreevich ZADACHIN', quality: 'primary', non_latin: false },
      { name: 'ЗАДАЧИН Андрей Андреевич', quality: 'strong', non_latin: true },
    ]);
    expect(zadachin.primary_name).toBe('Andrey Andreevich ZADACHIN');
    expect(zadachin.dates_of_birth).toEqual([{ kind: 'exact', from: '1990-08-22', to: '1990-08-22' }]);
    expect(zadachin.nationalities).toEqual(['RU']);
  });

  it('reads ships as vessels with every name they sailed under', () => {
    const ship = entity(conList, '13651');
    expect(ship.type).toBe('vessel');
    expect(ship.primary_name).toBe('SAM JONG 2');
    expect(ship.names.map((n) => n.name)).toContain('PETROCHEM VALOUR');
  });
});

describe('UK OFSI ConList CSV, pre-2022 29-column layout (cp1252)', () => {
  const extract = parseUkConList(excerpt(EXTRACT_2016));

  it('reads the 2016 extract: groups, types and its stated date', () => {
    expect(extract.format).toBe('uk_conlist_csv_pre_2022');
    expect(extract.published_on).toBe('2016-02-12');
    const block = excerptManifestBlock(EXTRACT_2016);
    expect(extract.entities).toHaveLength(manifestCount(block, /covering ([\d,]+) groups/));
  });

  it('decodes cp1252 bytes (0x91 left quote, 0xC9 É) and demonym nationalities', () => {
    const huthi = entity(extract, '13191');
    expect(huthi.primary_name).toBe('‘Abd al-Khaliq Badr al-Din AL-HUTHI');
    expect(huthi.nationalities).toEqual(['YE']); // "Yemeni"
    expect(extract.entities.flatMap((e) => e.names.map((n) => n.name))).toContain('GROUPE ISLAMIQUE ARMÉ');
    // "Prime Alias" is the pre-2022 primary name; the layout has no alias quality, so no alias is weak.
    expect(countBy(extract, (e) => e.names.some((n) => n.quality === 'weak'))).toBe(0);
  });
});

describe('FCDO UK Sanctions List XML', () => {
  // No real file is available here: a fixture written to the published UK_Sanctions_List.xml layout.
  const fcdo = parseUkFcdoXml(fixture('UK_Sanctions_List.fixture.xml'));

  it('reads Designations dated by DateGenerated, with Individual, Entity and Ship', () => {
    expect(fcdo).toMatchObject({ list: 'uk', format: 'uk_fcdo_xml', published_on: '2026-02-02' });
    expect(fcdo.entities.map((e) => [e.list_entity_id, e.type])).toEqual([
      ['RUS9901', 'person'],
      ['IRQ9902', 'entity'],
      ['DPR9903', 'vessel'],
    ]);
  });

  it('keeps name types, alias strength, non-Latin names, "dd/mm/yyyy" DOBs and nationalities', () => {
    const person = entity(fcdo, 'RUS9901');
    expect(person.names).toEqual([
      { name: 'Ivan Sergeevich KORNILOVSKY', quality: 'primary', non_latin: false },
      { name: 'Ivan Sergeyevich KORNILOVSKIY', quality: 'strong', non_latin: false },
      { name: 'Vanya the Fixer', quality: 'weak', non_latin: false },
      { name: 'Jan KORNELL', quality: 'strong', non_latin: false },
      { name: 'Иван Сергеевич КОРНИЛОВСКИЙ', quality: 'strong', non_latin: true },
    ]);
    expect(person.dates_of_birth).toEqual([
      { kind: 'exact', from: '1968-03-14', to: '1968-03-14' },
      { kind: 'year', from: '1969-01-01', to: '1969-12-31' }, // "dd/mm/1969"
    ]);
    expect(person.nationalities).toEqual(['RU', 'CY']);
    expect(person.programmes).toEqual(['Russia']);
  });
});
