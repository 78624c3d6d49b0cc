// The packaged extension (tandem-<version>.vsix, `npm run package`) holds every file Tandem needs
// at run time and nothing else. What is needed is read from the product itself, so a file added
// later is covered without editing this test: the manifest's `main`, icons and media; every
// `dist/<file>` and `asset('<file>')` the host code names (agents, MCP bridge, webview, CSS); every
// chunk the webview bundle imports, eagerly or lazily, transitively; every font a shipped
// stylesheet loads. Sources, tests, source maps and node_modules must not be in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import * as yauzl from 'yauzl';
import { repoRoot } from '../../support/paths';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const vsix = join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);

/** Every entry of the VSIX (a zip), with its bytes for the text files we need to read. */
function readVsix(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (e: yauzl.Entry) => {
        if (e.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const parts: Buffer[] = [];
          stream.on('data', (b: Buffer) => parts.push(b));
          stream.on('end', () => {
            entries.set(e.fileName, Buffer.concat(parts));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

/** The extension-relative files the host code loads: `joinPath(…, 'dist', 'x.js')`, `asset('media/x.css')`. */
function filesNamedByHostCode(): string[] {
  const named = new Set<string>();
  for (const f of sourceFiles(join(repoRoot, 'src')).filter((f) => !f.includes(`${join('src', 'webview')}`))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/['"]dist['"],\s*['"]([\w.-]+)['"]/g)) named.add(`dist/${m[1]}`);
    for (const m of text.matchAll(/asset\(\s*['"]([\w./-]+)['"]\s*\)/g)) named.add(m[1]);
  }
  return [...named];
}

/** Files the manifest points at: main, icon, and media used by contributions (view icons). */
function filesNamedByManifest(): string[] {
  const named = new Set<string>([posix.normalize(pkg.main)]);
  if (pkg.icon) named.add(pkg.icon);
  for (const m of JSON.stringify(pkg.contributes).matchAll(/"(media\/[\w./-]+)"/g)) named.add(m[1]);
  return [...named];
}

/** Relative imports (static and dynamic) of a bundle and url() references of a stylesheet. */
function references(file: string, text: string): string[] {
  const refs = file.endsWith('.css')
    ? [...text.matchAll(/url\(\s*["']?(\.{0,2}\/?[\w./-]+?)(?:[?#][^"')]*)?["']?\s*\)/g)].map((m) => m[1])
    : [...text.matchAll(/(?:from\s*|import\(\s*)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
  return refs.filter((r) => !/^(data:|https?:)/.test(r)).map((r) => posix.join(posix.dirname(file), r));
}

test('the VSIX holds every runtime file: bundles, lazy chunks, agents, MCP bridge, codicons, media', async (t) => {
  assert.ok(existsSync(vsix), `${vsix} is missing: run \`npm run package\` (npm test does it before the unit tests)`);
  const entries = await readVsix(vsix);
  const inside = (p: string) => entries.has(`extension/${p}`);
  const required = [
    'package.json',
    'readme.md',
    'changelog.md',
    ...filesNamedByManifest(),
    ...filesNamedByHostCode(),
    'dist/codicon.css',
    // The bash grammar, loaded from beside the bundle (src/client/permissions/shell/bashParser.ts).
    'dist/tree-sitter.js',
    'dist/tree-sitter.wasm',
    'dist/tree-sitter-bash.wasm',
  ];
  // Follow the webview bundle's imports and the stylesheets' fonts to everything they load.
  const queue = required.filter((p) => /\.(js|css)$/.test(p) && p.startsWith('dist/'));
  const seen = new Set(queue);
  while (queue.length) {
    const file = queue.pop()!;
    const bytes = entries.get(`extension/${file}`);
    if (!bytes) continue; // reported as missing below
    for (const ref of references(file, bytes.toString('utf8'))) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      required.push(ref);
      if (/\.(js|css)$/.test(ref)) queue.push(ref);
    }
  }
  const missing = [...new Set(required)].filter((p) => !inside(p));
  assert.deepEqual(missing, [], `runtime files missing from ${vsix}`);
  // The crawl must have reached the lazy chunks and the codicon font, or it proves nothing.
  for (const lazy of ['ToolDetails-', 'TerminalScreen-', 'ElicitationForm-', 'codicon.ttf'])
    assert.ok(
      [...seen].some((p) => p.includes(lazy)),
      `${lazy} was not reached from dist/webview.js or dist/codicon.css`,
    );
  const kib = (statSync(vsix).size / 1024).toFixed(1);
  t.diagnostic(`${vsix}: ${entries.size} files, ${kib} KiB`);
});

test('the VSIX holds no sources, tests, source maps or node_modules', async () => {
  assert.ok(existsSync(vsix), `${vsix} is missing: run \`npm run package\``);
  const entries = [...(await readVsix(vsix)).keys()];
  const stray = entries.filter(
    (e) =>
      /^extension\/(src|test|out|bench|scripts|node_modules|docs)\//.test(e) ||
      /\.(map|tsx?)$/.test(e) ||
      /(^|\/)(tsconfig|esbuild|eslint)[^/]*$/.test(e),
  );
  assert.deepEqual(stray, [], `files that must not ship in ${vsix}`);
});
