import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../../test/helpers/suite.js';
import { temporaryDirectory } from '../../../../test/helpers/temporary-directory.js';
import { EXCERPTS_DIR, excerptManifestBlock, manifestCount } from './shipped-data.js';
import { SanctionsDriver } from '../sanctions.test-support.js';

const UN = 'un/UN_consolidated.xml';
const OFAC = 'ofac/consolidated_xml_2026-01-24/CONSOLIDATED.XML';
const EU = 'eu/EU_FSF_v1_0_2016-02-11_extract.xml';

/** A truncated OFAC XML stating a newer date: detected as the consolidated list, fails to parse. */
const BROKEN_OFAC = `<?xml version="1.0" standalone="yes"?>
<sdnList xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">
  <publshInformation><Publish_Date>02/01/2026</Publish_Date></publshInformation>
  <sdnEntry><uid>9639</uid><firstName>Ismail
`;

// A copy of three list excerpts in a directory the test changes.
describe('reloading the sanctions lists', () => {
  let dir: string;
  let today: string;
  const copy = (from: string, to = from, edit: (text: string) => string = (text) => text) => {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    fs.writeFileSync(path.join(dir, to), edit(fs.readFileSync(path.join(EXCERPTS_DIR, from), 'utf8')));
  };
  const lists = async () => {
    const { t } = suite.current;
    const view = (await t.backoffice('GET', '/sanctions/lists')).json();
    return { view, byList: Object.fromEntries(view.lists.map((l: { list: string }) => [l.list, l])) };
  };

  const suite = useSuite(async (own) => {
    dir = own(temporaryDirectory('sanctions-lists-')).path;
    for (const file of [UN, OFAC, EU]) copy(file);
    const d = own(await SanctionsDriver.start({ config: { sanctionsDataDir: dir }, environment: 'live' }));
    await d.cutOver();
    return { t: d.t, live: d.tenant };
  });

  it('a reload takes a newer list, and keeps the previous version of a list whose new file fails', async () => {
    const { t, live } = suite.current;
    const before = await lists();
    expect(before.byList.ofac_consolidated).toMatchObject({ published_on: '2026-01-08', stale: true });
    expect(before.byList.un).toMatchObject({ published_on: '2026-02-27', stale: true });
    const unLoadedAt = before.byList.un.loaded_at;

    await t.advance(60);
    // Read after the advance: a clock started a minute before midnight would otherwise date the list yesterday.
    today = t.platform.clock.now().toISOString().slice(0, 10);
    // A UN publication of today; a broken newer OFAC file and an older valid one, the one served removed.
    copy(UN, 'un/UN_today.xml', (xml) =>
      xml.replace(/dateGenerated="[^"]+"/, `dateGenerated="${today}T00:00:00Z"`),
    );
    fs.rmSync(path.join(dir, UN));
    fs.mkdirSync(path.join(dir, 'ofac/new'));
    fs.writeFileSync(path.join(dir, 'ofac/new/CONSOLIDATED.XML'), BROKEN_OFAC);
    copy(OFAC, 'ofac/old/CONSOLIDATED.XML', (xml) => xml.replace('01/08/2026', '01/08/2025'));
    fs.rmSync(path.join(dir, OFAC));

    const response = await t.backoffice('POST', '/sanctions/lists/reload');
    expect(response.statusCode).toBe(200);
    const view = response.json();
    const byList = Object.fromEntries(view.lists.map((l: { list: string }) => [l.list, l]));
    expect(view.last_reload_at).toBe(t.platform.clock.now().toISOString());
    expect(byList.un).toMatchObject({
      published_on: today,
      files: ['un/UN_today.xml'],
      stale: false,
      age_days: 0,
      warnings: [],
      last_failure: null,
    });
    expect(byList.un.loaded_at).not.toBe(unLoadedAt);
    // The version served stays; the failure and the older version it left are both reported.
    expect(byList.ofac_consolidated).toMatchObject({
      published_on: '2026-01-08',
      files: [OFAC],
      entities: manifestCount(excerptManifestBlock(OFAC), /Record_Count ([\d,]+)/),
      last_failure: {
        file: 'ofac/new/CONSOLIDATED.XML',
        list: 'ofac_consolidated',
        error: expect.stringContaining('malformed XML'),
        at: t.platform.clock.now().toISOString(),
      },
    });
    expect(byList.ofac_consolidated.warnings).toEqual([
      expect.stringContaining('Published 2026-01-08'),
      expect.stringContaining('ofac/new/CONSOLIDATED.XML'),
      expect.stringContaining('older than the one served (2026-01-08)'),
    ]);
    expect(view.failures).toHaveLength(2);
    expect(view.warnings).toContain('The latest reload left at least one list at its previous version');
    expect(byList.eu).toMatchObject({ published_on: '2016-02-11', last_failure: null });

    // A screening now runs against the new UN version and the OFAC version kept.
    const screened = await t.api(live.apiKey, 'POST', '/v1/sanctions/screen', {
      user_id: 'player-1',
      first_name: 'Straton',
      last_name: 'Musoni',
      date_of_birth: '1961-04-06',
      nationality: 'RW',
      email: 'p1@example.com',
    });
    expect(screened.json().status).toBe('hit_review_pending');
    const stored = await t.db
      .selectFrom('sanctions_screens')
      .select('list_versions')
      .where('user_id', '=', 'player-1')
      .executeTakeFirstOrThrow();
    const digest = expect.stringMatching(/^[0-9a-f]{32}$/);
    expect(stored.list_versions).toEqual({
      un: { published_on: today, format: 'un_xml', files: ['un/UN_today.xml'], digest },
      ofac_consolidated: { published_on: '2026-01-08', format: 'ofac_xml', files: [OFAC], digest },
      eu: { published_on: '2016-02-11', format: 'eu_fsf_1_0', files: [EU], digest },
    });
  });

  it('the hourly refresh job re-reads the directory', async () => {
    const { t } = suite.current;
    const dayMonthYear = today.split('-').reverse().join('/');
    copy(EU, 'eu/EU_today.xml', (xml) =>
      xml.replace('<WHOLE Date="11/02/2016">', `<WHOLE Date="${dayMonthYear}">`),
    );
    expect((await lists()).byList.eu.published_on).toBe('2016-02-11');
    await t.advance(3600);
    const { view, byList } = await lists();
    expect(view.last_reload_at).toBe(t.platform.clock.now().toISOString());
    expect(byList.eu).toMatchObject({ published_on: today, files: ['eu/EU_today.xml'], stale: false });
  });

  it('each process notices changed files by their size and time (the check its timer runs)', async () => {
    const { t } = suite.current;
    const holder = t.platform.vendors.sanctions.lists!;
    expect(await holder.refreshIfChanged()).toBe(false);
    fs.rmSync(path.join(dir, 'ofac/new'), { recursive: true });
    expect(await holder.refreshIfChanged()).toBe(true);
    const { view, byList } = await lists();
    // The broken file is gone; the older OFAC file still does not replace the version served.
    expect(view.failures.map((f: { file: string }) => f.file)).toEqual(['ofac/old/CONSOLIDATED.XML']);
    expect(byList.ofac_consolidated.published_on).toBe('2026-01-08');
  });
});
