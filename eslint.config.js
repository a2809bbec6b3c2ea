/**
 * ESLint, checked by `npm run lint` (part of `npm test`). Rules are chosen for bugs, not taste: layout is Prettier's,
 * types are tsc's and svelte-check's, import rules are dependency-cruiser's. A rule that only states a preference
 * (explicit `any`, `{}` types, escapes, `let` vs `const`) is off; a rule whose findings were real defects stays on.
 */
import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

export default ts.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'dist-*/',
      'test-results/',
      'playwright-report/',
      'e2e-artifacts/',
      '.scratch/',
      'public/',
      'deps/',
      'lessons/',
      'examples/',
      'skills/',
      'tests/fixtures/',
      'src/workspace/templates/starter/',
    ],
  },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  { languageOptions: { globals: { ...globals.browser, ...globals.node } } },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
  },
  {
    rules: {
      // Dead code: an unused import or variable. Unused parameters keep a callback's shape; `_name` marks a
      // value left out on purpose (a rest sibling, a tuple slot).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'none',
          caughtErrors: 'none',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Irregular spaces inside comments are the examples the shell display refuses; in code they are a bug.
      'no-irregular-whitespace': ['error', { skipComments: true }],
      // Taste, or deliberate in this code: terminal escapes and NUL in patterns, `any` at library seams, `{}` as
      // "no payload" in protocols, initial values before a try, counted spaces, needless escapes, `let` vs `const`.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      'no-control-regex': 'off',
      'no-useless-assignment': 'off',
      'no-regex-spaces': 'off',
      'no-useless-escape': 'off',
      'prefer-const': 'off',
      'no-prototype-builtins': 'off',
      'svelte/no-useless-mustaches': 'off',
      // Flags every local Map or Set in a .svelte.ts module, reactive or not; svelte-check and the e2e suite
      // catch state that does not update.
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    // Node's assert and test, rewritten for the in-browser sandbox: they follow Node's own source.
    files: ['src/workspace/memory/node-shims/**'],
    rules: { '@typescript-eslint/no-this-alias': 'off', '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
