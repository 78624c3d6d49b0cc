// Builds Tandem's bundles into dist/: the extension (node/cjs), the webview (browser/esm,
// Preact), the demo agent, the replay agent and the MCP bridge (standalone node scripts).
// Flags: --production (minify, no sourcemaps), --watch, --with-tests (also the plain transpile
// of src/test/bench into out/ that the test runners load), --tests-only (just that transpile).
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --tests-only: just the out/ transpile (quick inner loop for unit tests).
const testsOnly = process.argv.includes('--tests-only');
const withTests = process.argv.includes('--with-tests');

// ACP schema validators are generated as code at build time (ajv standalone), never at activation.
execFileSync(process.execPath, ['scripts/gen-validators.mjs'], { stdio: 'inherit' });

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
};

const bundles = [
  {
    ...common,
    // mcp-bridge: stdio ↔ HTTP relay for agents without http MCP (client tools, src/tools/mcp/bridge.ts).
    // replay-agent: plays a recorded session back as an agent (src/demo/replayAgent.ts).
    entryPoints: {
      extension: 'src/extension.ts',
      'demo-agent': 'src/demo/agent.ts',
      'replay-agent': 'src/demo/replayAgent.ts',
      'mcp-bridge': 'src/tools/mcp/bridge.ts',
    },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The bash grammar's runtime ships as its own file beside the bundle (copyAssets), required on
    // the first command a permission decision judges: activation never parses it.
    external: ['vscode', '@vscode/tree-sitter-wasm'],
  },
  {
    ...common,
    entryPoints: { webview: 'src/webview/main.tsx' },
    outdir: 'dist',
    platform: 'browser',
    // ESM + splitting: the terminal renderer is a separate chunk loaded only when a terminal shows.
    format: 'esm',
    splitting: true,
    chunkNames: 'webview-chunks/[name]-[hash]',
    target: 'chrome120',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    loader: { '.ttf': 'file' },
  },
];

function listTs(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...listTs(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// Tests run on plain transpiled files (no bundling) so node --test and the VS Code test
// host load the same modules the bundles are made of.
const testTranspile = {
  entryPoints: ['src', 'test', 'bench'].flatMap((d) => listTs(d)),
  outdir: 'out',
  outbase: '.',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
};

// Codicons ship beside the webview bundle (the CSP allows fonts from the extension only); the
// bash grammar's WASM beside the extension bundle.
function copyAssets() {
  mkdirSync('dist', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) copyFileSync(`node_modules/@vscode/codicons/dist/${f}`, `dist/${f}`);
  // The bash grammar for permission decisions (src/client/permissions/shell/bashParser.ts), loaded on first use.
  for (const f of ['tree-sitter.js', 'tree-sitter.wasm', 'tree-sitter-bash.wasm'])
    copyFileSync(`node_modules/@vscode/tree-sitter-wasm/wasm/${f}`, `dist/${f}`);
}

async function writeMeta(results) {
  const meta = { inputs: {}, outputs: {} };
  for (const r of results) {
    Object.assign(meta.inputs, r.metafile.inputs);
    Object.assign(meta.outputs, r.metafile.outputs);
  }
  mkdirSync('dist', { recursive: true });
  writeFileSync('dist/meta.json', JSON.stringify(meta));
}

// Hashed chunk names change with content: drop the old ones so only the current build ships.
if (!testsOnly) rmSync('dist/webview-chunks', { recursive: true, force: true });
copyAssets();
if (watch) {
  const ctxs = await Promise.all([...bundles, ...(withTests ? [testTranspile] : [])].map((o) => esbuild.context(o)));
  await Promise.all(ctxs.map((c) => c.watch()));
  console.log('[tandem] watching for changes…');
} else if (testsOnly) {
  await buildTests();
} else {
  const results = await Promise.all(bundles.map((o) => esbuild.build(o)));
  await writeMeta(results);
  if (withTests) await buildTests();
}

/** A fresh out/: a file renamed or deleted in src or test must not leave its old copy to run. */
async function buildTests() {
  rmSync('out', { recursive: true, force: true });
  await esbuild.build(testTranspile);
}
