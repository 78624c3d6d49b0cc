// Lint covers every .ts, .tsx, .mjs, .js file in the repo. JavaScript gets ESLint's
// recommended set (no-undef above all: TypeScript does not check these files, and an undefined
// name in the install harness once broke both README commands on a fresh machine). TypeScript
// gets typescript-eslint's recommended set plus no-floating-promises (type-aware). On top, the
// two architectural boundaries of DESIGN.md.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const vscodeOnlyHere = ['src/vscode/**', 'src/extension.ts', 'test/integration/**', 'test/e2e/**'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'src/acp/generated/**',
      '.vscode-test/**',
      'test-results/**',
      'bench/results/**',
    ],
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2024, sourceType: 'module' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  {
    // Functions handed to Playwright's page.evaluate run in the page, not in Node.
    files: ['test/e2e/**/*.mjs', 'bench/*.mjs'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', requestAnimationFrame: 'readonly' } },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test()/describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // These suites install DOM globals (jsdom, acquireVsCodeApi) first, then load the webview
    // modules, which read them at import: a static import would run before the globals exist.
    files: ['test/unit/webview/**/*.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: vscodeOnlyHere,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'vscode', message: "Only src/vscode/** and src/extension.ts may import 'vscode' (DESIGN.md)." },
          ],
        },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts', 'src/webview/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The webview runs in a browser.' }],
          patterns: [
            {
              regex: '^(\\.\\./)+(acp|session|client|tools|vscode|common|demo)(/|$)',
              message: 'src/webview may import only src/shared/** and its own files (DESIGN.md).',
            },
            { regex: '^node:', message: 'The webview runs in a browser.' },
          ],
        },
      ],
    },
  },
);
