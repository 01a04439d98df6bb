import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useSuite } from '../helpers/suite.js';
import { cliFor } from '../helpers/cli.js';
import { FileServer } from '../helpers/file-server.js';
import { temporaryDirectory } from '../helpers/temporary-directory.js';
import { TestService } from '../helpers/test-service.js';

const UN = fs.readFileSync(
  new URL('../../src/areas/sanctions/lists/fixtures/excerpts/un/UN_consolidated.xml', import.meta.url),
);

describe('compliance lists fetch, lists show and alerts', () => {
  const suite = useSuite(async (own) => {
    const dir = own(temporaryDirectory('cli-lists-')).path;
    const files = own(await FileServer.start());
    files.serve('/un.xml', { body: UN });
    files.serve('/eu.xml', { body: '<?xml version="1.0"?><WHOLE Date="01/01/2030"><ENTITY' });
    const t = own(
      await TestService.start({
        sanctionsDataDir: dir,
        sanctionsSources: [
          { list: 'un', url: `${files.base}/un.xml`, file: 'un/consolidated.xml' },
          { list: 'eu', url: `${files.base}/eu.xml`, file: 'eu/fsf.xml' },
        ],
      }),
    );
    return { t, files, dir, cli: await cliFor(t) };
  });

  it('downloads the lists and prints what each download did; the refused one is in the alerts', async () => {
    const { cli } = suite.current;
    const fetched = await cli('lists', 'fetch');
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toMatch(/^sanctions\.un {2}updated {2}version 2026-02-27 {2}\d+ entities$/m);
    expect(fetched.stdout).toMatch(/^sanctions\.eu {2}refused {2}\(does not parse: .+\)$/m);
    expect(fetched.stdout).toMatch(/^un {2}published 2026-02-27 {2}\d+ entities {2}fetched \S+ {2}STALE$/m);

    const shown = await cli('lists', 'show');
    expect(shown.stdout).toMatch(/^un {2}published 2026-02-27/m);

    const alerts = await cli('alerts', '--limit', '5');
    expect(alerts.code).toBe(0);
    expect(alerts.stdout).toMatch(
      / {2}download_refused {2}sanctions\.eu {2}The download of sanctions\.eu was refused/,
    );
    expect(alerts.stdout).not.toContain('sanctions.un');
  });

  it('shows what a new version of a list changed, and its screening of every player', async () => {
    const { cli, files, t } = suite.current;
    const today = t.platform.clock.now().toISOString().slice(0, 10);
    const xml = UN.toString('utf8')
      .replace(/dateGenerated="[^"]+"/, `dateGenerated="${today}T00:00:00Z"`)
      .replace(
        '<REFERENCE_NUMBER>CDi.001</REFERENCE_NUMBER>',
        '<REFERENCE_NUMBER>CDi.901</REFERENCE_NUMBER>',
      );
    files.serve('/un.xml', { body: Buffer.from(xml) });
    expect((await cli('lists', 'fetch')).code).toBe(0);

    const shown = await cli('lists', 'show');
    expect(shown.stdout).toMatch(
      new RegExp(
        `^ {2}last change: lsv_\\w+ {2}un {2}published ${today} .+ \\+1 added {2}~0 changed {2}-1 removed`,
        'm',
      ),
    );
    const versions = await cli('lists', 'versions', '--list', 'un');
    expect(versions.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^lsv_\w+ {2}un {2}published \S+ .+\+1 added/),
      expect.stringMatching(
        /^lsv_\w+ {2}un {2}published 2026-02-27 .+baseline \(first version recorded\) {2}nothing to screen$/,
      ),
    ]);
    const version = await cli('lists', 'version', versions.stdout.split(' ')[0]!);
    expect(version.stdout).toContain('added: CDi.901');
    expect(version.stdout).toContain('removed: CDi.001');
  });
});
