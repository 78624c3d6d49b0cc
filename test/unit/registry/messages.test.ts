// What the registry's notifications say when something fails, from real failures where the
// machine can make them: the index that cannot load (said once, with the setting and the buttons
// that help), a hostile archive (refused in words, naming the entry), npm's failure (a short
// reason; npm's output and its log's path stay in the log), and an update (the agent's name, and
// that the installed version stays).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../../../src/client/agents/agentPresets';
import { unpack } from '../../../src/registry/archive';
import { loadIndex } from '../../../src/registry/catalog';
import { CERTIFICATE_HELP, loadFailure, operationFailure } from '../../../src/registry/messages';
import { networkErrorOf } from '../../../src/registry/networkErrors';
import { npmFailure, npmInstall } from '../../../src/registry/npm';
import { makeTarGz, makeZip, type ArchiveEntry } from '../../support/archives';
import { serveRegistry } from '../../support/registryServer';
import { certificate, noOpenssl } from './certificates';

/** What loadIndex of `url` failed with, with nothing cached. */
async function loadError(url: string): Promise<unknown> {
  const cacheFile = join(mkdtempSync(join(tmpdir(), 'tandem-index-')), 'index.json');
  return loadIndex({ url, cacheFile, policy: { allowLoopbackHttp: false }, timeoutMs: 5000 }).then(
    () => assert.fail('the index loaded'),
    (e: unknown) => e,
  );
}

test('a registry that cannot load is said once, names tandem.registry.url, and offers Retry and Open Settings', async () => {
  const closed = createTcpServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  const m = loadFailure(await loadError(`https://127.0.0.1:${port}/registry.json`));
  assert.equal(
    m.text,
    `Tandem could not load the ACP Registry from 127.0.0.1:${port}: the server refused the connection. ` +
      'No copy of the list is saved yet. The address is the setting tandem.registry.url.',
  );
  assert.deepEqual(m.buttons, ['Retry', 'Open Settings']);
  assert.equal(m.setting, 'tandem.registry.url');
  assert.match(
    m.log,
    new RegExp(`https://127\\.0\\.0\\.1:${port}/registry\\.json: fetch failed: .*\\(ECONNREFUSED\\)`),
  );
});

