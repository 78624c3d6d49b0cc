import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveCommand, unpack } from '../../../src/registry/archive';
import type { ArchiveFormat } from '../../../src/registry/plan';
import { makeTarGz, makeZip, type ArchiveEntry } from '../../support/archives';
import { tinyAgentFiles } from '../../support/registryServer';

const isWin = process.platform === 'win32';

async function unpackInto(format: ArchiveFormat, entries: ArchiveEntry[]): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'tandem-unpack-'));
  const file = join(root, 'download');
  writeFileSync(file, format === 'zip' ? makeZip(entries) : makeTarGz(entries));
  const dest = join(root, 'files');
  mkdirSync(dest);
  await unpack(file, format, dest, './agent');
  return dest;
}

for (const format of ['tar.gz', 'zip'] as const) {
  test(`${format}: files, folders and the executable bit come out as packed`, async () => {
    const dest = await unpackInto(format, tinyAgentFiles('console.log("hi")'));
    assert.equal(readFileSync(join(dest, 'lib/agent.js'), 'utf8'), 'console.log("hi")');
    assert.match(readFileSync(join(dest, 'bin/agent'), 'utf8'), /exec node/);
    if (!isWin) assert.ok(statSync(join(dest, 'bin/agent')).mode & 0o100, 'bin/agent is executable');
    assert.equal(await resolveCommand(dest, './bin/agent'), join(dest, 'bin/agent'));
  });

  test(`${format}: an entry that climbs out of the folder fails the unpack and writes nothing outside`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'tandem-unpack-'));
    const file = join(root, 'download');
    const entries = [
      { name: 'ok.txt', data: 'ok' },
      { name: '../escaped.txt', data: 'evil' },
    ];
    writeFileSync(file, format === 'zip' ? makeZip(entries) : makeTarGz(entries));
    mkdirSync(join(root, 'files'));
    await assert.rejects(unpack(file, format, join(root, 'files'), './x'), /\.\.|outside|path/);
    assert.ok(!existsSync(join(root, 'escaped.txt')));
  });

  test(`${format}: an absolute path is refused`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'tandem-unpack-'));
    const file = join(root, 'download');
    const target = join(root, 'abs.txt');
    writeFileSync(
      file,
      format === 'zip' ? makeZip([{ name: target, data: 'x' }]) : makeTarGz([{ name: target, data: 'x' }]),
    );
    mkdirSync(join(root, 'files'));
    await assert.rejects(unpack(file, format, join(root, 'files'), './x'), /absolute|path/);
    assert.ok(!existsSync(target));
  });
}

test('zip: a symlink inside the folder is kept, one pointing out of it is refused', async () => {
  if (isWin) return;
  const dest = await unpackInto('zip', [
    { name: 'real/agent', data: '#!/bin/sh\n', mode: 0o755 },
    { name: 'agent', symlink: 'real/agent' },
  ]);
  assert.ok(lstatSync(join(dest, 'agent')).isSymbolicLink());
  assert.equal(readlinkSync(join(dest, 'agent')), 'real/agent');
  assert.equal(await resolveCommand(dest, './agent'), join(dest, 'agent'));
  await assert.rejects(unpackInto('zip', [{ name: 'agent', symlink: '../../../etc/passwd' }]), /outside/);
});

test('tar.gz: a symlink out of the folder fails the unpack', async () => {
  if (isWin) return;
  const outside = (why: string) =>
    `the archive was refused because it tried to write outside its folder (entry "agent": ${why})`;
  await assert.rejects(unpackInto('tar.gz', [{ name: 'agent', symlink: '/bin/sh' }]), {
    message: outside('a link to the absolute path /bin/sh'),
  });
  await assert.rejects(unpackInto('tar.gz', [{ name: 'agent', symlink: '../../../bin/sh' }]), {
    message: outside('a link to ../../../bin/sh, which leads outside'),
  });
});

test('a command that resolves out of the folder is not run', async () => {
  if (isWin) return;
  const dest = await unpackInto('tar.gz', [{ name: 'a.txt', data: 'a' }]);
  symlinkSync('/bin/sh', join(dest, 'agent'));
  await assert.rejects(resolveCommand(dest, './agent'), /outside/);
});

test('a raw download is the executable itself, placed under the command name', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tandem-unpack-'));
  writeFileSync(join(root, 'download'), '#!/bin/sh\necho raw\n');
  mkdirSync(join(root, 'files'));
  await unpack(join(root, 'download'), 'raw', join(root, 'files'), './bin/the-agent');
  const cmd = await resolveCommand(join(root, 'files'), './bin/the-agent');
  assert.equal(readFileSync(cmd, 'utf8'), '#!/bin/sh\necho raw\n');
  if (!isWin) assert.ok(statSync(cmd).mode & 0o100, 'made executable');
});

test("the registry's command must exist inside the folder", async () => {
  const dest = await unpackInto('tar.gz', [{ name: 'a.txt', data: 'a' }]);
  await assert.rejects(resolveCommand(dest, './missing'), /has no \.\/missing/);
  await assert.rejects(resolveCommand(dest, '../a.txt'), /outside/);
  await assert.rejects(resolveCommand(dest, '/bin/sh'), /absolute/);
  assert.equal(await resolveCommand(dest, '.\\a.txt'), join(dest, 'a.txt'), 'Windows separators in cmd');
});

test('a corrupt archive fails with an error, not a crash', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tandem-unpack-'));
  writeFileSync(join(root, 'download'), 'this is not an archive');
  mkdirSync(join(root, 'files'));
  await assert.rejects(unpack(join(root, 'download'), 'zip', join(root, 'files'), './x'));
  await assert.rejects(unpack(join(root, 'download'), 'tar.gz', join(root, 'files'), './x'));
});
