// The restart test starts a second service on the first one's database (TestService.start on what stop() kept).
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TestService, type TestTenant } from '../../../test/helpers/test-service.js';
import {
  delisted,
  designated,
  designation,
  ListsDirectory,
  reloadLists,
  screenedAgainst,
  startLive,
  withAlias,
  withDateOfBirth,
} from './sanctions.test-support.js';

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

describe('screening every player against what a new list version changed', () => {
  const suite = useSuite(async (own) => {
    const dir = new ListsDirectory(own);
    const d = await startLive(own, dir.path);
    const { tenant: sandbox, receiver: sandboxReceiver } = await d.otherTenant();
    return { t: d.t, receiver: d.receiver, live: d.tenant, sandbox, sandboxReceiver, dir };
  });
  const hits = (userId: string) =>
    suite.current.receiver.of('sanctions.hit').filter((e) => e.data.user_id === userId);

  it('a new designation holds the player it names, with sanctions.hit and a list_update case; nobody else hears of it', async () => {
    const { t, live, sandbox, dir } = suite.current;
    // The first version the service sees is the baseline: nothing to compare, nobody screened again.
    expect((await reloadLists(t)).screening).toBeNull();
    await screen(t, live, person('nadia', 'Nadia', 'Kowalczyk', '1985-03-14', 'PL'));
    await screen(t, live, person('tomasz', 'Tomasz', 'Brzezinski', '1971-06-15', 'PL'));
    for (const id of ['ada', 'alan', 'grace'])
      await screen(t, live, person(id, 'Ada', `Other${id}`, '1990-01-01', 'GB'));
    // A sandbox tenant's players are screened by the documented stub and never by the lists.
    await screen(t, sandbox, person('nadia', 'Nadia', 'Kowalczyk', '1985-03-14', 'PL'));
    await t.advance(60);

    dir.publish(t, designated(dir.xml, designation('CDi.901', 'NADIA', 'KOWALCZYK', '1985-03-14', 'Poland')));
    const version = await reloadLists(t);
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
    const version = await reloadLists(t);
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
    const unchanged = await reloadLists(t);
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
    const raised = await reloadLists(t);
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
    const version = await reloadLists(t);
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
  // What the test starts, the suite closes after it: the stopped service's database outlives the first service.
  const suite = useSuite(async () => ({}));

  it('resumes from its stored cursor and screens every player exactly once', async () => {
    const { own } = suite;
    const dir = new ListsDirectory(own);
    const { t: first, tenant: live } = await startLive(own, dir.path);
    await reloadLists(first);
    const ids = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const id of ids) await screen(first, live, person(id, 'Ada', `Player${id}`, '1990-01-01', 'GB'));
    await screen(first, live, person('listed', 'Halina', 'Wisniewska', '1970-02-02', 'PL'));
    dir.publish(
      first,
      designated(dir.xml, designation('CDi.902', 'HALINA', 'WISNIEWSKA', '1970-02-02', 'Poland')),
    );
    const version = await reloadLists(first);
    await first.advance(1);
    const halfway = (await first.backoffice('GET', `/sanctions/lists/versions/${version.version_id}`)).json();
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
  });
});
