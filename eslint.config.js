import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'data/',
      'node_modules/',
      'bench/results/',
      'packages/*/dist/',
      'packages/client/src/generated/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Each area adds its events to the platform's EventCatalogue as `interface EventCatalogue extends … {}`.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // The console's one browser script (public/console/console.js), plain JavaScript.
    files: ['public/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    // SQL lives in stores, in each area's statements/ (the hand-tuned hot statements) and in platform/db: everything else calls them.
    files: ['src/**/*.ts'],
    ignores: [
      '**/*.store.ts',
      '**/store/**',
      '**/statements/**',
      'src/platform/db/**',
      '**/*.test.ts',
      '**/*test-support.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              message: 'SQL belongs in a store (<area>.store.ts), statements/ or platform/db.',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|mergeInto)$/]',
          message: 'SQL belongs in a store (<area>.store.ts), statements/ or platform/db.',
        },
      ],
    },
  },
);
