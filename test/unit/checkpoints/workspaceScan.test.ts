import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { scanWorkspace } from '../../../src/checkpoints/workspaceScan';

test('the scan skips .git, node_modules and what .gitignore files ignore, at any depth, and symlinks', async () => {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-scan-')));
  const put = (p: string, text = 'x') => {
    mkdirSync(join(ws, p, '..'), { recursive: true });
    writeFileSync(join(ws, p), text);
  };
  put('.gitignore', 'dist/\n*.log\n!keep.log\n');
  put('src/a.ts');
  put('dist/out.js');
  put('debug.log');
  put('keep.log');
  put('.git/HEAD');
  put('node_modules/x/index.js');
  put('nested/.git/config');
  put('nested/.gitignore', 'secret.txt\n');
  put('nested/secret.txt');
  put('nested/b.ts');
  put('.git/info/exclude', 'local-only.txt\n');
  put('local-only.txt');
  symlinkSync(join(ws, 'src/a.ts'), join(ws, 'link.ts'));
  const { files, truncated } = await scanWorkspace([ws]);
  assert.equal(truncated, false);
  assert.deepEqual([...files.keys()].map((p) => relative(ws, p)).sort(), [
    '.gitignore',
    'keep.log',
    'nested/.gitignore',
    'nested/b.ts',
    'src/a.ts',
  ]);
  const capped = await scanWorkspace([ws], 2);
  assert.equal(capped.truncated, true);
  assert.equal(capped.files.size, 2);
});
