// Builds the archives the registry tests download: zip and tar.gz written byte by byte, so a test
// can also make the bad ones no archiver would (an entry named ../x, an absolute path, a symlink
// out of the folder, a chain of links, a hard link, a device). Shared by the unit tests and the
// VS Code integration test.
import { createHash } from 'node:crypto';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface ArchiveEntry {
  name: string;
  /** File content (omit for a directory or a symlink). */
  data?: string | Buffer;
  /** Unix permission bits (default 0o644 for files, 0o755 for directories). */
  mode?: number;
  dir?: boolean;
  /** Makes the entry a symbolic link to this target. */
  symlink?: string;
  /** Makes the entry a hard link to this path (tar only: zip has no hard links). */
  hardlink?: string;
  /** Makes the entry a character or block device or a FIFO (no content). */
  special?: 'char' | 'block' | 'fifo';
  /** The uncompressed size the headers claim (default: the real one), to make a bomb cheaply. */
  declaredSize?: number;
}

const ZIP_TYPE = { char: 0o020000, block: 0o060000, fifo: 0o010000 } as const;
const TAR_TYPE = { char: '3', block: '4', fifo: '6' } as const;

export function sha256(buf: Buffer): string {
  return createHash('sha256').update(buf).digest('hex');
}

export function makeZip(entries: ArchiveEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.dir && !e.name.endsWith('/') ? `${e.name}/` : e.name, 'utf8');
    const raw = e.symlink !== undefined ? Buffer.from(e.symlink) : e.dir ? Buffer.alloc(0) : toBuf(e.data);
    const packed = raw.length ? deflateRawSync(raw) : raw;
    const method = raw.length ? 8 : 0;
    const type = e.symlink !== undefined ? 0o120000 : e.special ? ZIP_TYPE[e.special] : e.dir ? 0o040000 : 0o100000;
    const mode = type | (e.mode ?? (e.dir ? 0o755 : 0o644));
    const crc = crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.declaredSize ?? raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix: the external attributes hold the mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(e.declaredSize ?? raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export function makeTarGz(entries: ArchiveEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const link = e.symlink ?? e.hardlink;
    const data = link !== undefined || e.dir || e.special ? Buffer.alloc(0) : toBuf(e.data);
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write(octal(e.mode ?? (e.dir ? 0o755 : 0o644), 8), 100);
    h.write(octal(0, 8), 108);
    h.write(octal(0, 8), 116);
    h.write(octal(e.declaredSize ?? data.length, 12), 124);
    h.write(octal(1_700_000_000, 12), 136);
    const type = e.symlink !== undefined ? '2' : e.hardlink !== undefined ? '1' : e.special ? TAR_TYPE[e.special] : '';
    h.write(type || (e.dir ? '5' : '0'), 156);
    if (link !== undefined) h.write(link, 157, 100, 'utf8');
    h.write('ustar\u000000', 257, 'binary');
    h.fill(' ', 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'binary');
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\u0000`;
}

function toBuf(d: string | Buffer | undefined): Buffer {
  return Buffer.isBuffer(d) ? d : Buffer.from(d ?? '', 'utf8');
}
