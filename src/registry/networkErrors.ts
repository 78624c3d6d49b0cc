// Network and TLS failures in words. Node's fetch fails with "fetch failed" and keeps the reason
// in `cause.code` (DEPTH_ZERO_SELF_SIGNED_CERT, ENOTFOUND, ECONNREFUSED, …): the user reads what
// it means and what to do about it, the log keeps the code (`detail`).

/** What a code means, said of the server Tandem tried to reach. */
const WORDS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's certificate is self-signed, and this computer does not trust it",
  SELF_SIGNED_CERT_IN_CHAIN:
    "the server's certificate was issued by a self-signed certificate authority this computer does not trust",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "the server's certificate could not be verified: this computer does not know the certificate authority that issued it",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    "the server's certificate could not be verified: this computer does not know the certificate authority that issued it",
  UNABLE_TO_GET_ISSUER_CERT:
    "the server's certificate could not be verified: the certificate authority that issued it is unknown",
  CERT_UNTRUSTED: "the server's certificate is not trusted for this purpose",
  CERT_SIGNATURE_FAILURE: "the server's certificate has an invalid signature",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  CERT_NOT_YET_VALID: "the server's certificate is not valid yet (is this computer's clock right?)",
  CERT_REVOKED: "the server's certificate has been revoked",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate is for another host name",
  EPROTO: 'the secure connection failed (the server may not speak https, or something in between broke it)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the secure connection failed (the server does not speak https on that port)',
  ENOTFOUND: 'the host name was not found (check the address and the network connection)',
  EAI_AGAIN: 'the host name could not be looked up (no answer from DNS: is this computer offline?)',
  ECONNREFUSED: 'the server refused the connection',
  ECONNRESET: 'the connection was reset before the server answered',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'the server did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  EHOSTUNREACH: 'the network cannot reach the server',
  ENETUNREACH: 'there is no network route to the server (is this computer offline?)',
};

/** The codes that mean "this computer does not trust the certificate" (a company CA, a proxy that inspects TLS). */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/** A request to `host` failed on the way (no HTTP answer): `message` in words, `detail` for the log. */
export class NetworkError extends Error {
  /** Node's code (ECONNREFUSED, CERT_HAS_EXPIRED, …), or TimeoutError. */
  readonly code: string | undefined;
  /** The original message, its cause and the code: what the log keeps. */
  readonly detail: string;
  /** The certificate chain is not trusted here: a company CA may be missing from the system's store. */
  readonly untrusted: boolean;

  constructor(
    readonly host: string,
    code: string | undefined,
    words: string,
    detail: string,
  ) {
    super(words);
    this.name = 'NetworkError';
    this.code = code;
    this.detail = detail;
    this.untrusted = !!code && UNTRUSTED.has(code);
  }
}

/**
 * `err` as a NetworkError when it is a failure of the connection to `host` (fetch's "fetch
 * failed" or "terminated", a timeout, a known code); undefined for anything else (an HTTP
 * answer, a cancel by the user, Tandem's own refusals).
 */
export function networkErrorOf(err: unknown, host: string, timeoutMs?: number): NetworkError | undefined {
  if (err instanceof NetworkError) return err;
  if (!(err instanceof Error) || err.name === 'AbortError') return undefined;
  const cause = (err as { cause?: unknown }).cause as { code?: unknown; message?: unknown } | undefined;
  const code = codeOf(err) ?? codeOf(cause);
  const causeText = typeof cause?.message === 'string' && cause.message ? cause.message : undefined;
  const detail = `${[err.message, causeText].filter(Boolean).join(': ')}${code ? ` (${code})` : ''}`;
  if (err.name === 'TimeoutError' || code === 'TimeoutError') {
    const s = timeoutMs && timeoutMs >= 1000 ? Math.round(timeoutMs / 1000) : undefined;
    const within = s ? ` within ${s} second${s === 1 ? '' : 's'}` : ' in time';
    return new NetworkError(host, 'TimeoutError', `the server did not answer${within}`, detail);
  }
  if (code && WORDS[code]) return new NetworkError(host, code, WORDS[code], detail);
  if (err.message === 'fetch failed' || err.message === 'terminated') {
    return new NetworkError(host, code, `the connection failed${causeText ? `: ${causeText}` : ''}`, detail);
  }
  return undefined;
}

function codeOf(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code ? code : undefined;
}

/** A network or TLS code in words, and whether it means an untrusted certificate; undefined when unknown. */
export function wordsForCode(code: string): { words: string; untrusted: boolean } | undefined {
  return WORDS[code] ? { words: WORDS[code], untrusted: UNTRUSTED.has(code) } : undefined;
}
