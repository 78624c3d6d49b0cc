// Downloads for the registry: only https, every redirect hop checked again (GitHub release assets
// redirect to another host), with a size cap, cancellation, and the SHA-256 computed while the
// bytes are written. Plain http is allowed for 127.0.0.1 only, and only when the tests ask for it
// (TANDEM_REGISTRY_ALLOW_LOOPBACK_HTTP=1): no setting a workspace or a user could flip by mistake.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { networkErrorOf } from './networkErrors';

export const LOOPBACK_HTTP_ENV = 'TANDEM_REGISTRY_ALLOW_LOOPBACK_HTTP';

export interface UrlPolicy {
  /** Allow http://127.0.0.1 (tests serve an index and archives there). */
  allowLoopbackHttp: boolean;
}

export function urlPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): UrlPolicy {
  return { allowLoopbackHttp: env[LOOPBACK_HTTP_ENV] === '1' };
}

/** The URL, parsed, when Tandem may download from it; otherwise a clear error. */
export function checkUrl(url: string, policy: UrlPolicy): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a URL`);
  }
  if (u.protocol === 'https:') return u;
  if (u.protocol === 'http:' && policy.allowLoopbackHttp && u.hostname === '127.0.0.1') return u;
  throw new Error(`Tandem downloads only over https, not from ${u.protocol}//${u.host}`);
}

export interface FetchOptions {
  policy: UrlPolicy;
  signal?: AbortSignal;
  /** Gives up after this long without the response headers. */
  timeoutMs?: number;
}

const MAX_REDIRECTS = 5;

/** GET with redirects followed by hand, so that every hop passes `checkUrl`. */
export async function fetchChecked(url: string, o: FetchOptions): Promise<Response> {
  let current = checkUrl(url, o.policy);
  for (let hop = 0; ; hop++) {
    const signals = [o.signal, o.timeoutMs ? AbortSignal.timeout(o.timeoutMs) : undefined].filter(
      (s): s is AbortSignal => !!s,
    );
    const res = await fetch(current, {
      redirect: 'manual',
      signal: signals.length ? AbortSignal.any(signals) : undefined,
      headers: { 'user-agent': 'Tandem (ACP client for VS Code)' },
    }).catch((err: unknown) => {
      throw networkErrorOf(err, current.host, o.timeoutMs) ?? err;
    });
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new Error(`too many redirects from ${url}`);
      current = checkUrl(new URL(res.headers.get('location')!, current).toString(), o.policy);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`${current.host} answered ${res.status} ${res.statusText} for ${current.pathname}`);
    }
    return res;
  }
}

/** A small text resource (the index, an icon), refused when larger than `maxBytes`. */
export async function fetchText(url: string, o: FetchOptions & { maxBytes: number }): Promise<string> {
  const res = await fetchChecked(url, o);
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of Readable.fromWeb(res.body! as import('node:stream/web').ReadableStream)) {
      n += (chunk as Buffer).length;
      if (n > o.maxBytes) throw new Error(`${url} is larger than ${o.maxBytes} bytes`);
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw networkErrorOf(err, new URL(res.url || url).host, o.timeoutMs) ?? err;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface DownloadOptions extends FetchOptions {
  maxBytes: number;
  /** Bytes so far and the announced total (0 when the server did not say). */
  onProgress?: (received: number, total: number) => void;
}

/** Streams `url` into `file`; resolves with the SHA-256 (hex) of what was written and its size. */
export async function downloadFile(
  url: string,
  file: string,
  o: DownloadOptions,
): Promise<{ sha256: string; bytes: number }> {
  const res = await fetchChecked(url, o);
  const total = Number(res.headers.get('content-length') ?? 0) || 0;
  if (total > o.maxBytes) {
    await res.body?.cancel();
    throw new Error(`the download is ${total} bytes, more than the ${o.maxBytes} Tandem accepts`);
  }
  const hash = createHash('sha256');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > o.maxBytes)
        return done(new Error(`the download is larger than the ${o.maxBytes} bytes Tandem accepts`));
      hash.update(chunk);
      o.onProgress?.(bytes, total);
      done(null, chunk);
    },
  });
  await pipeline(
    Readable.fromWeb(res.body! as import('node:stream/web').ReadableStream),
    count,
    createWriteStream(file, { mode: 0o600 }),
    { signal: o.signal },
  ).catch((err: unknown) => {
    throw networkErrorOf(err, new URL(res.url || url).host, o.timeoutMs) ?? err;
  });
  return { sha256: hash.digest('hex'), bytes };
}

/** The SHA-256 (hex) of a file on disk. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Whether `actual` is the expected checksum (hex, any case). */
export function sameSha256(actual: string, expected: string): boolean {
  return actual.toLowerCase() === expected.toLowerCase();
}
