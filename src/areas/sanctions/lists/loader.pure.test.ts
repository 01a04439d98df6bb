import { mkdtemp, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSanctionsDirectory } from './loader.js';
import { expectListsInForce, SPREADSHEET_SKIPPED } from './manifest-counts.test-support.js';
import { EXCERPTS_DIR, fixture } from './shipped-data.js';

describe('loading the excerpts directory', () => {
  it('loads every list in force, the newest publication of each by its own date', async () => {
    const messages: string[] = [];
    const loaded = await loadSanctionsDirectory(EXCERPTS_DIR, { log: (msg) => messages.push(msg) });

    expectListsInForce(loaded);
    expect(loaded.skipped).toEqual([{ file: 'MANIFEST.txt', reason: 'not a list file' }]);
    expect(messages.filter((m) => m === 'sanctions list loaded')).toHaveLength(5);
  });
});

describe('loading a lists directory with broken, undated and competing files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sanctions-lists-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reports a truncated file in failures, logs it, and still loads the other lists', async () => {
    const un = await readFile(join(EXCERPTS_DIR, 'un/UN_consolidated.xml'));
    await writeFile(join(dir, 'consolidated.xml'), un.subarray(0, Math.floor(un.length / 2))); // a cut-off download
    await writeFile(join(dir, 'UK_Sanctions_List.xml'), fixture('UK_Sanctions_List.fixture.xml').bytes);
    const logged: Array<{ msg: string; details?: object }> = [];

    const loaded = await loadSanctionsDirectory(dir, {
      log: (msg, details) => logged.push({ msg, details }),
    });

    expect(loaded.failures).toEqual([
      {
        file: 'consolidated.xml',
        list: 'un',
        format: 'un_xml',
        error: expect.stringMatching(/^malformed XML/),
      },
    ]);
    expect(loaded.publications.map((p) => p.list)).toEqual(['uk']);
    expect(logged).toContainEqual({
      msg: 'sanctions list file failed to parse',
      details: expect.objectContaining({ file: 'consolidated.xml', list: 'un' }),
    });
  });

  it('dates an OFAC CSV set without a date in its path by the file time, and decodes its cp1252 names', async () => {
    await mkdir(join(dir, 'ofac-latest'));
    // The shipped OFAC CSVs are pure ASCII, so this row is written here: "MUÑOZ, José" (0xD1, 0xE9), cp1252-only
    // curly quotes 0x93/0x94 in the remarks, CRLF and the trailing 0x1A.
    const row = '9901,"MU\xD1OZ, Jos\xE9","individual","SDNTK",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,';
    const remarks =
      '"DOB 03 Mar 1971; nationality Colombia; a.k.a. \'EL CU\xD1ADO\'; Linked To: \x93LA OFICINA\x94."';
    await writeFile(join(dir, 'ofac-latest', 'sdn.csv'), Buffer.from(`${row}${remarks}\r\n\x1A`, 'latin1'));
    const fileTime = new Date('2026-03-02T12:00:00Z');
    await utimes(join(dir, 'ofac-latest', 'sdn.csv'), fileTime, fileTime);

    const loaded = await loadSanctionsDirectory(dir);

    expect(loaded.failures).toEqual([]);
    const [sdn] = loaded.publications;
    expect(sdn).toMatchObject({ list: 'ofac_sdn', format: 'ofac_csv', published_on: '2026-03-02' });
    expect(sdn?.entities).toEqual([
      {
        list: 'ofac_sdn',
        list_entity_id: '9901',
        type: 'person',
        primary_name: 'MUÑOZ, José',
        names: [
          { name: 'MUÑOZ, José', quality: 'primary', non_latin: false },
          { name: 'EL CUÑADO', quality: 'weak', non_latin: false },
        ],
        dates_of_birth: [{ kind: 'exact', from: '1971-03-03', to: '1971-03-03' }],
        nationalities: ['CO'],
        citizenships: [],
        programmes: ['SDNTK'],
      },
    ]);
  });

  it('puts in force the publication whose stated date is newest, whatever the file names say', async () => {
    const uk = Buffer.from(fixture('UK_Sanctions_List.fixture.xml').bytes).toString('utf8');
    await writeFile(join(dir, 'uk-2026-12-31.xml'), uk.replace('02/02/2026', '15/01/2026'));
    await writeFile(join(dir, 'uk-2020-01-01.xml'), uk.replace('02/02/2026', '20/02/2026'));

    const loaded = await loadSanctionsDirectory(dir);

    expect(loaded.publications.map((p) => [p.published_on, p.files])).toEqual([
      ['2026-02-20', ['uk-2020-01-01.xml']],
    ]);
    expect(loaded.superseded.map((p) => [p.published_on, p.files])).toEqual([
      ['2026-01-15', ['uk-2026-12-31.xml']],
    ]);
  });

  it('skips a spreadsheet: the same publication is read from its CSV', async () => {
    await mkdir(join(dir, 'uk'));
    // A zip's first bytes: the loader tells an xlsx by its name and never opens it.
    await writeFile(join(dir, 'uk', 'ConList_2025-04-10.xlsx'), Buffer.from([0x50, 0x4b, 0x03, 0x04]));

    const loaded = await loadSanctionsDirectory(dir);

    expect(loaded.skipped).toEqual([{ file: 'uk/ConList_2025-04-10.xlsx', reason: SPREADSHEET_SKIPPED }]);
    expect(loaded.failures).toEqual([]);
    expect(loaded.publications).toEqual([]);
  });

  it('reports an unreadable directory as a failure instead of throwing', async () => {
    const loaded = await loadSanctionsDirectory(join(dir, 'missing'));
    expect(loaded.publications).toEqual([]);
    expect(loaded.failures).toEqual([
      { file: join(dir, 'missing'), error: expect.stringMatching(/^cannot read the lists directory/) },
    ]);
  });
});
