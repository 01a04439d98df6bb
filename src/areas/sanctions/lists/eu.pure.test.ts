import { describe, expect, it } from 'vitest';
import { parseEuFsf10 } from './eu-fsf-1-0.parser.js';
import { parseEuFsf11 } from './eu-fsf-1-1.parser.js';
import { EU_EXTRACT, expectEuCounts } from './manifest-counts.test-support.js';
import { entity, excerpt, excerptManifestBlock, fixture } from './shipped-data.js';

describe('EU Financial Sanctions Files, 1.0 layout (an excerpt of the 2016 extract)', () => {
  const eu = parseEuFsf10(excerpt(EU_EXTRACT));

  it('reads every ENTITY as a person (Type P) or entity (Type E), dated by WHOLE Date', () => {
    expect(eu).toMatchObject({ list: 'eu', format: 'eu_fsf_1_0', published_on: '2016-02-11' });
    expectEuCounts(eu, excerptManifestBlock(EU_EXTRACT));
  });

  it('keeps every NAME, the BIRTH date and the CITIZEN alpha-3 code as ISO alpha-2', () => {
    const saddam = entity(eu, '13');
    expect(saddam.names.map((n) => [n.name, n.quality])).toEqual([
      ['Saddam Hussein Al-Tikriti', 'primary'],
      ['Abu Ali', 'strong'],
      ['Abou Ali', 'strong'],
    ]);
    expect(saddam.dates_of_birth).toEqual([{ kind: 'exact', from: '1937-04-28', to: '1937-04-28' }]);
    expect(saddam.citizenships).toEqual(['IQ']); // <CITIZEN><COUNTRY>IRQ</COUNTRY>
    expect(saddam.programmes).toEqual(['IRQ']);
    expect(entity(eu, '1').dates_of_birth).toEqual([{ kind: 'exact', from: '1924-02-21', to: '1924-02-21' }]);
  });

  it('reads "YYYY - YYYY (approximative)" as an approximate range and flags Cyrillic names', () => {
    expect(entity(eu, '516').dates_of_birth).toEqual([
      { kind: 'range', from: '1957-01-01', to: '1964-12-31', approximate: true },
    ]);
    expect(entity(eu, '201').names).toContainEqual({
      name: 'Организация Abu Nidal',
      quality: 'strong',
      non_latin: true,
    });
  });
});

describe('EU Financial Sanctions Files, 1.1 XML', () => {
  // No real 1.1 file is available here: a fixture written to the published xmlFullSanctionsList_1_1 schema.
  const eu = parseEuFsf11(fixture('EU_FSF_1_1.fixture.xml'));

  it('reads export generationDate and each sanctionEntity by logicalId and subjectType', () => {
    expect(eu).toMatchObject({ list: 'eu', format: 'eu_fsf_1_1', published_on: '2026-01-30' });
    expect(eu.entities.map((e) => [e.list_entity_id, e.type])).toEqual([
      ['990001', 'person'],
      ['990002', 'person'],
      ['990003', 'entity'],
    ]);
  });

  it('keeps nameAlias strong="false" as weak, non-Latin names, birthdate kinds and citizenship codes', () => {
    const olga = entity(eu, '990001');
    expect(olga.names).toEqual([
      { name: 'Olga Viktorovna ZAREMBSKAYA', quality: 'primary', non_latin: false },
      { name: 'Ольга Викторовна ЗАРЕМБСКАЯ', quality: 'strong', non_latin: true },
      { name: 'Olya Z', quality: 'weak', non_latin: false },
    ]);
    expect(olga.dates_of_birth).toEqual([
      { kind: 'exact', from: '1971-06-05', to: '1971-06-05' },
      { kind: 'range', from: '1971-01-01', to: '1973-12-31', approximate: true }, // year 1972, circa
    ]);
    expect(olga.citizenships).toEqual(['RU']);
    expect(olga.programmes).toEqual(['RUS']);
    expect(entity(eu, '990002').dates_of_birth).toEqual([
      { kind: 'range', from: '1960-01-01', to: '1963-12-31' },
    ]);
    expect(entity(eu, '990003').address_countries).toEqual(['BY']);
  });
});
