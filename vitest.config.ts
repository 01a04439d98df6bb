import { configDefaults, defineConfig } from 'vitest/config';

// The tests that start the compiled service or CLI (dist/) in processes of their own, as operators run them.
const PROCESS_TESTS = ['test/cli/**/*.test.ts', 'test/platform/processes.test.ts'];
const PGLITE_TEMPLATE = 'test/helpers/global-setup.ts';

export default defineConfig({
  test: {
    pool: 'forks',
    // Test files share their worker's loaded modules (and its compiled PGlite) instead of loading them again per
    // file, most of a short file's time. Safe because no service state lives in a module: each test starts its
    // own service, whose vendors, caches and buffers hang off its platform. (The pool reads this option from the
    // root config only, so it holds for both projects.)
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
          globalSetup: [PGLITE_TEMPLATE],
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: PROCESS_TESTS,
          // Builds dist/ once before the run; a run of the unit project alone never builds.
          globalSetup: [PGLITE_TEMPLATE, 'test/helpers/build-dist.ts'],
        },
      },
    ],
  },
});
