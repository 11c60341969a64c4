// Lint: typescript-eslint's recommended rules and no import cycles (import-x/no-cycle; the type-only
// ones too are checked by test/unit/codeStyle.unit.ts with dpdm, which follows `import type`).
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.cache/**', '.data/**', '.tap/**', 'dist/**', 'test/fixtures/**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.js'] } } },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Functions short enough to read at once (issue 27): blank lines and comments not counted.
    files: [
      'core/**/*.ts',
      'events/**/*.ts',
      'infra/**/*.ts',
      'projections/**/*.ts',
      'services/**/*.ts',
      'bin/**/*.ts',
    ],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The named exceptions: the engine's scorers, each a table of rules read top to bottom.
    files: ['services/engine/**/*.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // Tests read the API's JSON answers as the black box returns them.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
