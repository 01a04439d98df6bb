import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { temporaryDirectory } from '../../../test/helpers/temporary-directory.js';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import { EXCERPTS_DIR } from './lists/shipped-data.js';

const UN = 'un/UN_consolidated.xml';
const EXCERPT = fs.readFileSync(path.join(EXCERPTS_DIR, UN), 'utf8');

/** The excerpt's record of one UN reference number (a whole <INDIVIDUAL> element). */
const record = (xml: string, reference: string) => {
  const at = xml.indexOf(`<REFERENCE_NUMBER>${reference}</REFERENCE_NUMBER>`);
  const start = xml.lastIndexOf('<INDIVIDUAL>', at);
  return xml.slice(start, xml.indexOf('</INDIVIDUAL>', at) + '</INDIVIDUAL>'.length);
};

/** A new designation, written as the UN writes one: the excerpt's CDi.001 record with another person in it. */
const designation = (reference: string, first: string, second: string, born: string, nationality: string) =>
  record(EXCERPT, 'CDi.001')
    .replace(/<DATAID>\d+<\/DATAID>/, `<DATAID>99${reference.replace(/\D/g, '')}</DATAID>`)
    .replace(
      '<REFERENCE_NUMBER>CDi.001</REFERENCE_NUMBER>',
      `<REFERENCE_NUMBER>${reference}</REFERENCE_NUMBER>`,
    )
    .replace('<FIRST_NAME>ERIC</FIRST_NAME>', `<FIRST_NAME>${first}</FIRST_NAME>`)
    .replace('<SECOND_NAME>BADEGE</SECOND_NAME>', `<SECOND_NAME>${second}</SECOND_NAME>`)
    .replace('<YEAR>1971</YEAR>', `<DATE>${born}</DATE>`)
    .replace('Democratic Republic of the Congo', nationality);

/** A record with one more alias, as the UN adds a name it learns of. */
const withAlias = (xml: string, reference: string, alias: string) => {
  const before = record(xml, reference);
  const after = before.replace(
    '<INDIVIDUAL_ADDRESS>',
    `<INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>${alias}</ALIAS_NAME></INDIVIDUAL_ALIAS>\n      <INDIVIDUAL_ADDRESS>`,
  );
  return xml.replace(before, after);
};

const withDateOfBirth = (xml: string, reference: string, born: string) => {
  const before = record(xml, reference);
  return xml.replace(
    before,
    before.replace(
      '</INDIVIDUAL_DATE_OF_BIRTH>',
      `</INDIVIDUAL_DATE_OF_BIRTH>\n      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>${born}</DATE></INDIVIDUAL_DATE_OF_BIRTH>`,
    ),
  );
};

const designated = (xml: string, ...records: string[]) =>
  xml.replace('<INDIVIDUALS>', `<INDIVIDUALS>\n    ${records.join('\n    ')}`);
const delisted = (xml: string, reference: string) => xml.replace(record(xml, reference), '');

interface Version {
  version_id: string;
  list: string;
  added: number;
  changed: number;
  removed: number;
  screening: { total: number; screened: number; new_hits: number; finished_at: string | null } | null;
}

/** Lists directories of their own, a UN list the tests rewrite as the UN publishes new versions. */
class ListsDirectory {
  readonly path: string;
  xml = EXCERPT;

  constructor(own: <T extends { close(): unknown }>(value: T) => T) {
    this.path = own(temporaryDirectory('sanctions-changes-')).path;
    this.write(EXCERPT);
  }

