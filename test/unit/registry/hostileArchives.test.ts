// Hostile archives: what an attacker who controls a download (and so its SHA-256 in the registry)
// could pack to write, or point, outside the install folder, or to fill the disk. Each is refused,
// and nothing is written anywhere but the install folder. Both formats get the same archive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { UNPACK_LIMITS, unpack, type UnpackLimits } from '../../../src/registry/archive';
import { ContainedFolder } from '../../../src/registry/contained';
import type { ArchiveFormat } from '../../../src/registry/plan';
import { makeTarGz, makeZip, type ArchiveEntry } from '../../support/archives';

const skip = process.platform === 'win32' ? 'symbolic links need privileges on Windows' : undefined;
const formats = ['zip', 'tar.gz'] as const;

/**
 * Unpacks into <top>/home/user/store/install (three folders deep, so a climb has somewhere to go)
 * and resolves with the error, and every path written outside the install folder.
 */
async function tryUnpack(format: ArchiveFormat, entries: ArchiveEntry[], limits?: UnpackLimits) {
  const top = mkdtempSync(join(tmpdir(), 'tandem-hostile-'));
  const dest = join(top, 'home/user/store/install');
  mkdirSync(dest, { recursive: true });
  const file = join(top, 'download');
  writeFileSync(file, format === 'zip' ? makeZip(entries) : makeTarGz(entries));
  const error = await unpack(file, format, dest, './agent', limits).then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  const outside = list(top).filter((p) => !p.startsWith('home/user/store/install'));
  const expected = ['download', 'home', 'home/user', 'home/user/store'];
  return { error, dest, stray: outside.filter((p) => !expected.includes(p)), inside: list(dest) };
}

function list(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return [relative(root, p), ...(e.isDirectory() ? list(p, root) : [])];
  });
}

/** `a/`, then `a/b -> ..`, `a/b/c -> ..`, … `levels` links deep, then a file under the last one. */
function chain(levels: number): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [{ name: 'a/', dir: true }];
  let path = 'a';
  for (let i = 0; i < levels; i++) {
    path += `/${String.fromCharCode(98 + i)}`;
    entries.push({ name: path, symlink: '..' });
  }
  return [...entries, { name: `${path}/PWNED.txt`, data: 'echo pwned' }];
}

