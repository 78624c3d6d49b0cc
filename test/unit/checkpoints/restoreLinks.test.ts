// "Restore to here" after a file or a folder was replaced by a symlink (a command, a `git
// checkout` of a branch with a link): real temp folders, real links. Nothing is written through a
// link: a file that is now a link becomes a regular file again and the link's target keeps its
// content; a folder that is now a link refuses its files, with the reason in the plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { applyRestore, planRestore } from '../../../src/checkpoints/restore';
import { restoreFileItems } from '../../../src/checkpoints/restoreChoices';
import { clockPast, harness, S, type Harness } from './harness';

const cpOf = (h: Harness, turn: number) => h.store.session(S).timeline.ofTurn(turn)!.id;

/** A file outside the workspace standing in for ~/.ssh/authorized_keys. */
function outsideFile(h: Harness): string {
  const dir = join(h.root, 'home', '.ssh');
  mkdirSync(dir, { recursive: true });
  const keys = join(dir, 'authorized_keys');
  writeFileSync(keys, 'ssh-ed25519 KEEP\n');
  return keys;
}

/** Turn 1: the agent edits `file` (c0 → c1). */
async function agentEdits(h: Harness, file: string): Promise<void> {
  writeFileSync(file, 'c0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(file, 'c1\n');
  await h.endTurn();
}

test('a file replaced by a symlink since the checkpoint is restored as a regular file; the link target is untouched', async () => {
  const h = await harness();
  const keys = outsideFile(h);
  const config = join(h.ws, 'config.json');
  await agentEdits(h, config);
  h.prompt(); // turn 2: a command replaces the file with a link
  rmSync(config);
  symlinkSync(keys, config);
  await h.endTurn();

  const plan = await planRestore(h.store, S, cpOf(h, 0), new Set());
  const result = await applyRestore(h.store, plan);
  assert.equal(readFileSync(keys, 'utf8'), 'ssh-ed25519 KEEP\n', "the link's target keeps its content");
  assert.ok(lstatSync(config).isFile(), 'config.json is a regular file again');
  assert.equal(readFileSync(config, 'utf8'), 'c0\n');
  assert.deepEqual(result.failed, []);
  const entry = plan.files.find((f) => f.path === config)!;
  assert.equal(entry.action, 'write');
  assert.equal(entry.link, keys, 'the plan says the file is a link now');
  assert.match(
    restoreFileItems(plan).find((i) => i.file.path === config)!.description,
    /symbolic link to .*authorized_keys: the link is replaced by a regular file/,
  );
});

test('a folder replaced by a symlink to outside the workspace: its files are refused with the reason, nothing is written outside', async () => {
  const h = await harness();
  const keys = outsideFile(h);
  mkdirSync(join(h.ws, 'docs'));
  const inDocs = join(h.ws, 'docs', 'authorized_keys');
  await agentEdits(h, inDocs);
  h.prompt(); // turn 2: `git checkout` of a branch where docs is a link
  rmSync(join(h.ws, 'docs'), { recursive: true });
  symlinkSync(join(h.root, 'home', '.ssh'), join(h.ws, 'docs'));
  await h.endTurn();

  const plan = await planRestore(h.store, S, cpOf(h, 0), new Set());
  const result = await applyRestore(h.store, plan);
  assert.equal(readFileSync(keys, 'utf8'), 'ssh-ed25519 KEEP\n', 'nothing written outside');
  assert.deepEqual(result.restored, []);
  assert.match(result.skipped[0].reason, /never writes through a link/);
  const entry = plan.files.find((f) => f.path === inDocs)!;
  assert.equal(entry.action, 'cannot');
  assert.match(
    entry.reason!,
    /docs\/authorized_keys: the folder docs is now a symbolic link to .*\.ssh, outside the workspace/,
  );
});

test('a link that appears while the user looks at the plan is not written through either', async () => {
  const h = await harness();
  const keys = outsideFile(h);
  const config = join(h.ws, 'config.json');
  mkdirSync(join(h.ws, 'docs'));
  const inDocs = join(h.ws, 'docs', 'notes.txt');
  writeFileSync(inDocs, 'n0\n');
  await agentEdits(h, config);
  h.prompt();
  await h.write(inDocs, 'n1\n');
  await h.endTurn();

  const plan = await planRestore(h.store, S, cpOf(h, 0), new Set());
  assert.deepEqual(
    plan.files.map((f) => [f.label, f.action]),
    [
      ['config.json', 'write'],
      ['docs/notes.txt', 'write'],
    ],
  );
  // Between the plan and the user's choice: both are swapped for links to the outside.
  rmSync(config);
  symlinkSync(keys, config);
  renameSync(join(h.ws, 'docs'), join(h.root, 'docs-moved'));
  symlinkSync(join(h.root, 'home', '.ssh'), join(h.ws, 'docs'));
  const result = await applyRestore(h.store, plan);
  assert.equal(readFileSync(keys, 'utf8'), 'ssh-ed25519 KEEP\n', "the link's target keeps its content");
  assert.deepEqual(readdirSync(join(h.root, 'home', '.ssh')), ['authorized_keys'], 'nothing created outside');
  assert.ok(lstatSync(config).isFile());
  assert.equal(readFileSync(config, 'utf8'), 'c0\n');
  assert.deepEqual(result.restored, [config]);
  assert.equal(result.failed.length, 1);
  assert.match(result.failed[0].error, /the folder docs is now a symbolic link/);
});

test('a link created after the checkpoint where no file was is removed, and its target stays', async () => {
  const h = await harness();
  const keys = outsideFile(h);
  const made = join(h.ws, 'made.txt');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(made, 'new\n'); // created in turn 1
  await h.endTurn();
  rmSync(made);
  symlinkSync(keys, made);

  const plan = await planRestore(h.store, S, cpOf(h, 0), new Set());
  assert.deepEqual(
    plan.files.map((f) => [f.label, f.action, f.link]),
    [['made.txt', 'delete', keys]],
  );
  await applyRestore(h.store, plan);
  assert.equal(readFileSync(keys, 'utf8'), 'ssh-ed25519 KEEP\n');
  assert.throws(() => lstatSync(made), /ENOENT/, 'the link is gone');
});
