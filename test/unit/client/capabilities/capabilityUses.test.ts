// The report's tables of what Tandem does with each capability, client method and update kind
// are checked against the code: every piece of code an entry names is there, every file that
// reads the initialize answer is named, every capability key the code reads has an entry, and
// every method, update kind and advertised capability is described. Move or add a use, and this
// fails until the table follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import { capabilityPaths } from '../../../../src/client/capabilities/capabilityReport';
import {
  ADVERTISED_USES,
  CLIENT_METHOD_USES,
  INITIALIZE_USES,
  UPDATE_USES,
} from '../../../../src/client/capabilities/capabilityUses';
import { CLIENT_METHODS, PROTOCOL_METHODS } from '../../../../src/acp/methods';
import { SESSION_UPDATE_KINDS } from '../../../../src/acp/validation';
import { ElicitationFeature } from '../../../../src/client/elicitation';
import { FileSystemFeature } from '../../../../src/client/files/fileSystem';
import { TerminalsFeature } from '../../../../src/client/terminals/terminals';
import { MemoryLogger } from '../../../../src/common/logger';
import { repoRoot } from '../../../support/paths';

/** Every .ts file of src/ but the generated validators, the webview (a browser) and the demo agents. */
function sources(dir = join(repoRoot, 'src')): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    const rel = relative(repoRoot, p);
    if (/^src\/(acp\/generated|webview|demo)$/.test(rel)) return [];
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(n) ? [rel] : [];
  });
}
const read = (rel: string) => readFileSync(join(repoRoot, rel), 'utf8');

test('every use names code that is really there', () => {
  for (const use of INITIALIZE_USES)
    for (const [file, piece] of use.readBy)
      assert.ok(read(file).includes(piece), `${use.path}: ${file} no longer contains "${piece}"`);
});

test('every file that reads the initialize answer is named in the table', () => {
  // Types and plumbing only: they pass the answer or its types on and decide nothing by them.
  const plumbing = new Set([
    'src/acp/methods.ts',
    'src/shared/protocol.ts',
    'src/client/connection/feature.ts',
    'src/client/connection/agentStatus.ts',
    'src/vscode/agent/showCapabilities.ts',
  ]);
  const named = new Set(INITIALIZE_USES.flatMap((u) => u.readBy.map(([file]) => file)));
  const readers = sources().filter(
    (f) =>
      !plumbing.has(f) &&
      !f.startsWith('src/client/capabilities/') && // the report itself
      /initializeResult|InitializeResponse|agentCapabilities|AgentCapabilities|\.authMethods\b/.test(read(f)),
  );
  assert.deepEqual(
    readers.filter((f) => !named.has(f)),
    [],
    'these files read the initialize answer: add what they do with it to INITIALIZE_USES',
  );
});

test('every capability key the code reads has an entry', () => {
  const paths = new Set(INITIALIZE_USES.map((u) => u.path));
  const missing = new Set<string>();
  for (const f of sources()) {
    const text = read(f);
    for (const m of text.matchAll(/\b(sessionCapabilities|promptCapabilities|mcpCapabilities)\??\.(\w+)/g))
      if (!paths.has(`agentCapabilities.${m[1]}.${m[2]}`)) missing.add(`${f}: ${m[1]}.${m[2]}`);
    for (const m of text.matchAll(/\b(?:agentCapabilities|caps|agentCaps)\??\.(loadSession|auth|providers)\b/g))
      if (!paths.has(`agentCapabilities.${m[1]}`)) missing.add(`${f}: ${m[1]}`);
  }
  assert.deepEqual([...missing], []);
});

test('every client method and session/update kind is described', () => {
  const methods = [...Object.values(CLIENT_METHODS), ...Object.values(PROTOCOL_METHODS)].map((m) => m.method);
  assert.deepEqual(Object.keys(CLIENT_METHOD_USES).sort(), [...methods].sort());
  assert.deepEqual(Object.keys(UPDATE_USES).sort(), [...SESSION_UPDATE_KINDS].sort());
});

test("every client capability Tandem's features advertise is explained", () => {
  // The features that write capabilities: a new one must be added here (and to ADVERTISED_USES).
  const advertisers = sources().filter((f) => /\bcapabilities\(caps: ClientCapabilities\): void \{/.test(read(f)));
  assert.deepEqual(advertisers.sort(), [
    'src/client/elicitation.ts',
    'src/client/files/fileSystem.ts',
    'src/client/terminals/terminals.ts',
  ]);
  const caps: ClientCapabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };
  new FileSystemFeature({} as never).capabilities(caps);
  new TerminalsFeature().capabilities(caps);
  new ElicitationFeature({ url: {} as never, logger: new MemoryLogger() }).capabilities(caps);
  const advertised = capabilityPaths(caps, '', 2).map(([p]) => p);
  assert.deepEqual(
    advertised.filter((p) => !ADVERTISED_USES[p]),
    [],
  );
  assert.ok(advertised.includes('_meta.terminal_output') && advertised.includes('fs.writeTextFile'));
});