  /** Publishes a new UN version today: written under a temporary name and renamed into place, as the docs ask. */
  publish(t: TestService, xml: string): void {
    const today = t.platform.clock.now().toISOString().slice(0, 10);
    this.xml = xml;
    this.write(xml.replace(/dateGenerated="[^"]+"/, `dateGenerated="${today}T00:00:00Z"`));
  }

  private write(xml: string): void {
    const target = path.join(this.path, UN);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(`${target}.tmp`, xml);
    fs.renameSync(`${target}.tmp`, target);
  }
}

async function startLive(own: <T extends { close(): unknown }>(value: T) => T, dir: string) {
  const t = own(await TestService.start({ sanctionsDataDir: dir, sanctionsListScreenBatchSize: 2 }));
  const receiver = own(await WebhookReceiver.start());
  const live = await t.createTenant({ environment: 'live', webhookUrl: receiver.url });
  await t.backoffice('PUT', `/tenants/${live.tenantId}/cutover`, { areas: ['sanctions'] });
  return { t, receiver, live };
}

const person = (userId: string, first: string, last: string, born: string, nationality: string) => ({
  user_id: userId,
  first_name: first,
  last_name: last,
  date_of_birth: born,
  nationality,
  email: `${userId}@example.com`,
});

async function screen(t: TestService, tenant: TestTenant, body: ReturnType<typeof person>) {
  const response = await t.api(tenant.apiKey, 'POST', '/v1/sanctions/screen', body);
  expect(response.statusCode).toBe(201);
  return response.json();
}

const status = async (t: TestService, tenant: TestTenant, userId: string) =>
  (await t.api(tenant.apiKey, 'GET', `/v1/sanctions/status?user_id=${userId}`)).json();

/** Reloads the lists now (as every process does within a minute of a changed file) and answers the new version. */
async function reload(t: TestService): Promise<Version> {
  expect((await t.backoffice('POST', '/sanctions/lists/reload')).statusCode).toBe(200);
  return (await t.backoffice('GET', '/sanctions/lists/versions?list=un&limit=1')).json().versions[0];
}

/** Moves the service clock a second at a time until the version's screening ended (each step runs one batch). */
async function screenedAgainst(t: TestService, versionId: string): Promise<Version> {
  for (let step = 0; step < 30; step++) {
    const version = (await t.backoffice('GET', `/sanctions/lists/versions/${versionId}`)).json();
    if (!version.screening || version.screening.finished_at) return version;
    await t.advance(1);
  }
  throw new Error(`the screening of ${versionId} did not end`);
}

describe('screening every player against what a new list version changed', () => {
  const suite = useSuite(async (own) => {
    const dir = new ListsDirectory(own);
    const { t, receiver, live } = await startLive(own, dir.path);
    const sandboxReceiver = own(await WebhookReceiver.start());
    const sandbox = await t.createTenant({ webhookUrl: sandboxReceiver.url });
    return { t, receiver, live, sandbox, sandboxReceiver, dir };
  });
  const hits = (userId: string) =>
    suite.current.receiver.of('sanctions.hit').filter((e) => e.data.user_id === userId);

  it('a new designation holds the player it names, with sanctions.hit and a list_update case; nobody else hears of it', async () => {
    const { t, live, sandbox, dir } = suite.current;
    // The first version the service sees is the baseline: nothing to compare, nobody screened again.
    expect((await reload(t)).screening).toBeNull();
    await screen(t, live, person('nadia', 'Nadia', 'Kowalczyk', '1985-03-14', 'PL'));
    await screen(t, live, person('tomasz', 'Tomasz', 'Brzezinski', '1971-06-15', 'PL'));
    for (const id of ['ada', 'alan', 'grace'])
      await screen(t, live, person(id, 'Ada', `Other${id}`, '1990-01-01', 'GB'));
    // A sandbox tenant's players are screened by the documented stub and never by the lists.
    await screen(t, sandbox, person('nadia', 'Nadia', 'Kowalczyk', '1985-03-14', 'PL'));
    await t.advance(60);

    dir.publish(t, designated(dir.xml, designation('CDi.901', 'NADIA', 'KOWALCZYK', '1985-03-14', 'Poland')));
    const version = await reload(t);
    expect(version).toMatchObject({ list: 'un', added: 1, changed: 0, removed: 0 });
    const done = await screenedAgainst(t, version.version_id);
    expect(done).toMatchObject({
      entity_ids: { added: ['CDi.901'], changed: [], removed: [] },
      screening: { total: 5, screened: 5, new_hits: 1, finished_at: expect.any(String) },
    });

    const held = await status(t, live, 'nadia');
    expect(held).toMatchObject({ status: 'hit_review_pending', transactions_held: true, match_count: 1 });
    await t.deliverWebhooks();
    expect(hits('nadia')).toHaveLength(1);
    expect(hits('nadia')[0]!.data).toEqual({
      screen_id: held.screen_id,
      case_id: held.case_id,
      user_id: 'nadia',
      status: 'hit_review_pending',
      match_count: 1,
      highest_match_score: held.highest_match_score,
      transactions_held: true,
      signup_allowed: true,
    });
    // Tipping-off: nothing the tenant sees names the list or the entity.
    expect(JSON.stringify([held, hits('nadia')])).not.toMatch(/CDi\.901|KOWALCZYK|"un"/);
    const found = (await t.backoffice('GET', `/sanctions/cases/${held.case_id}`)).json();
    expect(found).toMatchObject({
      trigger: 'list_update',
      list_change: {
        version_id: version.version_id,
        list: 'un',
        entities: [{ entity_id: 'CDi.901', change: 'added' }],
      },
      matches: [expect.objectContaining({ list: 'un', entity_id: 'CDi.901' })],
      delisted: [],
      earlier_dismissals: [],
    });
    for (const id of ['tomasz', 'ada', 'alan', 'grace']) {
      expect(await status(t, live, id)).toMatchObject({ status: 'clear', transactions_held: false });
      expect(hits(id)).toEqual([]);
    }
    expect(await status(t, sandbox, 'nadia')).toMatchObject({ status: 'clear' });
    expect(suite.current.sandboxReceiver.received).toEqual([]);

    // The lists view says when the change was published, fetched (by hand: never) and fully screened.
    const lists = (await t.backoffice('GET', '/sanctions/lists')).json();
    expect(lists.lists.find((l: { list: string }) => l.list === 'un').last_change).toMatchObject({
      version_id: version.version_id,
      published_on: t.platform.clock.now().toISOString().slice(0, 10),
      fetched_at: null,
      added: 1,
      screening: { finished_at: done.screening!.finished_at, seconds_to_last_player: expect.any(Number) },
    });
  });

  it('an alias added to an existing entity catches the player it names', async () => {
    const { t, live, dir } = suite.current;
    dir.publish(t, withAlias(dir.xml, 'CDi.001', 'Tomasz BRZEZINSKI'));
    const version = await reload(t);
    expect(version).toMatchObject({ added: 0, changed: 1, removed: 0 });
    expect(await screenedAgainst(t, version.version_id)).toMatchObject({
      entity_ids: { changed: ['CDi.001'] },
      screening: { total: 4, screened: 4, new_hits: 1 },
    });
    const held = await status(t, live, 'tomasz');
    expect(held).toMatchObject({ status: 'hit_review_pending', transactions_held: true });
    await t.deliverWebhooks();
    expect(hits('tomasz')).toHaveLength(1);
    const found = (await t.backoffice('GET', `/sanctions/cases/${held.case_id}`)).json();
    expect(found.list_change.entities).toEqual([{ entity_id: 'CDi.001', change: 'changed' }]);
    for (const id of ['ada', 'alan', 'grace']) expect((await status(t, live, id)).status).toBe('clear');
  });

  it('a dismissed match stays dismissed while the entity is unchanged, and is raised again when its content changes and the score rises', async () => {
    const { t, live, dir } = suite.current;
    // STRATON MUSONI (CDi.017), born 1961-04-06: a player born a few months later is a hit below a full score.
    const signup = await screen(t, live, person('straton', 'Straton', 'Musoni', '1961-09-01', 'RW'));
    expect(signup.status).toBe('hit_review_pending');
    const dismissedScore = signup.highest_match_score;
    expect(dismissedScore).toBeLessThan(1);
    const decided = await t.asStaff('reviewer', 'POST', `/sanctions/cases/${signup.case_id}/decision`, {
      decision: 'cleared',
      reason: 'a different man: born in September, not in April',
    });
    expect(decided.statusCode).toBe(200);
    const dismissals = (
      await t.backoffice('GET', `/sanctions/tenants/${live.tenantId}/users/straton/dismissals`)
    ).json().dismissals;
    expect(dismissals).toEqual([
      expect.objectContaining({
        case_id: signup.case_id,
        list: 'un',
        entity_id: 'CDi.017',
        score: dismissedScore,
        content_remembered: true,
        in_force: true,
      }),
    ]);

    // Content changes that do not raise the score: a new alias far from the player's name.
    dir.publish(t, withAlias(dir.xml, 'CDi.017', 'Ignace MUREKEZI'));
    const unchanged = await reload(t);
    expect(await screenedAgainst(t, unchanged.version_id)).toMatchObject({
      entity_ids: { changed: ['CDi.017'] },
      screening: { new_hits: 0 },
    });
    expect(await status(t, live, 'straton')).toMatchObject({ status: 'cleared', transactions_held: false });
    // The staff's re-screen of the player and the quarterly run read the same memory.
    const rescreened = await t.asStaff(
      'reviewer',
      'POST',
      `/sanctions/tenants/${live.tenantId}/users/straton/rescreen`,
      {
        reason: 'after the list update',
      },
    );
    expect(rescreened.json()).toMatchObject({ status: 'cleared' });

    // The UN adds the player's exact date of birth to the entity: the match now scores higher than when dismissed.
    dir.publish(t, withDateOfBirth(dir.xml, 'CDi.017', '1961-09-01'));
    const raised = await reload(t);
    expect(await screenedAgainst(t, raised.version_id)).toMatchObject({ screening: { new_hits: 1 } });
    const held = await status(t, live, 'straton');
    expect(held).toMatchObject({ status: 'hit_review_pending', transactions_held: true });
    expect(held.highest_match_score).toBeGreaterThan(dismissedScore);
    await t.deliverWebhooks();
    expect(hits('straton')).toHaveLength(2);
    const found = (await t.backoffice('GET', `/sanctions/cases/${held.case_id}`)).json();
    expect(found.earlier_dismissals).toEqual([
      expect.objectContaining({ case_id: signup.case_id, entity_id: 'CDi.017', score: dismissedScore }),
    ]);
  });

  it('a withdrawn dismissal is considered again at the next screening (audited)', async () => {
    const { t, live } = suite.current;
    const signup = await screen(t, live, person('musoni2', 'Straton', 'Musoni', '1961-04-06', 'RW'));
    await t.asStaff('reviewer', 'POST', `/sanctions/cases/${signup.case_id}/decision`, {
      decision: 'cleared',
      reason: 'the reviewer judged it a namesake',
    });
    const [dismissal] = (
      await t.backoffice('GET', `/sanctions/tenants/${live.tenantId}/users/musoni2/dismissals`)
    ).json().dismissals;
    const asToken = await t.backoffice('POST', `/sanctions/dismissals/${dismissal.dismissal_id}/withdraw`, {
      reason: 'second look',
    });
    expect(asToken.statusCode).toBe(403);
    const withdrawn = await t.asStaff(
      'supervisor',
      'POST',
      `/sanctions/dismissals/${dismissal.dismissal_id}/withdraw`,
      {
        reason: 'the namesake judgement rested on a wrong date of birth',
      },
    );
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({
      in_force: false,
      end_reason: 'withdrawn: the namesake judgement rested on a wrong date of birth',
    });
    const again = await t.asStaff(
      'supervisor',
      'POST',
      `/sanctions/dismissals/${dismissal.dismissal_id}/withdraw`,
      {
        reason: 'twice',
      },
    );
    expect(again.statusCode).toBe(409);
    const audit = (await t.backoffice('GET', `/tenants/${live.tenantId}/audit-log`)).json();
    expect(JSON.stringify(audit)).toContain('sanctions.dismissal_withdrawn');
    const rescreened = await t.asStaff(
      'reviewer',
      'POST',
      `/sanctions/tenants/${live.tenantId}/users/musoni2/rescreen`,
      {
        reason: 'dismissal withdrawn',
      },
    );
    expect(rescreened.json()).toMatchObject({ status: 'hit_review_pending', transactions_held: true });
  });

  it('a delisting opens nothing and clears nothing: the case shows the entity was delisted', async () => {
    const { t, live, dir } = suite.current;
    const before = await status(t, live, 'tomasz');
    dir.publish(t, delisted(dir.xml, 'CDi.001'));
    const version = await reload(t);
    expect(version).toMatchObject({ added: 0, changed: 0, removed: 1, screening: null });
    await t.deliverWebhooks();
    const sent = suite.current.receiver.received.length;
    await t.advance(60);
    await t.deliverWebhooks();
    expect(suite.current.receiver.received.length).toBe(sent);
    expect(await status(t, live, 'tomasz')).toEqual(before);
    const found = (await t.backoffice('GET', `/sanctions/cases/${before.case_id}`)).json();
    expect(found.status).toBe('hit_review_pending');
    expect(found.delisted).toEqual([
      expect.objectContaining({ list: 'un', entity_id: 'CDi.001', version_id: version.version_id }),
    ]);
  });
});

describe('a list change screening interrupted by a restart', () => {
  it('resumes from its stored cursor and screens every player exactly once', async () => {
    const closing: { close(): unknown }[] = [];
    const own = <T extends { close(): unknown }>(value: T) => (closing.push(value), value);
    try {
      const dir = new ListsDirectory(own);
      const { t: first, live } = await startLive(own, dir.path);
      await reload(first);
      const ids = ['p1', 'p2', 'p3', 'p4', 'p5'];
      for (const id of ids) await screen(first, live, person(id, 'Ada', `Player${id}`, '1990-01-01', 'GB'));
      await screen(first, live, person('listed', 'Halina', 'Wisniewska', '1970-02-02', 'PL'));
      dir.publish(
        first,
        designated(dir.xml, designation('CDi.902', 'HALINA', 'WISNIEWSKA', '1970-02-02', 'Poland')),
      );
      const version = await reload(first);
      await first.advance(1);
      const halfway = (
        await first.backoffice('GET', `/sanctions/lists/versions/${version.version_id}`)
      ).json();
      expect(halfway.screening).toMatchObject({ total: 6, finished_at: null });
      expect(halfway.screening.screened).toBeLessThan(6);
      const kept = await first.stop();

      const second = own(
        await TestService.start({ sanctionsDataDir: dir.path, sanctionsListScreenBatchSize: 2 }, kept),
      );
      const done = await screenedAgainst(second, version.version_id);
      expect(done.screening).toMatchObject({ total: 6, screened: 6, new_hits: 1 });
      expect((await status(second, live, 'listed')).status).toBe('hit_review_pending');
      const cases = await second.db.selectFrom('sanctions_cases').select('user_id').execute();
      expect(cases).toEqual([{ user_id: 'listed' }]);
    } finally {
      for (const c of closing.reverse()) await c.close();
    }
  });
});
