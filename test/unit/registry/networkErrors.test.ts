// A failed connection is said in words, never as Node's code: real failures of Node's fetch
// (a self-signed certificate, one from an unknown authority, a refused connection, no answer in
// time) and the codes fetch reports for the rest (expired, DNS, timeouts, …). The code stays in
// the error's `detail`, which the log gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { fetchText } from '../../../src/registry/download';
import { NetworkError, networkErrorOf } from '../../../src/registry/networkErrors';
import { certificate, noOpenssl } from './certificates';

const HTTPS = { allowLoopbackHttp: false };

/** What fetchText of `url` failed with. */
async function failureOf(url: string, timeoutMs?: number): Promise<NetworkError> {
  const err = await fetchText(url, { policy: HTTPS, maxBytes: 1000, timeoutMs }).then(
    () => assert.fail(`${url} answered`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof NetworkError, `a NetworkError: ${String(err)}`);
  return err;
}

async function listening(server: Server | ReturnType<typeof createHttpsServer>): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

for (const [kind, title, code, words] of [
  [
    'self-signed',
    'a self-signed certificate',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    /^the server's certificate is self-signed, and this computer does not trust it$/,
  ],
  [
    'unknown-ca',
    'a certificate from an unknown authority',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    /could not be verified: this computer does not know the certificate authority/,
  ],
] as const) {
  test(`${title} is said in words; the code stays for the log`, { skip: noOpenssl }, async () => {
    const server = createHttpsServer(certificate(kind), (_req, res) => res.end('{}'));
    const port = await listening(server);
    try {
      const err = await failureOf(`https://127.0.0.1:${port}/registry.json`);
      assert.match(err.message, words);
      assert.doesNotMatch(err.message, /[A-Z]{3,}_/, 'no code in the words');
      assert.equal(err.code, code);
      assert.match(err.detail, new RegExp(`fetch failed: .*\\(${code}\\)`));
      assert.equal(err.untrusted, true, 'the message can point to the company-CA help');
      assert.equal(err.host, `127.0.0.1:${port}`);
    } finally {
      server.close();
    }
  });
}

test('a refused connection and a server that never answers are said in words', async () => {
  const closed = createTcpServer();
  const port = await listening(closed);
  await new Promise((r) => closed.close(r));
  const refused = await failureOf(`https://127.0.0.1:${port}/registry.json`);
  assert.equal(refused.message, 'the server refused the connection');
  assert.equal(refused.code, 'ECONNREFUSED');
  assert.equal(refused.untrusted, false);

  const silent = createTcpServer(() => undefined); // accepts, never answers
  const silentPort = await listening(silent);
  try {
    const timedOut = await failureOf(`https://127.0.0.1:${silentPort}/registry.json`, 1000);
    assert.equal(timedOut.message, 'the server did not answer within 1 second');
    assert.equal(timedOut.code, 'TimeoutError');
  } finally {
    silent.close();
  }
});

/** An error as Node's fetch rejects with it: "fetch failed", the reason in `cause`. */
function fetchFailed(code: string, message = `${code} from the socket`): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
}

test('the common TLS and network codes each become a sentence', () => {
  const expected: Record<string, RegExp> = {
    SELF_SIGNED_CERT_IN_CHAIN: /self-signed certificate authority this computer does not trust/,
    UNABLE_TO_GET_ISSUER_CERT_LOCALLY: /does not know the certificate authority/,
    CERT_HAS_EXPIRED: /^the server's certificate has expired$/,
    CERT_NOT_YET_VALID: /not valid yet \(is this computer's clock right\?\)/,
    ERR_TLS_CERT_ALTNAME_INVALID: /certificate is for another host name/,
    ENOTFOUND: /^the host name was not found/,
    EAI_AGAIN: /could not be looked up/,
    ECONNRESET: /connection was reset/,
    ETIMEDOUT: /^the connection timed out$/,
    UND_ERR_CONNECT_TIMEOUT: /^the connection timed out$/,
    EHOSTUNREACH: /cannot reach the server/,
    ENETUNREACH: /no network route/,
    EPROTO: /secure connection failed/,
  };
  for (const [code, words] of Object.entries(expected)) {
    const err = networkErrorOf(fetchFailed(code), 'cdn.example');
    assert.ok(err, code);
    assert.match(err.message, words, code);
    assert.ok(!err.message.includes(code), `${code}: not in the words`);
    assert.match(err.detail, new RegExp(`\\(${code}\\)$`), `${code}: in the detail`);
  }
  // Happy eyeballs: every address refused, the code on an AggregateError with no message.
  const all = new TypeError('fetch failed', {
    cause: Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' }),
  });
  assert.equal(networkErrorOf(all, 'h')?.message, 'the server refused the connection');
  // A code Tandem has no words for: the cause's own message.
  assert.equal(
    networkErrorOf(fetchFailed('EWHATEVER', 'odd failure'), 'h')?.message,
    'the connection failed: odd failure',
  );
});

test('what is not a failed connection is left alone: a cancel, an HTTP answer, Tandem’s own refusals', () => {
  assert.equal(
    networkErrorOf(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }), 'h'),
    undefined,
  );
  assert.equal(networkErrorOf(new Error('cdn.example answered 404 Not Found for /r.json'), 'h'), undefined);
  assert.equal(networkErrorOf(new Error('Tandem downloads only over https, not from ftp://x'), 'h'), undefined);
});
