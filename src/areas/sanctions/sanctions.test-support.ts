import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { Own } from '../../../test/helpers/suite.js';
import { temporaryDirectory } from '../../../test/helpers/temporary-directory.js';
import { TenantDriver } from '../../../test/helpers/tenant-driver.js';
import type { TestService } from '../../../test/helpers/test-service.js';
import { utcDay } from '../../platform/utc-calendar.js';
import { EXCERPTS_DIR } from './lists/shipped-data.js';
import type { SanctionsMatcher } from './sanctions.matcher.js';
import { FOUR_EYES_DECISIONS, type Decision } from './sanctions.rules.js';

export type Person = Record<string, string | undefined>;

/** Drives the sanctions API as one tenant would, plus the staff's back office and the webhooks that arrive. */
export class SanctionsDriver extends TenantDriver {
  private n = 0;

  /** Cuts this tenant over to the production matcher for sanctions, as its staff would for a live tenant. */
  async cutOver(): Promise<void> {
    const response = await this.t.backoffice('PUT', `/tenants/${this.tenant.tenantId}/cutover`, {
      areas: ['sanctions'],
    });
    if (response.statusCode !== 200) throw new Error(`cut-over failed: ${response.body}`);
  }

  person(overrides: Person = {}): Person {
    return {
      user_id: `user-${++this.n}-${Math.random().toString(36).slice(2, 8)}`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      date_of_birth: '1990-12-10',
      nationality: 'GB',
      email: 'ada@example.com',
      ...overrides,
    };
  }

  screen(body: object, apiKey = this.tenant.apiKey): Promise<LightMyRequestResponse> {
    return this.t.api(apiKey, 'POST', '/v1/sanctions/screen', body);
  }

  status(userId: string | undefined, apiKey = this.tenant.apiKey): Promise<LightMyRequestResponse> {
    const query = userId === undefined ? '' : `?user_id=${encodeURIComponent(userId)}`;
    return this.t.api(apiKey, 'GET', `/v1/sanctions/status${query}`);
  }

  /** A decision by the service's reviewer, signed in (a case is decided by a person, never the token). */
  decide(
    caseId: string,
    decision: string,
    reason = 'date of birth and nationality differ from the listed entity',
  ): Promise<LightMyRequestResponse> {
    return this.t.asStaff('reviewer', 'POST', `/sanctions/cases/${caseId}/decision`, { decision, reason });
  }

  /** A supervisor, signed in, approves the case's pending proposal. */
  approve(caseId: string): Promise<LightMyRequestResponse> {
    return this.t.asStaff('supervisor', 'POST', `/sanctions/cases/${caseId}/proposal/approve`);
  }

  reject(caseId: string, reason = 'the match needs another look'): Promise<LightMyRequestResponse> {
    return this.t.asStaff('supervisor', 'POST', `/sanctions/cases/${caseId}/proposal/reject`, { reason });
  }

  /**
   * A decision that takes effect now: a four-eyes one (confirmed) is proposed by the reviewer, then approved by a
   * supervisor. Returns the response that made the decision, or the one that refused it.
   */
  async decideAndApprove(caseId: string, decision: string, reason?: string): Promise<LightMyRequestResponse> {
    const response = await this.decide(caseId, decision, reason);
    if (response.statusCode !== 200 || !FOUR_EYES_DECISIONS.includes(decision as Decision)) return response;
    return this.approve(caseId);
  }
}

/**
 * Stands in for a new list publication on one service: its sandbox matcher also finds `entity` for users with this
 * last name. Re-screening is only interesting when the lists change, which the deterministic stub never does.
 */
export async function withListEntry<T>(
  t: TestService,
  lastName: string,
  entity: { entity_id: string; name: string; score: number },
  run: () => Promise<T>,
): Promise<T> {
  const matchers = t.platform.vendors.sanctions;
  const stub = matchers.sandbox;
  const published: SanctionsMatcher = {
    kind: 'sandbox',
    async screen(subject) {
      const result = await stub.screen(subject);
      if (subject.last_name !== lastName) return result;
      const matches = [...result.matches, { list: 'SANDBOX', ...entity }];
      return {
        matches,
        list_versions: { SANDBOX: { published_on: 'sandbox-2', format: 'sandbox', files: [] } },
      };
    },
  };
  matchers.sandbox = published;
  try {
    return await run();
  } finally {
    matchers.sandbox = stub;
  }
}

