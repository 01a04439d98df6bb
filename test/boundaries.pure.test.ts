import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { temporaryDirectory } from './helpers/temporary-directory.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A small tree shaped like ours, with one deliberate break of each boundary beside imports that keep them: the
 * boundary lint (.dependency-cruiser.cjs, as `npm run lint:boundaries` runs it) must name exactly the breaks.
 */
const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  'package.json': JSON.stringify({ type: 'module' }),
  'src/platform/clock.ts': 'export const now = 1;\n',
  'src/platform/uses-an-area.ts': "import { a } from '../areas/alpha/index.js';\nexport const p = a;\n",
  'src/platform/db/schema.ts':
    "import type { AlphaTables } from '../../areas/alpha/alpha.tables.js';\n" +
    "import type { a } from '../../areas/alpha/alpha.store.js';\n" +
    'export type DB = AlphaTables & { a: typeof a };\n',
  'src/areas/alpha/alpha.tables.ts': 'export interface AlphaTables { alpha: { id: string } }\n',
  'src/areas/alpha/alpha.store.ts': "import { now } from '../../platform/clock.js';\nexport const a = now;\n",
  'src/areas/alpha/index.ts': "export { a } from './alpha.store.js';\n",
  'src/areas/alpha/alpha.pure.test.ts':
    "import { start } from '../../../test/helpers/test-service.js';\nstart();\n",
  'src/areas/beta/beta.service.ts':
    "import { a } from '../alpha/alpha.store.js';\nimport { a as door } from '../alpha/index.js';\n" +
    'export const b = a + door;\n',
  'src/areas/beta/beta.routes.ts': "import { page } from '../../console/page.js';\nexport const r = page;\n",
  'src/areas/beta/index.ts': "export { b } from './beta.service.js';\n",
  'src/areas/gamma/one.ts': "import type { Two } from './two.js';\nexport interface One { two?: Two }\n",
  'src/areas/gamma/two.ts': "import type { One } from './one.js';\nexport interface Two { one?: One }\n",
  'src/console/page.ts':
    "import { a } from '../areas/alpha/alpha.store.js';\nimport { b } from '../areas/beta/index.js';\n" +
    'export const page = a + b;\n',
  'test/helpers/test-service.ts': 'export function start(): void {}\n',
};

let tree: { path: string; close(): void };
beforeAll(() => {
  tree = temporaryDirectory('boundaries-');
  for (const [file, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(tree.path, file)), { recursive: true });
    fs.writeFileSync(path.join(tree.path, file), text);
  }
});
afterAll(() => tree.close());

const lint = (outputType: 'json' | 'err') =>
  spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'depcruise'),
    ['src', 'test', '--config', path.join(ROOT, '.dependency-cruiser.cjs'), '--output-type', outputType],
    { cwd: tree.path, encoding: 'utf8' },
  );

it('the boundary lint names each deliberate break, and only those', () => {
  const { summary } = JSON.parse(lint('json').stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  const found = summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
  expect(found).toEqual(
    [
      'area-uses-another-areas-door: src/areas/beta/beta.service.ts -> src/areas/alpha/alpha.store.ts',
      'areas-use-no-surface: src/areas/beta/beta.routes.ts -> src/console/page.ts',
      'no-circular: src/areas/gamma/one.ts -> src/areas/gamma/two.ts',
      'platform-names-no-area: src/platform/uses-an-area.ts -> src/areas/alpha/index.ts',
      'pure-tests-start-no-service: src/areas/alpha/alpha.pure.test.ts -> test/helpers/test-service.ts',
      'schema-takes-table-types-only: src/platform/db/schema.ts -> src/areas/alpha/alpha.store.ts',
      'surfaces-use-doors: src/console/page.ts -> src/areas/alpha/alpha.store.ts',
    ].sort(),
  );
});

it('fails the run as CI runs it, with one error a break', () => {
  const run = lint('err');
  expect(run.stdout).toContain('7 dependency violations (7 errors, 0 warnings)');
  expect(run.status).toBe(7);
});
