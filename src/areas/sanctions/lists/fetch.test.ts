import { loadConfig } from '../../../config.js';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../../test/helpers/suite.js';
import { FileServer } from '../../../../test/helpers/file-server.js';
import { temporaryDirectory } from '../../../../test/helpers/temporary-directory.js';
import { HOUR } from '../../../../test/helpers/units.js';
import { SanctionsDriver } from '../sanctions.test-support.js';

const excerpt = (file: string) =>
  fs.readFileSync(new URL(`./fixtures/excerpts/${file}`, import.meta.url), 'utf8');
const UN = excerpt('un/UN_consolidated.xml');
const EU = excerpt('eu/EU_FSF_v1_0_2016-02-11_extract.xml');
// Counted here from the files themselves, not by the parser under test.
const UN_ENTITIES = UN.match(/<INDIVIDUAL>|<ENTITY>/g)!.length;
const EU_ENTITIES = EU.match(/<ENTITY /g)!.length;
const unDated = (day: string) => UN.replace(/dateGenerated="[^"]+"/, `dateGenerated="${day}T00:00:00Z"`);
/** The UN list cut down to its first person: a publisher's export gone wrong. */
const unCollapsed = (day: string) =>
  unDated(day)
    .replace(/<\/INDIVIDUAL>[\s\S]*<\/INDIVIDUALS>/, '</INDIVIDUAL></INDIVIDUALS>')
    .replace(/<ENTITIES>[\s\S]*<\/ENTITIES>/, '<ENTITIES/>');

const MUSONI = {
  first_name: 'Straton',
  last_name: 'Musoni',
  date_of_birth: '1961-04-06',
  nationality: 'RW',
  email: 'p@example.com',
};