// ---- new versions of the UN list, published into a lists directory of the test's own ----

/** The UN list's file in a lists directory, and the shipped excerpt tests start from. */
const UN = 'un/UN_consolidated.xml';
const EXCERPT = fs.readFileSync(path.join(EXCERPTS_DIR, UN), 'utf8');

/** The excerpt's record of one UN reference number (a whole <INDIVIDUAL> element). */
const record = (xml: string, reference: string) => {
  const at = xml.indexOf(`<REFERENCE_NUMBER>${reference}</REFERENCE_NUMBER>`);
  const start = xml.lastIndexOf('<INDIVIDUAL>', at);
  return xml.slice(start, xml.indexOf('</INDIVIDUAL>', at) + '</INDIVIDUAL>'.length);
};

/** A new designation, written as the UN writes one: the excerpt's CDi.001 record with another person in it. */
export const designation = (
  reference: string,
  first: string,
  second: string,
  born: string,
  nationality: string,
) =>
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
export const withAlias = (xml: string, reference: string, alias: string) => {
  const before = record(xml, reference);
  const after = before.replace(
    '<INDIVIDUAL_ADDRESS>',
    `<INDIVIDUAL_ALIAS><QUALITY>Good</QUALITY><ALIAS_NAME>${alias}</ALIAS_NAME></INDIVIDUAL_ALIAS>\n      <INDIVIDUAL_ADDRESS>`,
  );
  return xml.replace(before, after);
};

export const withDateOfBirth = (xml: string, reference: string, born: string) => {
  const before = record(xml, reference);
  return xml.replace(
    before,
    before.replace(
      '</INDIVIDUAL_DATE_OF_BIRTH>',
      `</INDIVIDUAL_DATE_OF_BIRTH>\n      <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>EXACT</TYPE_OF_DATE><DATE>${born}</DATE></INDIVIDUAL_DATE_OF_BIRTH>`,
    ),
  );
};

export const designated = (xml: string, ...records: string[]) =>
  xml.replace('<INDIVIDUALS>', `<INDIVIDUALS>\n    ${records.join('\n    ')}`);
export const delisted = (xml: string, reference: string) => xml.replace(record(xml, reference), '');

/** A list version as the back office answers it, what the tests read of it. */
export interface ListVersionSeen {
  version_id: string;
  list: string;
  added: number;
  changed: number;
  removed: number;
  screening: { total: number; screened: number; new_hits: number; finished_at: string | null } | null;
}

/** Lists directories of their own, a UN list the tests rewrite as the UN publishes new versions. */
export class ListsDirectory {
  readonly path: string;
  xml = EXCERPT;

  constructor(own: Own) {
    this.path = own(temporaryDirectory('sanctions-changes-')).path;
    this.write(EXCERPT);
  }

  /** Publishes a new UN version today: written under a temporary name and renamed into place, as the docs ask. */
  publish(t: TestService, xml: string): void {
    const today = utcDay(t.platform.clock.now());
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

/**
 * A test service reading the lists from `dir` (screening a list change two players a batch): the driver of a live
 * tenant of it, cut over for sanctions.
 */
export async function startLive(own: Own, dir: string): Promise<SanctionsDriver> {
  const live = own(
    await SanctionsDriver.start({
      config: { sanctionsDataDir: dir, sanctionsListScreenBatchSize: 2 },
      environment: 'live',
    }),
  );
  await live.cutOver();
  return live;
}

/** Reloads the lists now (as every process does within a minute of a changed file) and answers the new version. */
export async function reloadLists(t: TestService): Promise<ListVersionSeen> {
  const reloaded = await t.backoffice('POST', '/sanctions/lists/reload');
  if (reloaded.statusCode !== 200) throw new Error(`reload failed: ${reloaded.statusCode} ${reloaded.body}`);
  return (await t.backoffice('GET', '/sanctions/lists/versions?list=un&limit=1')).json().versions[0];
}

/** Moves the service clock a second at a time until the version's screening ended (each step runs one batch). */
export async function screenedAgainst(t: TestService, versionId: string): Promise<ListVersionSeen> {
  for (let step = 0; step < 30; step++) {
    const version = (await t.backoffice('GET', `/sanctions/lists/versions/${versionId}`)).json();
    if (!version.screening || version.screening.finished_at) return version;
    await t.advance(1);
  }
  throw new Error(`the screening of ${versionId} did not end`);
}
