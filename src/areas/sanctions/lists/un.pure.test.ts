import { describe, expect, it } from 'vitest';
import { expectUnCounts, UN_XML, unresolvedCountries } from './manifest-counts.test-support.js';
import { parseUnXml } from './un-xml.parser.js';
import { countBy, entity, excerpt, excerptManifestBlock, manifestCount } from './shipped-data.js';

describe('UN Security Council consolidated.xml', () => {
  const un = parseUnXml(excerpt(UN_XML));

  it("reads every individual and entity of the excerpt, dated by the list's dateGenerated", () => {
    expect(un.list).toBe('un');
    expect(un.format).toBe('un_xml');
    expect(un.published_on).toBe('2026-02-27');
    expectUnCounts(un, excerptManifestBlock(UN_XML));
  });

  it('keeps the NAME_ORIGINAL_SCRIPT name, Low-quality aliases as weak, the exact DOB and nationality', () => {
    const saddam = entity(un, 'IQi.001');
    expect(saddam.primary_name).toBe('SADDAM HUSSEIN AL-TIKRITI');
    expect(saddam.names).toEqual([
      { name: 'SADDAM HUSSEIN AL-TIKRITI', quality: 'primary', non_latin: false },
      { name: 'صدام حسين التكريتي', quality: 'strong', non_latin: true },
      { name: 'Abu Ali', quality: 'weak', non_latin: false },
    ]);
    expect(saddam.dates_of_birth).toEqual([{ kind: 'exact', from: '1937-04-28', to: '1937-04-28' }]);
    expect(saddam.nationalities).toEqual(['IQ']);
    expect(saddam.programmes).toEqual(['Iraq']);
  });

  it('reads TYPE_OF_DATE BETWEEN as a range and APPROXIMATELY as an approximate range', () => {
    const ntaganda = entity(un, 'CDi.030');
    expect(ntaganda.dates_of_birth).toEqual([{ kind: 'range', from: '1973-01-01', to: '1974-12-31' }]);
    expect(ntaganda.nationalities).toEqual(['CD']); // "Democratic Republic of the Congo"
    expect(ntaganda.names).toContainEqual({ name: 'Bosco Ntaganda', quality: 'strong', non_latin: false });
    expect(ntaganda.names).toContainEqual({ name: 'Terminator', quality: 'weak', non_latin: false });

    const baluku = entity(un, 'CDi.036');
    expect(baluku.dates_of_birth).toEqual([
      { kind: 'range', from: '1976-01-01', to: '1978-12-31', approximate: true },
    ]);
    expect(baluku.nationalities).toEqual(['UG']);
  });

  it('reads ENTITY with its a.k.a. and f.k.a. aliases as usable names', () => {
    const adf = entity(un, 'CDe.001');
    expect(adf.type).toBe('entity');
    expect(adf.names.map((n) => [n.name, n.quality])).toEqual([
      ['ADF', 'primary'],
      ['Allied Democratic Forces', 'strong'],
      ['Forces Démocratiques Alliées-Armée Nationale de Libération de l’Ouganda', 'strong'],
      ['ADF/NALU', 'strong'],
      ['NALU', 'strong'],
    ]);
  });

  it('marks non-Latin-script names and resolves the UN country names to ISO codes', () => {
    expect(countBy(un, (e) => e.names.some((n) => n.non_latin))).toBe(
      manifestCount(excerptManifestBlock(UN_XML), /([\d,]+) entries have a name in a\s+non-Latin script/),
    );
    // Only a country that no longer exists stays as the list's text (QDi.290 is kept in the excerpt for it).
    expect(unresolvedCountries(un)).toEqual(['former Soviet Union']);
  });
});
