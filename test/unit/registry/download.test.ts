import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkUrl,
  downloadFile,
  fetchText,
  sameSha256,
  sha256File,
  urlPolicyFromEnv,
} from '../../../src/registry/download';
import { sha256 } from '../../support/archives';
import { serveRegistry } from '../../support/registryServer';

const LOOPBACK = { allowLoopbackHttp: true };
const STRICT = { allowLoopbackHttp: false };

test('only https is downloaded; http only from 127.0.0.1 and only when the tests allow it', () => {
  assert.equal(checkUrl('https://cdn.example/registry.json', STRICT).host, 'cdn.example');
  assert.throws(() => checkUrl('http://cdn.example/registry.json', STRICT), /only over https/);
  assert.throws(() => checkUrl('http://127.0.0.1:8080/r.json', STRICT), /only over https/);
  assert.equal(checkUrl('http://127.0.0.1:8080/r.json', LOOPBACK).port, '8080');
  assert.throws(() => checkUrl('http://localhost:8080/r.json', LOOPBACK), /only over https/);
  assert.throws(() => checkUrl('http://10.0.0.1/r.json', LOOPBACK), /only over https/);
  assert.throws(() => checkUrl('file:///etc/passwd', LOOPBACK), /only over https/);
  assert.throws(() => checkUrl('not a url', LOOPBACK), /not a URL/);
  assert.deepEqual(urlPolicyFromEnv({}), STRICT);
  assert.deepEqual(urlPolicyFromEnv({ TANDEM_REGISTRY_ALLOW_LOOPBACK_HTTP: '1' }), LOOPBACK);
});

test('a download is streamed to disk with its SHA-256 and size', async () => {
  const srv = await serveRegistry();
  try {
    const body = Buffer.alloc(300_000, 7);
    srv.set('/a.bin', body);
    const file = join(mkdtempSync(join(tmpdir(), 'tandem-dl-')), 'a.bin');
    const seen: number[] = [];
    const r = await downloadFile(`${srv.url}/a.bin`, file, {
      policy: LOOPBACK,
      maxBytes: 1_000_000,
      onProgress: (n) => seen.push(n),
    });
    assert.equal(r.bytes, body.length);
    assert.equal(r.sha256, sha256(body));
    assert.equal(await sha256File(file), sha256(body));
    assert.deepEqual(readFileSync(file), body);
    assert.equal(seen.at(-1), body.length);
  } finally {
    await srv.close();
  }
});

test('every redirect hop is checked: a redirect to plain http is refused', async () => {
  const srv = await serveRegistry();
  try {
    srv.set('/real.json', '{"ok":true}');
    srv.redirect('/moved.json', '/real.json');
    srv.redirect('/leak.json', 'http://example.invalid/x.json');
    assert.equal(await fetchText(`${srv.url}/moved.json`, { policy: LOOPBACK, maxBytes: 100 }), '{"ok":true}');
    await assert.rejects(fetchText(`${srv.url}/leak.json`, { policy: LOOPBACK, maxBytes: 100 }), /only over https/);
  } finally {
    await srv.close();
  }
});

test('a download larger than allowed fails; a missing one names the status', async () => {
  const srv = await serveRegistry();
  try {
    srv.set('/big', Buffer.alloc(5000));
    const file = join(mkdtempSync(join(tmpdir(), 'tandem-dl-')), 'big');
    await assert.rejects(
      downloadFile(`${srv.url}/big`, file, { policy: LOOPBACK, maxBytes: 1000 }),
      /more than the 1000/,
    );
    await assert.rejects(fetchText(`${srv.url}/nope`, { policy: LOOPBACK, maxBytes: 10 }), /answered 404/);
  } finally {
    await srv.close();
  }
});

test('a cancelled download stops', async () => {
  const srv = await serveRegistry();
  try {
    srv.set('/a', Buffer.alloc(100_000));
    const ac = new AbortController();
    ac.abort();
    const file = join(mkdtempSync(join(tmpdir(), 'tandem-dl-')), 'a');
    await assert.rejects(
      downloadFile(`${srv.url}/a`, file, { policy: LOOPBACK, maxBytes: 1e6, signal: ac.signal }),
      /abort/i,
    );
  } finally {
    await srv.close();
  }
});

test('checksums compare in any letter case', async () => {
  const f = join(mkdtempSync(join(tmpdir(), 'tandem-sha-')), 'x');
  writeFileSync(f, 'abc');
  const h = await sha256File(f);
  assert.equal(h, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.ok(sameSha256(h, h.toUpperCase()));
  assert.ok(!sameSha256(h, '0'.repeat(64)));
});
