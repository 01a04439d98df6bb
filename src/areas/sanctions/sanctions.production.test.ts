import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { EXCERPTS_DIR, excerptManifestBlock, manifestCount } from './lists/shipped-data.js';
import { SanctionsDriver } from './sanctions.test-support.js';

/** Real listed persons from each list excerpt, as a player might register them (variations noted). */
const LISTED = [
  // ofac_sdn 7203 "AOUADI, Mohamed Ben Belgacem": middle names dropped.
  {
    list: 'ofac_sdn',
    entity_id: '7203',
    first_name: 'Mohamed',
    last_name: 'Aouadi',
    dob: '1974-12-11',
    nat: 'TN',
  },
  // ofac_consolidated 9639 "Ismail Abdul Salah HANIYA" (born 1962): another spelling of the surname.
  {
    list: 'ofac_consolidated',
    entity_id: '9639',
    first_name: 'Ismail',
    last_name: 'Haniyya',
    dob: '1962-05-01',
    nat: 'PS',
  },
  // un CDi.017 "STRATON MUSONI": a typo in the given name.
  {
    list: 'un',
    entity_id: 'CDi.017',
    first_name: 'Stratton',
    last_name: 'Musoni',
    dob: '1961-04-06',
    nat: 'RW',
  },
  // uk 14241 "Khizri Magomedovich ABAKAROV", registered in Cyrillic without the patronymic.
  {
    list: 'uk',
    entity_id: '14241',
    first_name: 'Хизри',
    last_name: 'Абакаров',
    dob: '1960-06-28',
    nat: 'RU',
  },
  // eu 13 "Saddam Hussein Al-Tikriti".
  {
    list: 'eu',
    entity_id: '13',
    first_name: 'Saddam',
    last_name: 'Hussein Al-Tikriti',
    dob: '1937-04-28',
    nat: 'IQ',
  },
] as const;

/** The publications in force in the excerpts directory (its MANIFEST.txt), newest of each list. */
const EXCERPT_VERSIONS = {
  ofac_sdn: { published_on: '2024-05-03', format: 'ofac_csv', files: ['ofac/sdn_csv_2024-05-03/sdn.csv'] },
  ofac_consolidated: {
    published_on: '2026-01-08',
    format: 'ofac_xml',
    files: ['ofac/consolidated_xml_2026-01-24/CONSOLIDATED.XML'],
  },
  un: { published_on: '2026-02-27', format: 'un_xml', files: ['un/UN_consolidated.xml'] },
  uk: {
    published_on: '2025-04-10',
    format: 'uk_conlist_csv',
    files: ['uk/ConList_2025-04-10.derived-from-xlsx.csv.gz'],
  },
  eu: { published_on: '2016-02-11', format: 'eu_fsf_1_0', files: ['eu/EU_FSF_v1_0_2016-02-11_extract.xml'] },
};

/** As a screen stores them: each version with the digest of its content, which list changes are compared by. */
const STORED_VERSIONS = Object.fromEntries(
  Object.entries(EXCERPT_VERSIONS).map(([list, version]) => [
    list,
    { ...version, digest: expect.stringMatching(/^[0-9a-f]{32}$/) },
  ]),
);

