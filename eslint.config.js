// ESLint flat config: typescript-eslint's type-checked rules and eslint-plugin-regexp, whose
// rules flag the regular-expression shapes that backtrack super-linearly (a live denial of service
// on a public parser). Formatting is Prettier's job (`npm run lint` checks it, `npm run format` writes it).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'action/dist/',
      'node_modules/',
      'artifacts/',
      '.ci/node24/',
      'test/corpus/',
      'test/vectors/',
      'test/conformance/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  regexp.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'regexp/no-misleading-capturing-group': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Refusing control characters in names, notes and paths is deliberate validation here, which
      // is the very thing this rule assumes is a mistake.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    // Plain Node scripts (the CI's conformance wrapper, this file).
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' },
    },
  },
);
