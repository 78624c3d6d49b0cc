// "Show Agent Capabilities" with the `vscode` fake: one click from the agent picker, a choice
// among running agents with the shown one first, and a report document that follows the agent's
// traffic (refreshed once a second at most) and names an agent that is not running.
import { state as vs, vscodeFake } from '../security/fakeVscode';
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { WireObserver } from '../../../src/client/capabilities/wireObserver';
import { DisposableStore } from '../../../src/common/disposable';
import { pickAgent } from '../../../src/vscode/agent/agentPicker';
import {
  CapabilityDocuments,
  SHOW_CAPABILITIES_COMMAND,
  showAgentCapabilities,
} from '../../../src/vscode/agent/showCapabilities';
import type { PooledAgent } from '../../../src/vscode/agent/controller';
import { withMockTimers } from '../../support/mockTimers';
import { repoRoot } from '../../support/paths';

type Item = { label: string; description?: string };
const win = vscodeFake.window as unknown as { showQuickPick: (items: Item[], o?: unknown) => Promise<unknown> };

function agent(name: string): PooledAgent {
  const client = { sessions: () => [{}], initializeResult: undefined };
  return {
    name,
    view: { state: 'ready', name },
    client,
    scope: new DisposableStore(),
    wire: new WireObserver(),
  } as never;
}
function controller(agents: PooledAgent[], shown?: PooledAgent) {
  const listeners: (() => void)[] = [];
  return {
    agents: () => agents,
    current: shown?.client,
    onDidChangeAgents: (l: () => void) => (listeners.push(l), { dispose: () => undefined }),
  } as never;
}
const chunk = {
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } },
};

test('the agent picker has a Show Agent Capabilities item that runs the command', async () => {
  const original = win.showQuickPick;
  vs.commands = [];
  win.showQuickPick = async (items) => items.find((i) => i.label.includes('Show Agent Capabilities'));
  try {
    assert.equal(await pickAgent(vscodeFake.Uri.file(repoRoot) as never, 'A'), undefined, 'no agent chosen');
    assert.deepEqual(vs.commands, [SHOW_CAPABILITIES_COMMAND]);
  } finally {
    win.showQuickPick = original;
  }
});

test('with several agents running, the one the view shows is offered first; the pick is opened as a preview', async () => {
  const original = win.showQuickPick;
  const [a, b] = [agent('A'), agent('B')];
  let offered: Item[] = [];
  vs.commands = [];
  win.showQuickPick = async (items) => ((offered = items), items[1]);
  try {
    const uri = await showAgentCapabilities(controller([a, b], b));
    assert.deepEqual(
      offered.map((i) => [i.label, i.description]),
      [
        ['B', 'shown in the view'],
        ['A', undefined],
      ],
    );
    assert.match(String(uri), /^tandem-capabilities:\/A capabilities\.md/);
    assert.deepEqual(vs.commands, ['markdown.showPreview']);
  } finally {
    win.showQuickPick = original;
  }
});

test('an agent that is not running is said so, and nothing opens', async () => {
  vs.shown = [];
  vs.commands = [];
  assert.equal(await showAgentCapabilities(controller([agent('A')]), 'Z'), undefined);
  assert.match(vs.shown[0], /Z is not running/);
  assert.deepEqual(vs.commands, []);
});

test("the report follows the agent's traffic, refreshed at most once a second", () =>
  withMockTimers(() => {
    const a = agent('A');
    const docs = new CapabilityDocuments(controller([a], a));
    const uri = { query: 'agent=A' } as never;
    const fired: unknown[] = [];
    docs.onDidChange((u) => fired.push(u));
    try {
      assert.match(docs.provideTextDocumentContent(uri), /0 messages from it/);
      a.wire.observe('in', chunk);
      a.wire.observe('in', chunk);
      assert.equal(fired.length, 0, 'not at once');
      mock.timers.tick(1000);
      assert.equal(fired.length, 1, 'one refresh for both messages');
      assert.match(docs.provideTextDocumentContent(uri), /2 messages from it/);
      a.scope.dispose();
      a.wire.observe('in', chunk);
      mock.timers.tick(1000);
      assert.equal(fired.length, 1, 'a stopped connection is not followed');
      assert.match(docs.provideTextDocumentContent({ query: 'agent=Gone' } as never), /Gone is not running/);
    } finally {
      docs.dispose();
    }
  }));