test(
  'an untrusted certificate is said in words, with what to do behind a company CA',
  { skip: noOpenssl },
  async () => {
    const server = createHttpsServer(certificate('self-signed'), (_req, res) => res.end('{}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const m = loadFailure(await loadError(`https://127.0.0.1:${port}/registry.json`));
      assert.match(
        m.text,
        /^Tandem could not load the ACP Registry from 127\.0\.0\.1:\d+: the server's certificate is self-signed/,
      );
      assert.equal(m.text.split('load the ACP Registry').length, 2, 'said once');
      assert.ok(m.text.endsWith(CERTIFICATE_HELP), m.text);
      assert.match(CERTIFICATE_HELP, /http\.systemCertificates/);
      assert.doesNotMatch(m.text, /DEPTH_ZERO|SELF_SIGNED|fetch failed/);
      assert.match(m.log, /DEPTH_ZERO_SELF_SIGNED_CERT/, 'the code is in the log');
    } finally {
      server.close();
    }
  },
);

/** What unpacking `entries` as `format` failed with. */
async function unpackError(format: 'zip' | 'tar.gz', entries: ArchiveEntry[]): Promise<unknown> {
  const root = mkdtempSync(join(tmpdir(), 'tandem-refused-'));
  writeFileSync(join(root, 'download'), format === 'zip' ? makeZip(entries) : makeTarGz(entries));
  mkdirSync(join(root, 'files'));
  return unpack(join(root, 'download'), format, join(root, 'files'), './agent').then(
    () => assert.fail('unpacked'),
    (e: unknown) => e,
  );
}

test('a hostile archive is refused in words that name the entry, not as tar’s code', async () => {
  const link = operationFailure(
    { verb: 'install', name: 'Tiny Agent' },
    await unpackError('tar.gz', [{ name: 'agent', symlink: '/bin/sh' }]),
  );
  assert.equal(
    link.text,
    'Tandem did not install Tiny Agent: the archive was refused because it tried to write outside its folder ' +
      '(entry "agent": a link to the absolute path /bin/sh). Nothing was installed.',
  );
  for (const format of ['tar.gz', 'zip'] as const) {
    const climb = operationFailure(
      { verb: 'install', name: 'Tiny Agent' },
      await unpackError(format, [{ name: '../evil.txt', data: 'x' }]),
    );
    assert.match(
      climb.text,
      /tried to write outside its folder \(entry "\.\.\/evil\.txt": its path climbs out/,
      format,
    );
    assert.doesNotMatch(climb.text, /TAR_|invalid relative path/, format);
  }
});

// npm's own report of the usual failures, as npm 11 prints it (npm 6 to 9 print `npm ERR!`).
const NPM_REPORTS: Record<string, [string[], RegExp]> = {
  ETARGET: [
    [
      'npm error code ETARGET',
      'npm error notarget No matching version found for @zed-industries/claude-code-acp@0.17.0.',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-26T02_10_45_347Z-debug-0.log',
    ],
    /^the npm registry has no version 0\.17\.0 of @zed-industries\/claude-code-acp$/,
  ],
  ECONNREFUSED: [
    [
      'npm error code ECONNREFUSED',
      'npm error syscall connect',
      'npm error FetchError: request to http://127.0.0.1:9/x failed, reason: connect ECONNREFUSED 127.0.0.1:9',
    ],
    /^npm could not reach its registry: the server refused the connection$/,
  ],
  SELF_SIGNED_CERT_IN_CHAIN: [
    ['npm ERR! code SELF_SIGNED_CERT_IN_CHAIN', 'npm ERR! request to https://registry.npmjs.org/x failed'],
    /^npm could not reach its registry: .*self-signed.* \(npm trusts the certificates of its own settings: cafile/,
  ],
  'an install script': [
    [
      'npm error code 1',
      'npm error path /x/node_modules/dep',
      'npm error command failed',
      'npm error command sh -c node install.js',
    ],
    /^an install script of the package or of a dependency failed$/,
  ],
  'an unknown code': [
    [
      'npm error code EWEIRD',
      'npm error something odd happened',
      'npm error A complete log of this run can be found in: /x.log',
    ],
    /^something odd happened$/,
  ],
};

test('npm’s failures become one short reason', () => {
  for (const [what, [lines, reason]] of Object.entries(NPM_REPORTS)) {
    const err = npmFailure(lines, 1, '@zed-industries/claude-code-acp', '0.17.0');
    assert.match(err.reason, reason, what);
    assert.doesNotMatch(err.message, /npm (error|ERR!)|complete log|_logs/, what);
  }
});

const npm = findExecutable('npm');

test(
  'a real npm failure: a short reason and a Show Log button; npm’s output and log path go to the log',
  { skip: npm ? false : 'needs npm' },
  async () => {
    const registry = await serveRegistry(); // answers 404 to everything
    const saved = { ...process.env };
    Object.assign(process.env, {
      npm_config_registry: `${registry.url}/`,
      npm_config_fetch_retries: '0',
      npm_config_cache: mkdtempSync(join(tmpdir(), 'tandem-npm-cache-')),
    });
    const output: string[] = [];
    try {
      const err = await npmInstall({
        npm: npm!,
        dir: mkdtempSync(join(tmpdir(), 'tandem-npm-')),
        packageName: '@tandem-test/agent',
        version: '1.0.0',
        onOutput: (l) => output.push(l),
      }).then(
        () => assert.fail('installed'),
        (e: unknown) => e,
      );
      const m = operationFailure({ verb: 'install', name: 'Test Agent' }, err);
      assert.equal(
        m.text,
        'Tandem could not install Test Agent: npm install failed: the npm registry has no package @tandem-test/agent@1.0.0 ' +
          "(or does not let this computer see it). npm's full output is in the log. Nothing was installed.",
      );
      assert.deepEqual(m.buttons, ['Show Log']);
      assert.match(m.log, /npm code E404/);
      assert.ok(
        output.some((l) => /E404/.test(l)),
        `npm's output is logged: ${output.join('\n')}`,
      );
      assert.ok(
        output.some((l) => /complete log of this run/.test(l)),
        'and the path of its own log',
      );
      assert.doesNotMatch(m.text, /complete log|_logs/);
    } finally {
      process.env = saved;
      await registry.close();
    }
  },
);

test('a failed update names the agent, the version it was for, and says the installed one stays', () => {
  const op = { verb: 'update' as const, name: 'Claude Code', from: '0.16.2', to: '0.17.0' };
  const [lines] = NPM_REPORTS.ETARGET;
  const npmFailed = operationFailure(op, npmFailure(lines, 1, '@zed-industries/claude-code-acp', '0.17.0'));
  assert.equal(
    npmFailed.text,
    'Tandem could not update Claude Code to 0.17.0: npm install failed: the npm registry has no version 0.17.0 of ' +
      "@zed-industries/claude-code-acp. npm's full output is in the log. Claude Code 0.16.2 stays installed.",
  );
  assert.deepEqual(npmFailed.buttons, ['Show Log']);
  assert.match(npmFailed.log, /npm code ETARGET/);
  const probe = operationFailure(op, new Error('Claude Code 0.17.0 did not start: exited with code 3'));
  assert.equal(
    probe.text,
    'Tandem could not update Claude Code to 0.17.0: Claude Code 0.17.0 did not start: exited with code 3. ' +
      'Claude Code 0.16.2 stays installed.',
  );
  const offline = new TypeError('fetch failed', {
    cause: Object.assign(new Error('getaddrinfo ENOTFOUND github.com'), { code: 'ENOTFOUND' }),
  });
  const download = operationFailure(op, networkErrorOf(offline, 'github.com'));
  assert.match(
    download.text,
    /^Tandem could not update Claude Code to 0\.17\.0: the download from github\.com failed: the host name was not found/,
  );
  assert.match(download.text, / Claude Code 0\.16\.2 stays installed\.$/);
  assert.doesNotMatch(download.text, /ENOTFOUND/);
  assert.match(download.log, /ENOTFOUND/);
});
