import { describe, expect, it } from 'vitest';
import {
  delisted,
  designated,
  designation,
  ListsDirectory,
  reloadLists,
  screenedAgainst,
  startLive,
  withDateOfBirth,
} from '../../src/areas/sanctions/sanctions.test-support.js';
import type { TestService } from '../helpers/test-service.js';
import { postForm, staffOf } from '../helpers/staff-driver.js';
import { useSuite } from '../helpers/suite.js';

/**
 * What staff see of the sanctions lists' changes: the case a list version raised, the delisting of a matched entity,
 * the earlier dismissal of the same entity, the player's remembered dismissals and their withdrawal, and the lists.
 */
describe('console: list changes, remembered dismissals and the sanctions lists', () => {
  const suite = useSuite(async (own) => {
    const dir = new ListsDirectory(own);
    const d = await startLive(own, dir.path);
    return { t: d.t, live: d.tenant, dir };
  });

  const view = async (t: TestService, role: 'reviewer' | 'auditor', url: string, status = 200) => {
    const session = await staffOf(t, role);
    const response = await t.inject({
      method: 'GET',
      url,
      headers: { cookie: `console_session=${session.cookie}` },
    });
    expect(response.statusCode, response.body).toBe(status);
    return response.body;
  };

  /** The page's text as staff read it: tags dropped, white space collapsed. */
  const text = (page: string) =>
    page
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .replace(/ ([,.:;)])/g, '$1')
      .replace(/\( /g, '(');

  const screen = async (userId: string, first: string, last: string, born: string, nationality: string) => {
    const { t, live } = suite.current;
    const response = await t.api(live.apiKey, 'POST', '/v1/sanctions/screen', {
      user_id: userId,
      first_name: first,
      last_name: last,
      date_of_birth: born,
      nationality,
      email: `${userId}@example.com`,
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ status: string; case_id: string | null; highest_match_score: number }>();
  };

  /** A reviewer clears the hit in the console: its matches are remembered as dismissed for the player. */
  const clear = async (caseId: string) => {
    const { t } = suite.current;
    const cleared = await postForm(t, await staffOf(t, 'reviewer'), `/console/sanctions/${caseId}/decision`, {
      decision: 'cleared',
      reason: 'a different person: born months apart',
    });
    expect(cleared.statusCode).toBe(303);
  };

  const caseOf = async (userId: string) => {
    const { t, live } = suite.current;
    const status = await t.api(live.apiKey, 'GET', `/v1/sanctions/status?user_id=${userId}`);
    return status.json<{ case_id: string }>().case_id;
  };

  const today = () => suite.current.t.platform.clock.now().toISOString().slice(0, 10);
  let screenedVersion: { version_id: string; published_on: string };

  it('a list_update case says which version raised it, each entity added or changed, and the earlier dismissal', async () => {
    const { t, dir } = suite.current;
    await reloadLists(t);
    // STRATON MUSONI (CDi.017) is born 1961-04-06: a player born in September is a hit a reviewer clears.
    const signup = await screen('straton', 'Straton', 'Musoni', '1961-09-01', 'RW');
    expect(signup.status).toBe('hit_review_pending');
    await clear(signup.case_id!);
    await screen('nadia', 'Nadia', 'Kowalczyk', '1985-03-14', 'PL');

    // One UN version designates Nadia and gives CDi.017 the player's exact date of birth.
    dir.publish(
      t,
      designated(
        withDateOfBirth(dir.xml, 'CDi.017', '1961-09-01'),
        designation('CDi.901', 'NADIA', 'KOWALCZYK', '1985-03-14', 'Poland'),
      ),
    );
    const version = await reloadLists(t);
    screenedVersion = { version_id: version.version_id, published_on: today() };
    expect(await screenedAgainst(t, version.version_id)).toMatchObject({ screening: { new_hits: 2 } });

    const raised = await view(t, 'reviewer', `/console/sanctions/${await caseOf('straton')}`);
    const seen = text(raised);
    expect(seen).toContain('(list update)');
    expect(seen).toContain(`Raised by a list change List UN Version UN list version of ${today()} Accepted`);
    expect(raised).toContain(`href="/console/sanctions/lists/versions/${version.version_id}"`);
    expect(seen).toContain('CDi.017: changed (its names, dates of birth or nationalities)');
    expect(seen).toMatch(
      new RegExp(
        `Dismissed before for this player [\\d-]+ [\\d:]+ UTC by Reviewer \\d+ in ${signup.case_id} Score then ${signup.highest_match_score.toFixed(2)}, now 1.00`,
      ),
    );
    expect(seen).not.toContain('Delisted');

    const added = text(await view(t, 'reviewer', `/console/sanctions/${await caseOf('nadia')}`));
    expect(added).toContain('CDi.901: added (a new designation)');
    expect(added).toContain(`List change added (a new designation) by the UN list version of ${today()}`);
    expect(added).not.toContain('Dismissed before for this player');
  });

  it('a matched entity a later version delists is flagged on the case, which stays undecided', async () => {
    const { t, dir } = suite.current;
    await t.advance(24 * 3600);
    dir.publish(t, delisted(dir.xml, 'CDi.901'));
    const version = await reloadLists(t);
    expect(version).toMatchObject({ removed: 1, screening: null });
    const page = await view(t, 'reviewer', `/console/sanctions/${await caseOf('nadia')}`);
    expect(text(page)).toMatch(
      new RegExp(
        `Delisted by the UN list version of ${today()} \\(accepted ${today()} [\\d:]+ UTC\\): the case is not cleared by it; decide.`,
      ),
    );
    expect(page).toContain(`href="/console/sanctions/lists/versions/${version.version_id}"`);
    expect(text(page)).toContain('hit review pending');
    expect(page).toContain('Submit decision');
  });

  it('the lists page shows each list in force, its last change and the recent versions; a version lists its entities', async () => {
    const { t } = suite.current;
    const page = await view(t, 'auditor', '/console/sanctions/lists');
    expect(page).toMatch(/<a href="\/console\/sanctions\/lists"\s+aria-current="page"/);
    const seen = text(page);
    expect(seen).toContain(
      `UN current Published on ${today()} (0 days ago) Fetched put in by hand Loaded ${today()}`,
    );
    // The last change is the delisting: nothing to screen.
    expect(seen).toContain(
      `Last change Version UN list version of ${today()} Changes 0 added · 0 changed · 1 removed Published ${today()} Fetched put in by hand Accepted ${today()}`,
    );
    expect(seen).toContain('Screening of players none needed (nothing added or changed) Recent versions');
    // Newest first: the delisting, the version that raised two hits, the baseline.
    const rows = [...page.matchAll(/<tr data-href="\/console\/sanctions\/lists\/versions\/([^"]+)">/g)];
    expect(rows).toHaveLength(3);
    expect(rows[1]![1]).toBe(screenedVersion.version_id);
    expect(seen).toMatch(
      new RegExp(
        `UN list version of ${screenedVersion.published_on} [\\d-]+ [\\d:]+ UTC 1 added · 1 changed · 0 removed finished [\\d-]+ [\\d:]+ UTC 2 new hits `,
      ),
    );
    expect(seen).toMatch(/UTC the baseline: \d+ entities none \(the baseline\)/);

    const detail = await view(
      t,
      'auditor',
      `/console/sanctions/lists/versions/${screenedVersion.version_id}`,
    );
    const detailSeen = text(detail);
    expect(detailSeen).toContain(`UN list of ${screenedVersion.published_on}`);
    expect(detailSeen).toMatch(
      /Screening of players finished [\d-]+ [\d:]+ UTC Started [\d-]+ [\d:]+ UTC Players screened 2 of 2 New hits 2 Accepted to last player \d+ s /,
    );
    expect(detailSeen).toContain('Added (1) CDi.901 Changed (1) CDi.017 Removed (delisted) (0) None.');
    expect(detail).toContain(`href="/console/sanctions/lists/versions/`);

    await view(t, 'auditor', '/console/sanctions/lists/versions/lv_unknown', 404);
  });

  it('the player page lists the remembered dismissals; a reviewer withdraws one, an auditor may not, twice is 409', async () => {
    const { t, live } = suite.current;
    const signup = await screen('musoni2', 'Straton', 'Musoni', '1961-04-06', 'RW');
    await clear(signup.case_id!);
    const player = `/console/players/${live.tenantId}/musoni2`;

    const forReviewer = await view(t, 'reviewer', player);
    expect(forReviewer).toContain('Remembered dismissals');
    expect(forReviewer).toMatch(/<span class="badge ok">in force<\/span>\s*UN CDi.017 · /);
    expect(forReviewer).toContain('Withdraw the dismissal');
    const dismissalId = /\/console\/sanctions\/dismissals\/([^/]+)\/withdraw/.exec(forReviewer)![1]!;
    const forAuditor = await view(t, 'auditor', player);
    expect(forAuditor).toContain('Remembered dismissals');
    expect(forAuditor).not.toContain('Withdraw the dismissal');

    const withdraw = async (role: 'reviewer' | 'auditor', reason: string) =>
      postForm(t, await staffOf(t, role), `/console/sanctions/dismissals/${dismissalId}/withdraw`, {
        reason,
      });
    expect((await withdraw('auditor', 'not mine to withdraw')).statusCode).toBe(403);
    const blank = await withdraw('reviewer', '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toContain('The form was not complete or not valid');

    const done = await withdraw('reviewer', 'the namesake judgement rested on a wrong date of birth');
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toMatch(new RegExp(`^${player}\\?notice=Dismissal\\+of\\+UN\\+CDi.017`));
    const after = await view(t, 'reviewer', `${player}?notice=withdrawn`);
    expect(after).toMatch(/<span class="badge">ended<\/span>\s*UN CDi.017/);
    expect(after).toMatch(
      /by Reviewer \d+: withdrawn: the namesake judgement rested on a wrong date of birth/,
    );
    expect(after).not.toContain('Withdraw the dismissal');

    const again = await withdraw('reviewer', 'twice');
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already ended');
  });
});
