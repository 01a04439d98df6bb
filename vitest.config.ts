import { configDefaults, defineConfig } from 'vitest/config';

// Three tiers, told apart by file name so a test's tier shows in its name:
// - pure: `*.pure.test.ts`, no service and no database (decision tables, rule functions, parsers, formatters), in
//   seconds;
// - service: every other test run from source: a service on a copy of the PGlite template, or (full-lists.test.ts,
//   shipped-lists.test.ts) the whole published sanctions lists, which take seconds to read;
// - process: the tests that start the compiled service or CLI (dist/) in processes of their own, as operators run them.
const PURE_TESTS = ['src/**/*.pure.test.ts', 'test/**/*.pure.test.ts'];
const PROCESS_TESTS = [
  'test/cli/**/*.test.ts',
  'test/client/**/*.test.ts',
  'test/platform/processes.test.ts',
];
const PGLITE_TEMPLATE = 'test/helpers/global-setup.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    // Test files share their worker's loaded modules (and its compiled PGlite) instead of loading them again per
    // file, most of a short file's time. Safe because no service state lives in a module: each test starts its
    // own service, whose vendors, caches and buffers hang off its platform. (The pool reads this option from the
    // root config only, so it holds for every project.)
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        // No global setup: a run of the pure project alone makes no database.
        test: { name: 'pure', include: PURE_TESTS },
      },
      {
        extends: true,
        test: {
          name: 'service',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PURE_TESTS, ...PROCESS_TESTS],
          globalSetup: [PGLITE_TEMPLATE],
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: PROCESS_TESTS,
          // Builds dist/ once before the run; a run of the other projects alone never builds.
          globalSetup: [PGLITE_TEMPLATE, 'test/helpers/build-dist.ts'],
        },
      },
    ],
  },
});
