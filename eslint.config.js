// ESLint flat config: typescript-eslint's type-checked rules and eslint-plugin-regexp, whose
// rules flag the regular-expression shapes that backtrack super-linearly (a live denial of service
// on a public parser). Formatting is Prettier's job (`npm run format:check`), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import regexp from 'eslint-plugin-regexp';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'artifacts/', 'test/corpus/', 'test/vectors/', 'test/conformance/'] },
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
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
