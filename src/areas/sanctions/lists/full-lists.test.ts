import { beforeAll, expect, it } from 'vitest';
import type { SanctionsListPublication } from './entity.js';
import { parseEuFsf10 } from './eu-fsf-1-0.parser.js';
import {
  describeFullLists,
  FULL_LISTS_DIR,
  fullList,
  fullListsManifestBlock,
} from './full-lists.test-support.js';
import { loadSanctionsDirectory } from './loader.js';
import {
  CONLIST_2025,
  CONSOLIDATED,
  EU_EXTRACT,
  expect2021Counts,
  expect2024Counts,
  expect2025Counts,
  expectConsolidatedCounts,
  expectEuCounts,
  expectListsInForce,
  expectUnCounts,
  EXTRACT_2016,
  read2021,
  read2024,
  SDN_2024,
  SET_2021,
  SPREADSHEET_SKIPPED,
  UN_XML,
  unresolvedCountries,
} from './manifest-counts.test-support.js';
import { parseOfacXml } from './ofac-xml.parser.js';
import { countBy, manifestCount } from './shipped-data.js';
import { parseUkConList } from './uk-conlist.parser.js';
import { parseUnXml } from './un-xml.parser.js';

// The parsers and the loader on the whole published lists of the shared data folder: tens of thousands of entries,
// seconds to read, so these run with the service tests, not the pure ones (which read the committed excerpts).

describeFullLists(
  'EU full list: every ENTITY of the shared 2016 extract, as its MANIFEST.txt counts them',
  () => {
    it('reads every person and entity of the shared file', () => {
      expectEuCounts(parseEuFsf10(fullList(EU_EXTRACT)), fullListsManifestBlock(EU_EXTRACT));
    });
  },
);

describeFullLists('UN full list: every entry, as the shared MANIFEST.txt counts them', () => {
  let un: SanctionsListPublication;
  beforeAll(() => {
    un = parseUnXml(fullList(UN_XML));
  });

  it('reads every individual and entity of the full consolidated.xml', () => {
    expectUnCounts(un, fullListsManifestBlock(UN_XML));
  });

  it("marks the full list's non-Latin-script names and resolves every country name the list uses", () => {
    // The shared MANIFEST.txt does not count them; well over 300 of the entries have one.
    expect(countBy(un, (e) => e.names.some((n) => n.non_latin))).toBeGreaterThan(300);
    expect(unresolvedCountries(un)).toEqual(['former Soviet Union']);
  });
});

describeFullLists('UK full lists: every designation, as the shared MANIFEST.txt counts them', () => {
  it('groups every name row of the full 2025 ConList into its designations', () => {
    // The counts are stated on the xlsx this csv.gz was converted from, cell by cell.
    expect2025Counts(
      parseUkConList(fullList(CONLIST_2025)),
      fullListsManifestBlock('uk/ConList_2025-04-10.xlsx'),
    );
  });

  it('reads every group of the shared 2016 extract', () => {
    const extract = parseUkConList(fullList(EXTRACT_2016));
    const block = fullListsManifestBlock(EXTRACT_2016);
    expect(extract.entities).toHaveLength(manifestCount(block, /covering ([\d,]+) groups/));
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

describeFullLists('loading the full lists directory (the shared folder)', () => {
  it('loads every list in force, and skips the xlsx whose publication it reads from the csv.gz', async () => {
    const loaded = await loadSanctionsDirectory(FULL_LISTS_DIR);

    expectListsInForce(loaded);
    expect(loaded.skipped).toEqual([
      { file: 'MANIFEST.txt', reason: 'not a list file' },
      { file: 'uk/ConList_2025-04-10.xlsx', reason: SPREADSHEET_SKIPPED },
    ]);
  });
});
