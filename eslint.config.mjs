// Lint enforces the two architectural boundaries of DESIGN.md.
import tseslint from 'typescript-eslint';

const vscodeOnlyHere = ['src/vscode/**', 'src/extension.ts', 'test/integration/**', 'test/e2e/**'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'src/acp/generated/**', '.vscode-test/**'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {},
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: vscodeOnlyHere,
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: "Only src/vscode/** and src/extension.ts may import 'vscode' (DESIGN.md)." }] }],
    },
  },
  {
    files: ['src/webview/**/*.ts', 'src/webview/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'The webview runs in a browser.' }],
        patterns: [{
          regex: '^(\\.\\./)+(acp|session|client|tools|vscode|common|demo)(/|$)',
          message: 'src/webview may import only src/shared/** and its own files (DESIGN.md).',
        }, { regex: '^node:', message: 'The webview runs in a browser.' }],
      }],
    },
  },
);