// A live tenant cut over for sanctions, screened by the production matcher over the list excerpts (one build).
describe('production sanctions screening over the list excerpts', () => {
  const suite = useSuite(async (own) => {
    const d = own(
      await SanctionsDriver.start({ config: { sanctionsDataDir: EXCERPTS_DIR }, environment: 'live' }),
    );
    await d.cutOver();
    return { t: d.t, receiver: d.receiver, live: d.tenant };
  });
  const tenantFacing: string[] = [];
  let n = 0;

  const screen = async (person: { first_name: string; last_name: string; dob: string; nat: string }) => {
    const { t, live } = suite.current;
    const body = {
      user_id: `player-${++n}`,
      first_name: person.first_name,
      last_name: person.last_name,
      date_of_birth: person.dob,
      nationality: person.nat,
      email: `player-${n}@example.com`,
    };
    const response = await t.api(live.apiKey, 'POST', '/v1/sanctions/screen', body);
    tenantFacing.push(response.body);
    return { body, response };
  };

  it.each(LISTED)('a listed person from $list is held for review', async (person) => {
    const { t, receiver, live } = suite.current;
    const { body, response } = await screen(person);
    expect(response.statusCode).toBe(201);
    const hit = response.json();
    expect(hit).toEqual({
      screen_id: expect.stringMatching(/^scr_/),
      user_id: body.user_id,
      status: 'hit_review_pending',
      checked_at: t.platform.clock.now().toISOString(),
      transactions_held: true,
      match_count: expect.any(Number),
      highest_match_score: expect.any(Number),
      case_id: expect.stringMatching(/^case_/),
      signup_allowed: true,
      estimated_review_time: '48 hours',
    });
    expect(hit.highest_match_score).toBeGreaterThanOrEqual(0.85);

    await t.deliverWebhooks();
    const events = receiver
      .verified(live.signingSecret)
      .filter((e) => e.event === 'sanctions.hit' && e.data.user_id === body.user_id);
    expect(events.map((e) => e.data)).toEqual([
      {
        screen_id: hit.screen_id,
        case_id: hit.case_id,
        user_id: body.user_id,
        status: 'hit_review_pending',
        match_count: hit.match_count,
        highest_match_score: hit.highest_match_score,
        transactions_held: true,
        signup_allowed: true,
      },
    ]);

    // The back office shows the matched entity, its list and score, and why it matched.
    const staff = await t.backoffice('GET', `/sanctions/cases/${hit.case_id}`);
    expect(staff.statusCode).toBe(200);
    const match = staff.json().matches.find((m: { list: string }) => m.list === person.list);
    expect(match).toMatchObject({
      list: person.list,
      entity_id: person.entity_id,
      name: expect.any(String),
      score: expect.any(Number),
      primary_name: expect.any(String),
      entity_type: 'person',
      programmes: expect.any(Array),
      matched_name_quality: expect.stringMatching(/^(primary|strong)$/),
      name_score: expect.any(Number),
      date_of_birth: expect.stringMatching(/^(exact|same_year)$/),
      list_published_on: EXCERPT_VERSIONS[person.list].published_on,
    });
    expect(match.score).toBeGreaterThanOrEqual(0.85);
    expect(staff.json().list_versions).toEqual(EXCERPT_VERSIONS);

    // What the screening ran against is stored with it, for an auditor to replay.
    const stored = await t.db
      .selectFrom('sanctions_screens')
      .select(['list_versions', 'vendor'])
      .where('screen_id', '=', hit.screen_id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ list_versions: STORED_VERSIONS, vendor: 'production' });

    const status = await t.api(live.apiKey, 'GET', `/v1/sanctions/status?user_id=${body.user_id}`);
    tenantFacing.push(status.body);
    expect(status.json()).toEqual(hit);
  });

  it('a made-up ordinary name is clear, and its screening names the list versions too', async () => {
    const { t } = suite.current;
    const { response } = await screen({
      first_name: 'Margaret',
      last_name: 'Thornbury',
      dob: '1988-07-19',
      nat: 'GB',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ status: 'clear', transactions_held: false });
    const stored = await t.db
      .selectFrom('sanctions_screens')
      .select('list_versions')
      .where('screen_id', '=', response.json().screen_id)
      .executeTakeFirstOrThrow();
    expect(stored.list_versions).toEqual(STORED_VERSIONS);
  });

  it('the case list shows the evidence to the staff', async () => {
    const { t, live } = suite.current;
    const cases = (await t.backoffice('GET', `/sanctions/cases?tenant_id=${live.tenantId}`)).json().cases;
    expect(cases).toHaveLength(LISTED.length);
    for (const staffCase of cases) {
      expect(staffCase.matches[0]).toHaveProperty('primary_name');
      expect(staffCase.matches[0]).toHaveProperty('name_score');
    }
  });

  it('tipping-off: no tenant response or webhook names a matched entity or its evidence', async () => {
    const { t, receiver, live } = suite.current;
    await t.deliverWebhooks();
    const bodies = [...tenantFacing, ...receiver.received.map((r) => r.body)];
    const forbidden = new Set<string>();
    const cases = (await t.backoffice('GET', `/sanctions/cases?tenant_id=${live.tenantId}`)).json().cases;
    for (const staffCase of cases) {
      for (const match of staffCase.matches) {
        forbidden.add(match.name).add(match.primary_name);
        // Short numeric ids could occur by chance inside random ids; the names cover those entities.
        if (match.entity_id.length >= 6) forbidden.add(match.entity_id);
      }
    }
    expect(forbidden.size).toBeGreaterThan(10);
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) {
      const lower = body.toLowerCase();
      for (const text of forbidden) expect(lower, `tenant saw "${text}"`).not.toContain(text.toLowerCase());
      for (const key of ['"matches"', '"primary_name"', '"programmes"', '"list_versions"', '"name_score"'])
        expect(body).not.toContain(key);
    }
  });

  it('the lists view reports each list in force, its counts and staleness, and the files not in force', async () => {
    const { t } = suite.current;
    const response = await t.backoffice('GET', '/sanctions/lists');
    expect(response.statusCode).toBe(200);
    const view = response.json();
    expect(view).toMatchObject({ available: true, max_age_days: 7, hit_threshold: 0.85, failures: [] });
    // Each list's entity count in the words its excerpt's MANIFEST.txt block states it.
    const counted = {
      eu: /entries: ([\d,]+) entities/,
      ofac_consolidated: /Record_Count ([\d,]+)/,
      ofac_sdn: /entries: ([\d,]+)/,
      uk: /covering ([\d,]+) designations/,
      un: /= ([\d,]+)/,
    };
    expect(view.lists.map((l: { list: string }) => l.list)).toEqual(Object.keys(counted));
    for (const list of view.lists) {
      const key = list.list as keyof typeof counted;
      const [file] = EXCERPT_VERSIONS[key].files as [string]; // every list in force here is a single file
      const block = excerptManifestBlock(file);
      expect(list).toMatchObject({
        ...EXCERPT_VERSIONS[key],
        entities: manifestCount(block, counted[key]),
        stale: true,
        last_failure: null,
      });
      expect(list.names).toBeGreaterThanOrEqual(list.entities);
      expect(list.warnings[0]).toContain(`Published ${list.published_on}`);
    }
    expect(
      view.superseded.map((s: { list: string; published_on: string }) => [s.list, s.published_on]),
    ).toEqual(
      expect.arrayContaining([
        ['ofac_sdn', '2021-07-07'],
        ['uk', '2016-02-12'],
      ]),
    );
    expect(view.skipped.map((s: { file: string }) => s.file)).toEqual(['MANIFEST.txt']);
  });
});
