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
});
