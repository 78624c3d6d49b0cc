// What the checkpoints cost stays in proportion: a save writes what changed (the manifest's
// journal), stored copies nothing needs are freed without a session being deleted, a reload reads
// no file content until it is asked for, and the storage-full message names a real way out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BlobStore } from '../../../src/checkpoints/blobStore';
import { repoRoot } from '../../support/paths';
import { clockPast, harness, S } from './harness';

async function workspaceOf(files: number) {
  const h = await harness();
  for (let i = 0; i < files; i++) writeFileSync(join(h.ws, `f${i}.txt`), `file ${i}\n`);
  await clockPast(h.ws);
  await h.store.prepare();
  await h.store.whenIdle();
  return h;
}

test('saving one file appends it to the manifest journal instead of rewriting the manifest', async () => {
  const h = await workspaceOf(200);
  const manifest = join(h.dir, 'manifest.json');
  const whole = readFileSync(manifest, 'utf8');
  writeFileSync(join(h.ws, 'f7.txt'), 'edited by the user\n');
  await h.store.noteSaved(join(h.ws, 'f7.txt'));
  assert.equal(readFileSync(manifest, 'utf8'), whole, 'the whole manifest is not rewritten');
  const journal = readFileSync(join(h.dir, 'manifest.journal'), 'utf8');
  assert.ok(journal.length < 400, `one entry's worth: ${journal.length} bytes`);
  // A crash mid-append: the torn line is ignored, the entry before it is not.
  appendFileSync(join(h.dir, 'manifest.journal'), '["/torn", 12, 1');
  const r = await h.reopen();
  r.prompt();
  await r.endTurn();
  assert.deepEqual(r.tracker.changes(S, 0), [], 'the reloaded manifest knows the saved file');
  assert.deepEqual(r.warnings, []);
});

test('the journal is folded into the manifest before it grows past a quarter of it', async () => {
  const h = await workspaceOf(20);
  const manifest = join(h.dir, 'manifest.json');
  const journal = join(h.dir, 'manifest.journal');
  for (let i = 0; i < 30; i++) {
    const f = join(h.ws, `f${i % 20}.txt`);
    writeFileSync(f, `edit ${i}\n`);
    await h.store.noteSaved(f);
    const j = existsSync(journal) ? statSync(journal).size : 0;
    assert.ok(j <= statSync(manifest).size / 4, `save ${i}: journal ${j} bytes`);
  }
  const r = await h.reopen();
  r.prompt();
  await r.endTurn();
  assert.deepEqual(r.tracker.changes(S, 0), [], 'every save survives the compactions');
});

test('copies nothing refers to are freed when the store opens, without deleting a session', async () => {
  const h = await harness();
  writeFileSync(join(h.ws, 'a.txt'), 'v0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(join(h.ws, 'a.txt'), 'v1\n');
  await h.endTurn();
  const orphan = await h.store.blobs.put(Buffer.from('left by a crash'));
  const r = await h.reopen();
  await r.store.whenIdle();
  assert.equal(await r.store.blobs.has(orphan), false, 'the orphan is gone');
  assert.equal(new TextDecoder().decode(r.tracker.get(S, 0, join(h.ws, 'a.txt'))!.before!), 'v0\n');
});

test('a reload puts the changes back into Review Changes without reading their content', async () => {
  const h = await harness();
  for (let i = 0; i < 5; i++) writeFileSync(join(h.ws, `f${i}.txt`), `old ${i}\n`);
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  for (let i = 0; i < 5; i++) await h.write(join(h.ws, `f${i}.txt`), `new ${i}\n`);
  await h.endTurn();
  const get = BlobStore.prototype.get;
  const getSync = BlobStore.prototype.getSync;
  let reads = 0;
  BlobStore.prototype.get = function (sha) {
    reads++;
    return get.call(this, sha);
  };
  BlobStore.prototype.getSync = function (sha) {
    reads++;
    return getSync.call(this, sha);
  };
  try {
    const r = await h.reopen();
    assert.equal(r.tracker.changes(S, 0).length, 5);
    assert.equal(reads, 0, 'no stored copy read at activation');
    const c = r.tracker.get(S, 0, join(h.ws, 'f3.txt'))!;
    assert.equal(new TextDecoder().decode(c.before!), 'old 3\n', 'read when asked');
    assert.equal(reads, 1);
  } finally {
    BlobStore.prototype.get = get;
    BlobStore.prototype.getSync = getSync;
  }
});

test('the storage-full message names a command that exists', async () => {
  const h = await harness({ maxTotalBytes: 2048 });
  writeFileSync(join(h.ws, 'one.bin'), randomBytes(1500));
  writeFileSync(join(h.ws, 'two.bin'), randomBytes(1500));
  await clockPast(h.ws);
  await h.store.prepare();
  const full = h.warnings.find((w) => w.startsWith('Checkpoint storage is full'));
  assert.ok(full, h.warnings.join('\n'));
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const titles: string[] = pkg.contributes.commands.map((c: { title: string }) => `Tandem: ${c.title}`);
  const named = /\((Tandem: [^)]+)\)/.exec(full)?.[1];
  assert.ok(named && titles.includes(named), `names a real command: ${full}`);
  assert.doesNotMatch(full, /raise the limit/, 'there is no limit setting');
});
