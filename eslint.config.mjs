// Lint covers every .ts, .tsx, .mjs, .js file in the repo. JavaScript gets ESLint's
// recommended set (no-undef above all: TypeScript does not check these files, and an undefined
// name in the install harness once broke both README commands on a fresh machine). TypeScript
// gets typescript-eslint's recommended set plus the type-aware checks below. On top, the house
// rules of docs/ARCHITECTURE.md: files of at most 300 lines in src/, and one import rule per layer
// matching its data-flow picture (each layer lists the layers it may not import).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every top-level folder of src/ (a layer). */
const LAYERS = [
  'common',
  'shared',
  'acp',
  'session',
  'client',
  'checkpoints',
  'tools',
  'registry',
  'worktrees',
  'review',
  'demo',
  'vscode',
  'webview',
];

/**
 * What each layer may import besides itself (docs/ARCHITECTURE.md, "Layers"). Imports flow one
 * way: acp and session know nothing of the client; the client nothing of VS Code; the webview
 * runs in a browser and sees only shared/; the demo agent is a standalone program.
 */
const MAY_IMPORT = {
  common: [],
  shared: [],
  acp: ['common', 'shared'],
  session: ['common', 'shared'],
  client: ['acp', 'session', 'common', 'shared'],
  checkpoints: ['client', 'session', 'acp', 'common', 'shared'],
  tools: ['client', 'session', 'acp', 'common', 'shared'],
  registry: ['client', 'acp', 'common', 'shared'],
  // Git worktrees per session: plain git through execFile, no vscode, no session state.
  worktrees: ['common'],
  // Review comments on the agent's changes: the store, where their lines went, the prompt.
  review: ['common', 'shared'],
  demo: [],
  vscode: ['client', 'checkpoints', 'tools', 'registry', 'worktrees', 'review', 'session', 'acp', 'common', 'shared'],
  webview: ['shared'],
};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One no-restricted-imports rule per layer and folder depth: a relative import that climbs exactly
 * out of src/<layer>/ to a layer it may not import. (By depth, because a feature folder may share
 * a layer's name: src/vscode/registry is not src/registry.)
 */
function layerRules() {
  const blocks = [];
  for (const layer of LAYERS) {
    const banned = LAYERS.filter((l) => l !== layer && !MAY_IMPORT[layer].includes(l));
    for (let depth = 1; depth <= 4; depth++) {
      const up = escape('../'.repeat(depth));
      const paths =
        layer === 'vscode'
          ? []
          : [
              {
                name: 'vscode',
                message: `Only src/vscode/** and src/extension.ts may import 'vscode' (docs/ARCHITECTURE.md).`,
              },
            ];
      const patterns = [
        {
          regex: `^${up}(${banned.join('|')})(/|$)`,
          message: `src/${layer} may import only ${MAY_IMPORT[layer].join(', ') || 'itself'} (docs/ARCHITECTURE.md, "Layers").`,
        },
        { regex: `^${up}\\.\\./`, message: 'Imports stay inside src/.' },
      ];
      // Runs in a browser (webview), or in both the host and the browser (shared).
      if (layer === 'webview' || layer === 'shared')
        patterns.push({ regex: '^node:', message: `src/${layer} runs in a browser.` });
      blocks.push({
        files: [`src/${layer}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
        rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
      });
    }
  }
  return blocks;
}

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
    // The house rules for src/: small files, exhaustive switches, promises where they are awaited,
    // type-only imports marked (they vanish from the bundles).
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-misused-promises': 'error',
      // import() in a type stays allowed: the lazy require()s of heavy modules name their types so.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
  ...layerRules(),
);
