// @vscode/test-cli config (`npx vscode-test`), for machines that can download VS Code.
// Same tests and workspace as test/harness/run-integration.mjs (which runs them in code-server
// where VS Code cannot be downloaded): every out/test/integration/**/*.test.js, mocha TDD UI,
// in a fresh temporary copy of test/fixtures/workspace. Build first: `node esbuild.mjs`.
import { defineConfig } from '@vscode/test-cli';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const workspace = join(mkdtempSync(join(tmpdir(), 'tandem-ws-')), 'workspace');
cpSync('test/fixtures/workspace', workspace, { recursive: true });

export default defineConfig({
  label: 'integration',
  files: 'out/test/integration/**/*.test.js',
  workspaceFolder: workspace,
  env: { TANDEM_TEST: '1' },
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  mocha: { ui: 'tdd', timeout: 20_000, color: true },
});
