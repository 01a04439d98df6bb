/**
 * The boundaries of the code (docs/architecture.md, "Boundaries"), checked by `npm run lint:boundaries` in CI.
 * Areas talk through their doors (`src/areas/<area>/index.ts`, `src/staff/index.ts`); the platform names no area;
 * the surfaces for people (console, back office, CLI) and the composition root use doors only; nothing is circular.
 * Tests may reach inside what they test, except that a pure test starts no service and opens no database.
 */
const AREA_INTERNAL = '^src/(areas/[^/]+|staff)/(?!index\\.ts$)';
const SOURCE_NOT_TEST = '\\.test\\.ts$|\\.test-support\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'area-uses-another-areas-door',
      comment: "An area imports the platform and other areas' doors, never another area's files.",
      severity: 'error',
      from: { path: '^src/areas/([^/]+)/', pathNot: SOURCE_NOT_TEST },
      to: { path: AREA_INTERNAL, pathNot: ['^src/areas/$1/'] },
    },
    {
      name: 'staff-uses-area-doors',
      comment: "The staff's code imports areas through their doors.",
      severity: 'error',
      from: { path: '^src/staff/', pathNot: SOURCE_NOT_TEST },
      to: { path: '^src/areas/[^/]+/(?!index\\.ts$)' },
    },
    {
      name: 'surfaces-use-doors',
      comment: 'The console, the back office, the CLI and the composition root use area doors only.',
      severity: 'error',
      from: { path: '^src/(console|backoffice|cli)/|^src/[^/]+\\.ts$', pathNot: SOURCE_NOT_TEST },
      to: { path: AREA_INTERNAL },
    },
    {
      name: 'areas-use-no-surface',
      comment: 'Areas and the staff know nothing of the surfaces that call them.',
      severity: 'error',
      from: { path: '^src/(areas|staff)/', pathNot: SOURCE_NOT_TEST },
      to: { path: '^src/(console|backoffice|cli)/|^src/(app|service|main|manifests)\\.ts$' },
    },
    {
      name: 'platform-names-no-area',
      comment:
        "The platform imports no area, except the database schema's aggregation of each area's table types.",
      severity: 'error',
      from: { path: '^src/platform/', pathNot: ['^src/platform/db/schema\\.ts$', SOURCE_NOT_TEST] },
      to: { path: '^src/(areas|staff|console|backoffice|cli)/|^src/(app|service|main|manifests)\\.ts$' },
    },
    {
      name: 'schema-takes-table-types-only',
      comment:
        'The database schema aggregates table types from *.tables.ts files and nothing else of an area.',
      severity: 'error',
      from: { path: '^src/platform/db/schema\\.ts$' },
      to: { path: '^src/(areas|staff)/', pathNot: '\\.tables\\.ts$' },
    },
    {
      name: 'pure-tests-start-no-service',
      comment: 'A pure test (*.pure.test.ts) runs without a service or a database.',
      severity: 'error',
      from: { path: '\\.pure\\.test\\.ts$' },
      to: {
        path: '^test/helpers/(test-service|test-database|tenant-driver|staff-driver|cli|browser)\\.ts$|^src/platform/db/database\\.ts$|^src/service\\.ts$',
      },
    },
    {
      name: 'no-circular',
      comment:
        "No import cycles, type-only imports included, except through the database schema's aggregation of every " +
        "area's table types (Kysely's one DB type, which every store names).",
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaNot: '^src/platform/db/schema\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle through types is still a cycle a reader has to untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
