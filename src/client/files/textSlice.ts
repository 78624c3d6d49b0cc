// Small pure helpers of fs/read_text_file: line/limit slicing and text decoding.

/**
 * Lines `line` (1-based) .. `line + limit - 1` of `text`, line endings kept. A start past the
 * end gives '' (not an error: agents page through files and stop on an empty answer).
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  const start = Math.max(1, Math.floor(line ?? 1));
  const hasLimit = limit !== undefined && limit !== null;
  if (start === 1 && !hasLimit) return text;
  const count = hasLimit ? Math.max(0, Math.floor(limit)) : Infinity;
  if (count === 0) return '';
  // Walk line starts without splitting the whole file.
  let pos = 0;
  for (let l = 1; l < start; l++) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0) return '';
    pos = nl + 1;
  }
  if (pos >= text.length) return '';
  if (count === Infinity) return text.slice(pos);
  let end = pos;
  for (let i = 0; i < count; i++) {
    const nl = text.indexOf('\n', end);
    if (nl < 0) return text.slice(pos);
    end = nl + 1;
  }
  return text.slice(pos, end);
}

export type DecodeResult = { ok: true; text: string } | { ok: false; reason: 'binary' };

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const utf16le = new TextDecoder('utf-16le');
const utf16be = new TextDecoder('utf-16be');

/**
 * Decodes a file for an agent: UTF-8 (BOM dropped) or UTF-16 with a BOM. A NUL byte in the
 * first 8 KiB or invalid UTF-8 means binary: the agent gets an error, never garbage.
 */
export function decodeText(bytes: Uint8Array): DecodeResult {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return { ok: true, text: utf16le.decode(bytes.subarray(2)) };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return { ok: true, text: utf16be.decode(bytes.subarray(2)) };
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return { ok: false, reason: 'binary' };
  try {
    return { ok: true, text: fatalUtf8.decode(bytes) };
  } catch {
    return { ok: false, reason: 'binary' };
  }
}

/** Human size: 1536 → "1.5 KB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
