// Nothing from the ACP Registry is installed, updated or started in a restricted (untrusted)
// workspace: the install and update actions stop at the trust check, before any download, with a
// message. Real RegistryService and RegistryActions, fake `vscode` with isTrusted false.
import { state as vs } from './fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import { platformKey } from '../../../src/registry/plan';
import { RegistryService } from '../../../src/registry/service';
import { RegistryStore } from '../../../src/registry/store';
import { RegistryActions } from '../../../src/vscode/registry/registryActions';
import { sha256 } from '../../support/archives';
import { serveRegistry, tinyAgentArchive } from '../../support/registryServer';

test('untrusted workspace: a registry agent is neither downloaded, configured nor started', async () => {
  const srv = await serveRegistry();
  const archive = tinyAgentArchive('tar.gz', 'process.exit(0)');
  srv.set('/tiny.tar.gz', archive);
  srv.set('/registry.json', {
    version: '1.0.0',
    agents: [
      {
        id: 'tiny',
        name: 'Tiny',
        version: '1.0.0',
        description: 'tiny',
        distribution: {
          binary: {
            [platformKey()!]: { archive: `${srv.url}/tiny.tar.gz`, cmd: './bin/agent', sha256: sha256(archive) },
          },
        },
      },
    ],
  });
  const root = mkdtempSync(join(tmpdir(), 'tandem-registry-trust-'));
  const writes: unknown[][] = [];
  const service = new RegistryService({
    store: new RegistryStore(root),
    indexUrl: () => `${srv.url}/registry.json`,
    policy: () => ({ allowLoopbackHttp: true }),
    tools: () => ({}),
    platform: platformKey(),
    settings: { read: () => [], write: async (e) => void writes.push(e) },
    isRunning: () => false,
  });
  const started: string[] = [];
  const actions = new RegistryActions(service, {
    context: {} as never,
    logger: new MemoryLogger(),
    runner: {
      agent: { state: 'none' },
      start: async (n) => void started.push(n ?? ''),
      isRunning: () => false,
      stopAgent: async () => undefined,
    },
    signIn: async () => undefined,
    showView: () => undefined,
  });
  vs.isTrusted = false;
  vs.shown = [];
  try {
    assert.equal(await actions.install('tiny'), undefined);
    assert.deepEqual(await actions.updateAll(['tiny']), []);
    assert.deepEqual(srv.hits, [], 'nothing was fetched, not even the index');
    assert.deepEqual(writes, [], 'no tandem.agents entry');
    assert.deepEqual(started, []);
    assert.ok(!existsSync(join(root, 'agents')));
    assert.match(vs.shown[0], /^warning: Tandem does not install agents in a restricted workspace/);
    assert.match(vs.shown[1], /^warning: Tandem does not update agents in a restricted workspace/);
  } finally {
    vs.isTrusted = true;
    await srv.close();
  }
});
