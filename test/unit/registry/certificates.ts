// Test certificates for 127.0.0.1, made with openssl when the machine has it: self-signed, or
// issued by a test certificate authority that nothing trusts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A `skip` reason for node:test when openssl is missing. */
export const noOpenssl = hasOpenssl() ? false : 'needs openssl to make test certificates';

export function certificate(kind: 'self-signed' | 'unknown-ca'): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-cert-'));
  const f = (n: string) => join(dir, n);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const days = ['-days', '2'];
  const run = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  if (kind === 'self-signed') {
    run(['req', '-x509', ...ec, ...days, '-keyout', f('key.pem'), '-out', f('cert.pem'), '-subj', '/CN=127.0.0.1']);
  } else {
    run(['req', '-x509', ...ec, ...days, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-subj', '/CN=Tandem Test CA']);
    run(['req', ...ec, '-keyout', f('key.pem'), '-out', f('leaf.csr'), '-subj', '/CN=127.0.0.1']);
    writeFileSync(f('ext'), 'subjectAltName=IP:127.0.0.1\n');
    const ca = ['-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial'];
    run(['x509', '-req', ...days, '-in', f('leaf.csr'), ...ca, '-out', f('cert.pem'), '-extfile', f('ext')]);
  }
  return { key: readFileSync(f('key.pem')), cert: readFileSync(f('cert.pem')) };
}