// The service downloads two lists from a publisher's server on 127.0.0.1 into a directory of its own.
describe('downloading the sanctions lists', () => {
  const suite = useSuite(async (own) => {
    const files = own(await FileServer.start());
    const dir = own(temporaryDirectory('sanctions-fetch-')).path;
    const d = own(
      await SanctionsDriver.start({
        config: {
          sanctionsDataDir: dir,
          sanctionsFetch: true,
          sanctionsSources: [
            { list: 'un', url: `${files.base}/un.xml`, file: 'fetched/un/consolidated.xml' },
            { list: 'eu', url: `${files.base}/eu.xml`, file: 'fetched/eu/fsf.xml' },
          ],
          downloadTimeoutMs: 3_000,
        },
        environment: 'live',
      }),
    );
    await d.cutOver();
    return { t: d.t, files, dir, live: d.tenant };
  });
  let screens = 0;
  const unFile = () => path.join(suite.current.dir, 'fetched/un/consolidated.xml');
  const fetchNow = async () => {
    const { t } = suite.current;
    const response = await t.backoffice('POST', '/sanctions/lists/fetch');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    return {
      ...body,
      bySource: Object.fromEntries(body.downloads.map((d: { source: string }) => [d.source, d])),
    };
  };
  const listsView = async () => {
    const { t } = suite.current;
    const view = (await t.backoffice('GET', '/sanctions/lists')).json();
    return { view, byList: Object.fromEntries(view.lists.map((l: { list: string }) => [l.list, l])) };
  };
  const alerts = async () => (await suite.current.t.backoffice('GET', '/alerts')).json().alerts;
  const screenMusoni = async () => {
    const { t, live } = suite.current;
    const response = await t.api(live.apiKey, 'POST', '/v1/sanctions/screen', {
      user_id: `player-${++screens}`,
      ...MUSONI,
    });
    return response.json().status;
  };

  it('a new deployment downloads every list on its first pass, validates it and screens against it', async () => {
    const { t, files } = suite.current;
    files.serve('/un.xml', (headers) =>
      headers['if-none-match'] === '"un-1"' ? { status: 304 } : { headers: { etag: '"un-1"' }, body: UN },
    );
    const lastModified = 'Thu, 11 Feb 2016 10:00:00 GMT';
    files.serve('/eu.xml', (headers) =>
      headers['if-modified-since'] === lastModified
        ? { status: 304 }
        : { headers: { 'last-modified': lastModified }, body: EU },
    );
    expect(await screenMusoni()).toBeUndefined(); // no list yet: 503 vendor_unavailable, no status

    await t.advance(1); // the download scheduled at start is due

    expect(files.countFor('/un.xml')).toBe(1);
    expect(fs.readFileSync(unFile(), 'utf8')).toBe(UN);
    const { view, byList } = await listsView();
    expect(view.fetch_enabled).toBe(true);
    expect(byList.un).toMatchObject({
      published_on: '2026-02-27',
      entities: UN_ENTITIES,
      files: ['fetched/un/consolidated.xml'],
      fetched_at: t.platform.clock.now().toISOString(),
      stale: true,
    });
    expect(byList.eu).toMatchObject({ published_on: '2016-02-11', entities: EU_ENTITIES });
    expect(view.sources).toEqual([
      expect.objectContaining({
        source: 'sanctions.un',
        list: 'un',
        url: `${files.base}/un.xml`,
        outcome: 'updated',
        version: '2026-02-27',
        entities: UN_ENTITIES,
        error: null,
      }),
      expect.objectContaining({ source: 'sanctions.eu', outcome: 'updated', version: '2016-02-11' }),
    ]);
    expect(await screenMusoni()).toBe('hit_review_pending');
  });

  it('asks conditionally, and a 304 keeps the version in force', async () => {
    const { files } = suite.current;
    const { bySource } = await fetchNow();
    expect(bySource['sanctions.un']).toMatchObject({ outcome: 'not_modified', version: '2026-02-27' });
    expect(bySource['sanctions.eu']).toMatchObject({ outcome: 'not_modified', version: '2016-02-11' });
    expect(files.requests.at(-2)!.headers['if-none-match']).toBe('"un-1"');
    expect(files.requests.at(-1)!.headers['if-modified-since']).toBe('Thu, 11 Feb 2016 10:00:00 GMT');
  });

  it('checks every list hourly by default (a conditional request: an unchanged list costs one round trip)', () => {
    expect(loadConfig({}).sanctionsFetchIntervalHours).toBe(1);
    expect(loadConfig({ SANCTIONS_FETCH_INTERVAL_HOURS: '6' }).sanctionsFetchIntervalHours).toBe(6);
  });

  it('runs again after SANCTIONS_FETCH_INTERVAL_HOURS on the service clock, not before', async () => {
    const { t, files } = suite.current;
    const before = files.countFor('/un.xml');
    await t.advance(23 * HOUR);
    expect(files.countFor('/un.xml')).toBe(before);
    await t.advance(HOUR);
    expect(files.countFor('/un.xml')).toBe(before + 1);
  });

  it('swaps in a newer publication and screens against it', async () => {
    const { files } = suite.current;
    files.serve('/un.xml', { headers: { etag: '"un-2"' }, body: unDated('2026-03-15') });
    const { bySource } = await fetchNow();
    expect(bySource['sanctions.un']).toMatchObject({ outcome: 'updated', version: '2026-03-15' });
    const { byList } = await listsView();
    expect(byList.un).toMatchObject({ published_on: '2026-03-15', entities: UN_ENTITIES });
    expect(await screenMusoni()).toBe('hit_review_pending');
  });

  it('refuses a truncated file, alerts, and keeps the version in force', async () => {
    const { files } = suite.current;
    const truncated = unDated('2026-03-20');
    files.serve('/un.xml', { headers: { etag: '"un-3"' }, body: truncated.slice(0, truncated.length / 2) });
    const { bySource } = await fetchNow();
    expect(bySource['sanctions.un']).toMatchObject({
      outcome: 'refused',
      version: '2026-03-15',
      error: expect.stringMatching(/^does not parse: malformed XML/),
    });
    expect(fs.readFileSync(unFile(), 'utf8')).toBe(unDated('2026-03-15'));
    expect((await alerts())[0]).toMatchObject({
      kind: 'download_refused',
      subject: 'sanctions.un',
      message: expect.stringContaining('the version in use stays'),
    });
    expect((await listsView()).byList.un.published_on).toBe('2026-03-15');
    expect(await screenMusoni()).toBe('hit_review_pending');
    // Refused validators are forgotten: the next check downloads the file again rather than hear 304 for it.
    await fetchNow();
    expect(files.requests.at(-2)!.headers['if-none-match']).toBeUndefined();
  });

  it('refuses a newer publication that lost most of its entities', async () => {
    const { files } = suite.current;
    files.serve('/un.xml', { headers: { etag: '"un-4"' }, body: unCollapsed('2026-03-21') });
    const { bySource } = await fetchNow();
    expect(bySource['sanctions.un']).toMatchObject({
      outcome: 'refused',
      error: `holds 1 entities, more than 10% below the ${UN_ENTITIES} of the version in force`,
    });
    expect((await alerts())[0]).toMatchObject({ kind: 'download_refused', subject: 'sanctions.un' });
    expect((await listsView()).byList.un).toMatchObject({
      published_on: '2026-03-15',
      entities: UN_ENTITIES,
    });
  });

  it('refuses a publication older than the one in force', async () => {
    const { files } = suite.current;
    files.serve('/un.xml', { headers: { etag: '"un-5"' }, body: unDated('2026-01-01') });
    const { bySource } = await fetchNow();
    expect(bySource['sanctions.un']).toMatchObject({
      outcome: 'refused',
      error: 'published 2026-01-01, older than the version in force (2026-03-15)',
    });
  });

  it('a server that does not answer in time fails the download, alerts, and screening goes on', async () => {
    const { files, dir } = suite.current;
    files.serve('/un.xml', 'hang');
    files.serve('/eu.xml', { status: 503, body: 'maintenance' });
    const { bySource } = await fetchNow();
    expect(bySource['sanctions.un']).toMatchObject({
      outcome: 'failed',
      error: 'no complete answer within 3 s',
      version: '2026-03-15',
    });
    expect(bySource['sanctions.eu']).toMatchObject({
      outcome: 'failed',
      error: 'the server answered HTTP 503',
    });
    const raised = (await alerts()).slice(0, 2);
    expect(raised.map((a: { kind: string; subject: string }) => [a.kind, a.subject]).sort()).toEqual([
      ['download_failed', 'sanctions.eu'],
      ['download_failed', 'sanctions.un'],
    ]);
    expect(await screenMusoni()).toBe('hit_review_pending');
    // Nothing of the failed downloads is left beside the lists.
    expect(fs.readdirSync(path.join(dir, 'fetched/un'))).toEqual(['consolidated.xml']);
  });
});

describe('downloading the lists without a lists directory', () => {
  const suite = useSuite(() => SanctionsDriver.start());

  it('answers 409 fetch_not_configured', async () => {
    const response = await suite.current.t.backoffice('POST', '/sanctions/lists/fetch');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'fetch_not_configured' });
  });
});
