// Which session each agent showed when the window closed, kept per agent now that agents run side
// by side; the one-agent record older versions kept still reads.
import '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionHistory } from '../../../src/vscode/sessions/sessionHistory';
import { WORKSPACE_STATE } from '../../../src/vscode/storageKeys';

function memento(initial: Record<string, unknown> = {}) {
  const saved = new Map(Object.entries(initial));
  return {
    saved,
    get: (k: string) => saved.get(k),
    update: async (k: string, v: unknown) => void (v === undefined ? saved.delete(k) : saved.set(k, v)),
    keys: () => [...saved.keys()],
  };
}

test('each agent keeps its own last session; an agent whose sessions all closed is no longer open', () => {
  const m = memento();
  const h = new SessionHistory(m as never);
  h.setLastSession('Claude', 'c-1');
  h.setLastSession('Codex', 'x-1');
  h.setLastSession('Claude', 'c-2');
  assert.equal(h.lastSession('Claude'), 'c-2');
  assert.equal(h.lastSession('Codex'), 'x-1');
  assert.deepEqual(h.openAgents(), ['Claude', 'Codex']);
  h.setLastSession('Codex', undefined);
  assert.deepEqual(h.openAgents(), ['Claude']);
  h.setLastSession('Claude', undefined);
  assert.equal(m.saved.has(WORKSPACE_STATE.lastSession), false, 'nothing left: the key is removed');
});

test("an older version's one-agent record still names that agent's session", () => {
  const m = memento({ [WORKSPACE_STATE.lastSession]: { agentName: 'Claude', sessionId: 'c-9' } });
  const h = new SessionHistory(m as never);
  assert.equal(h.lastSession('Claude'), 'c-9');
  assert.equal(h.lastSession('agentName'), undefined);
  assert.deepEqual(h.openAgents(), ['Claude']);
});

test("a prompt a reload interrupted names its agent's session first", () => {
  const m = memento({ [WORKSPACE_STATE.lastSession]: { Claude: 'c-1' } });
  const h = new SessionHistory(m as never, (agent) => (agent === 'Claude' ? 'c-interrupted' : undefined));
  assert.equal(h.lastSession('Claude'), 'c-interrupted');
});
