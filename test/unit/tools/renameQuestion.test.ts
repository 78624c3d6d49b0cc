// Rename asks the user once, through Tandem's permission prompt, in words that say what changes:
// "Rename `area` to `surface`: 4 edits in 2 files". A file outside the workspace is a second
// question of its own, which says so; the agent's own prompt for the call, allowed, is not asked again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import type { McpServer, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PermissionDecider } from '../../../src/shared/sessionModel';
import { SessionStore } from '../../../src/session/store';
import { codeToolGroup } from '../../../src/tools/code/codeTools';
import { ToolRegistry } from '../../../src/tools/registry';
import { attachedToolsFeature } from './fixtures';
import { FakeCodePort, ROOT } from './fakeCodePort';

const SHAPES = 'export function area(w: number) {}\nexport const total = area(1);';
const OUTSIDE = nodePath.resolve(ROOT, '../outside.ts');
const file = (rel: string, edits: number) => {
  const path = nodePath.join(ROOT, rel);
  return { uri: `file://${path}`, path, edits };
};
const RENAME = { path: 'src/shapes.ts', line: 1, symbol: 'area', newName: 'surface' };

async function setup(answer = 'allow_once') {
  const port = new FakeCodePort().file('src/shapes.ts', SHAPES);
  const registry = new ToolRegistry();
  registry.register({ ...codeToolGroup(port), startCollapsed: false });
  const asked: ToolCallUpdate[] = [];
  const t = attachedToolsFeature(registry, {
    request: async (_sid, call, options) => {
      asked.push(call);
      return { outcome: 'selected', optionId: options.find((o) => o.optionId === answer)!.optionId };
    },
  });
  const set = await t.feature.mcpServers({ mcpCapabilities: { http: true } }, t.ctx);
  set.opened!('s');
  const store = new SessionStore('s');
  t.stores.set('s', store);
  const entry = set.servers[0] as Extract<McpServer, { type: 'http' }>;
  const client = new Client({ name: 'agent', version: '1' });
  const headers = Object.fromEntries(entry.headers.map((h) => [h.name, h.value]));
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } }));
  const rename = async () =>
    ((await client.callTool({ name: 'Rename', arguments: RENAME })).content as Array<{ text: string }>)[0].text;
  return { port, asked, store, rename, close: () => client.close().finally(() => t.dispose()) };
}

/** The agent's own row for the call, with its own prompt for it answered (Claude Code asks first). */
function agentAsked(
  store: SessionStore,
  by: PermissionDecider,
  optionKind: 'allow_once' | 'reject_once',
  rawInput: Record<string, unknown> = RENAME,
) {
  store.dispatch({
    type: 'update',
    at: 1,
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_1',
      title: 'mcp__tandem__Rename',
      status: 'pending',
      rawInput,
    },
  });
  const request = {
    requestId: 'perm-1',
    toolCallId: 'toolu_1',
    toolCall: { toolCallId: 'toolu_1', title: 'mcp__tandem__Rename', rawInput },
    options: [{ optionId: 'o', name: 'Allow', kind: optionKind }],
    at: 2,
    origin: 'agent' as const,
  };
  store.dispatch({ type: 'permissionRequested', at: 2, request });
  const decision = { outcome: 'selected' as const, optionId: 'o', optionKind, by, at: 3 };
  store.dispatch({ type: 'permissionResolved', at: 3, requestId: 'perm-1', decision });
}

test('Rename asks one question, naming what it renames to what and how many edits in which files', async () => {
  const t = await setup();
  try {
    t.port.answers.rename = { files: [file('src/shapes.ts', 3), file('src/report.ts', 1)], ref: 'e' };
    assert.match(await t.rename(), /"renamed"/);
    assert.equal(t.asked.length, 1, 'asked once');
    const q = t.asked[0];
    assert.equal(q.title, 'Rename `area` to `surface`: 4 edits in 2 files');
    assert.equal(q.toolCallId, 'tandem-tool-1', "in the call's own row");
    // An edit of those files: rules about their paths apply, and the card lists them.
    assert.equal(q.kind, 'edit');
    assert.deepEqual(q.locations, [{ path: `${ROOT}/src/shapes.ts` }, { path: `${ROOT}/src/report.ts` }]);
    assert.deepEqual(q._meta, {
      tandem: { group: 'Code', tool: 'Rename', args: RENAME, question: q.title },
    });
    assert.equal(t.port.applied.length, 1);
  } finally {
    await t.close();
  }
});

test('an edit reaching a file outside the workspace: a second question, which names that file and says so', async () => {
  const t = await setup();
  try {
    t.port.answers.rename = {
      files: [file('src/shapes.ts', 2), { uri: `file://${OUTSIDE}`, path: OUTSIDE, edits: 1 }],
      ref: 'e',
    };
    await t.rename();
    assert.deepEqual(
      t.asked.map((q) => q.title),
      ['Rename `area` to `surface`: 3 edits in 2 files', `Write ${OUTSIDE} — outside the workspace`],
    );
    assert.deepEqual(t.asked[1].rawInput, {
      path: OUTSIDE,
      resolvedPath: OUTSIDE,
      access: 'write',
      outside: 'workspace',
    });
  } finally {
    await t.close();
  }
});

test("the user allowed the call in the agent's own prompt: Tandem does not ask the same again", async () => {
  const t = await setup('reject_once');
  try {
    t.port.answers.rename = { files: [file('src/shapes.ts', 2)], ref: 'e' };
    agentAsked(t.store, 'user', 'allow_once');
    assert.match(await t.rename(), /"renamed"/);
    assert.deepEqual(t.asked, []);
    assert.equal(t.port.applied.length, 1);
  } finally {
    await t.close();
  }
});

test("an agent's prompt answered by a rule, not by the user, still gets Tandem's question", async () => {
  const t = await setup('reject_once');
  try {
    t.port.answers.rename = { files: [file('src/shapes.ts', 2)], ref: 'e' };
    agentAsked(t.store, 'rule', 'allow_once');
    assert.equal(await t.rename(), 'The user denied permission to run Rename.');
    assert.equal(t.asked.length, 1);
    assert.deepEqual(t.port.applied, []);
  } finally {
    await t.close();
  }
});

test("the agent's prompt was for other arguments than the call got: Tandem asks its own question", async () => {
  const t = await setup('reject_once');
  try {
    t.port.answers.rename = { files: [file('src/shapes.ts', 2)], ref: 'e' };
    agentAsked(t.store, 'user', 'allow_once', { ...RENAME, newName: 'harmless' });
    assert.equal(await t.rename(), 'The user denied permission to run Rename.');
    assert.deepEqual(
      t.asked.map((q) => q.title),
      ['Rename `area` to `surface`: 2 edits in 1 file'],
    );
  } finally {
    await t.close();
  }
});