for (const format of formats) {
  test(
    `${format}: a symlink chain that climbs out of the install folder is refused and writes nothing outside`,
    { skip },
    async () => {
      for (const levels of [2, 3, 4]) {
        const r = await tryUnpack(format, chain(levels));
        assert.match(
          r.error ?? 'unpacked',
          /outside its folder \(entry "a\/b\/c": it is written through a symbolic link\)/,
          `${levels} links`,
        );
        assert.deepEqual(r.stray, [], `${levels} links: nothing outside`);
      }
    },
  );

  test(`${format}: a link that leads out only through another link is refused`, { skip }, async () => {
    // a/l -> .. is the install folder itself; m -> a/l/.. is its parent, though "a/l/.." reads as "a".
    const r = await tryUnpack(format, [
      { name: 'a/', dir: true },
      { name: 'a/l', symlink: '..' },
      { name: 'm', symlink: 'a/l/..' },
    ]);
    assert.match(r.error ?? 'unpacked', /outside its folder \(entry "m": a link to a\/l\/\.\., which leads outside\)/);
    // And a link that was harmless when made cannot be turned outward by a link made after it.
    const later = await tryUnpack(format, [
      { name: 'p', symlink: 'q/../x' },
      { name: 'a/', dir: true },
      { name: 'a/l', symlink: '..' },
      { name: 'q', symlink: 'a/l' },
    ]);
    assert.match(
      later.error ?? 'unpacked',
      /tried to write outside its folder \(entry "\w": (a link|it is written through a symbolic link)/,
    );
  });

  test(`${format}: a later entry cannot turn a folder into a link and write through it`, { skip }, async () => {
    for (const entries of [
      [
        { name: 'a/', dir: true },
        { name: 'a', symlink: '..' },
        { name: 'a/PWNED.txt', data: 'x' },
      ],
      [
        { name: 'a/x', data: '1' },
        { name: 'a', symlink: '..' },
        { name: 'a/PWNED.txt', data: 'x' },
      ],
      [
        { name: 'sub/', dir: true },
        { name: 'a', symlink: 'sub' },
        { name: 'a/x', data: 'through a link' },
      ],
    ]) {
      const r = await tryUnpack(format, entries);
      assert.ok(r.error, `refused: ${entries.map((e) => e.name).join(', ')}`);
      assert.deepEqual(r.stray, []);
      assert.ok(!r.inside.includes('sub/x'), 'nothing written through the inside link either');
    }
  });

  test(`${format}: absolute, drive-letter and climbing names are refused`, async () => {
    for (const name of ['/tmp/tandem-abs.txt', 'C:/evil.txt', '../evil.txt', 'a/../../evil.txt', 'a/../../../../x']) {
      const r = await tryUnpack(format, [{ name, data: 'x' }]);
      assert.match(
        r.error ?? 'unpacked',
        /^the archive was refused because it tried to write outside its folder \(entry "/,
        name,
      );
      assert.ok(r.error!.includes(name), `${name}: the entry is named`);
      assert.deepEqual(r.stray, [], `${name}: nothing outside`);
    }
  });

  test(`${format}: devices and FIFOs are refused`, async () => {
    for (const special of ['char', 'block', 'fifo'] as const) {
      const r = await tryUnpack(format, [{ name: 'dev', special }]);
      assert.match(r.error ?? 'unpacked', /special file|Device|FIFO/, special);
      assert.ok(!r.inside.includes('dev'));
    }
  });

  test(`${format}: an archive past the size limit fails before it is written out`, async () => {
    const limits = { maxBytes: 64 * 1024, maxEntries: 100 };
    const big = Buffer.alloc(200 * 1024); // zeros: a few hundred bytes packed
    const r = await tryUnpack(format, [{ name: 'big.bin', data: big }], limits);
    assert.match(r.error ?? 'unpacked', /more than 65536 bytes/);
    // The same archive passes the default limit: the limit is what refused it.
    assert.equal((await tryUnpack(format, [{ name: 'big.bin', data: big }])).error, undefined);
  });

  test(`${format}: an entry that claims more than the limit is refused before anything is written`, async () => {
    const r = await tryUnpack(format, [
      { name: 'first.txt', data: 'x' },
      { name: 'bomb.bin', data: 'x', declaredSize: UNPACK_LIMITS.maxBytes + 1 },
    ]);
    assert.match(r.error ?? 'unpacked', /more than 2147483648 bytes/);
    assert.ok(!r.inside.includes('bomb.bin'));
  });

  test(`${format}: an archive with more entries than the limit is refused`, async () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: '' }));
    const r = await tryUnpack(format, entries, { maxBytes: UNPACK_LIMITS.maxBytes, maxEntries: 20 });
    assert.match(r.error ?? 'unpacked', /more than 20 entries/);
  });

  test(`${format}: a file that comes twice is refused`, async () => {
    const r = await tryUnpack(format, [
      { name: 'agent', data: 'first' },
      { name: 'agent', data: 'second' },
    ]);
    if (format === 'zip') assert.match(r.error ?? 'unpacked', /twice/);
    // node-tar replaces the file (tar's "last one wins"); either way nothing goes outside.
    assert.deepEqual(r.stray, []);
  });
}

test('zip: backslash names are refused, never turned into folders', async () => {
  for (const name of ['..\\evil.txt', 'a\\..\\..\\evil.txt', 'C:\\evil.txt']) {
    const r = await tryUnpack('zip', [{ name, data: 'x' }]);
    assert.ok(r.error, `${name} refused`);
    assert.deepEqual(r.stray, []);
  }
});

test('tar.gz: hard links are kept inside the folder and refused when they lead out', { skip }, async () => {
  const ok = await tryUnpack('tar.gz', [
    { name: 'x', data: 'x' },
    { name: 'agent', hardlink: 'x' },
  ]);
  assert.equal(ok.error, undefined);
  assert.deepEqual(ok.inside.sort(), ['agent', 'x']);
  for (const hardlink of ['/etc/passwd', '../../download', 'l/../../download']) {
    const r = await tryUnpack('tar.gz', [
      { name: 'l', symlink: '.' },
      { name: 'agent', hardlink },
    ]);
    assert.ok(r.error, `${hardlink} refused`);
    assert.deepEqual(r.stray, []);
  }
});

test('the last walk refuses a file that shares its inode with a file outside the folder', { skip }, async () => {
  const top = mkdtempSync(join(tmpdir(), 'tandem-hostile-'));
  mkdirSync(join(top, 'install/inner'), { recursive: true });
  writeFileSync(join(top, 'secret'), 'key');
  linkSync(join(top, 'secret'), join(top, 'install/inner/agent'));
  await assert.rejects(
    (await ContainedFolder.open(join(top, 'install'))).verify(),
    /outside its folder \(entry "inner.agent": a hard link to a file outside\)/,
  );
  // Two names for one file, both inside: fine.
  const inside = mkdtempSync(join(tmpdir(), 'tandem-hostile-'));
  writeFileSync(join(inside, 'a'), 'a');
  linkSync(join(inside, 'a'), join(inside, 'b'));
  await (await ContainedFolder.open(inside)).verify();
});
