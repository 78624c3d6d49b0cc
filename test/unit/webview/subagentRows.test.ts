// A subagent's transcript in the view: its messages and thoughts (claude-agent-acp with
// `subagent-transcript`) show indented under the Agent call with its calls, and the Agent call
// folds and unfolds them — by its fold button and by ←/→ — while the agent's answer stays where
// it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionAction } from '../../../src/session/actions';
import { canStop } from '../../../src/shared/subagentRow';
import { installDom, mountTranscript, sessionOf, settle } from './transcriptMount';

const dom = installDom();

const up = (update: SessionUpdate): SessionAction => ({ type: 'update', at: 2, update });
const sub = { claudeCode: { parentToolUseId: 'task' } };
const turn: SessionAction[] = [
  { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'Find alpha' }] },
  up({
    sessionUpdate: 'tool_call',
    toolCallId: 'task',
    title: 'Find alpha',
    kind: 'think',
    status: 'in_progress',
    rawInput: { prompt: 'Find the alpha file' },
  }),
  up({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Which file?' }, _meta: sub }),
  up({
    sessionUpdate: 'tool_call',
    toolCallId: 'read',
    title: 'Read a.txt',
    kind: 'read',
    status: 'completed',
    _meta: { claudeCode: { toolName: 'Read', parentToolUseId: 'task' } },
  }),
  up({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a.txt says alpha.' }, _meta: sub }),
  up({ sessionUpdate: 'tool_call_update', toolCallId: 'task', status: 'completed' }),
  up({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'The subagent found it.' } }),
  { type: 'promptEnded', at: 3, stopReason: 'end_turn' },
];

/** The rows under the turn header: what each is and its tree level. */
const rows = (root: HTMLElement) =>
  [...root.querySelectorAll<HTMLElement>('[role="treeitem"]')].slice(1).map((e) => {
    const what =
      e.dataset.testid === 'tool-call' ? `call ${e.dataset.id}` : `${e.dataset.testid} ${e.textContent!.trim()}`;
    return `${e.getAttribute('aria-level')} ${what}`;
  });
const NESTED = [
  '2 call task',
  '3 subagent-message Thought',
  '3 call read',
  '3 subagent-message a.txt says alpha.',
  '2 message-agent The subagent found it.',
];
const FOLDED = ['2 call task', '2 message-agent The subagent found it.'];

test("a subagent's thoughts, calls and messages show under its Agent call, the answer after them", async () => {
  const { root, unmount } = await mountTranscript(sessionOf(turn));
  assert.deepEqual(rows(root), NESTED);
  const msg = root.querySelector<HTMLElement>('[data-testid="subagent-message"][data-role="agent"]')!;
  assert.match(msg.className, /\bdepth-1\b/, 'indented like the subagent calls');
  assert.equal(msg.getAttribute('aria-label'), 'Subagent message');
  unmount();
});

test('the fold button hides and shows the subagent rows; the Agent call says how many', async () => {
  const { root, unmount } = await mountTranscript(sessionOf(turn));
  const button = () => root.querySelector<HTMLButtonElement>('[data-testid="subtree-toggle"]')!;
  assert.equal(button().textContent!.trim(), '3');
  assert.equal(button().getAttribute('aria-expanded'), 'true');
  button().click();
  await settle();
  assert.deepEqual(rows(root), FOLDED);
  assert.equal(button().getAttribute('aria-expanded'), 'false');
  assert.match(root.querySelector('[data-id="task"]')!.getAttribute('aria-label')!, /3 subagent steps folded/);
  button().click();
  await settle();
  assert.deepEqual(rows(root), NESTED);
  unmount();
});

test('← on the Agent call folds its subagent rows (after closing its details), → unfolds them', async () => {
  const { root, unmount } = await mountTranscript(sessionOf(turn), ['task']);
  const task = () => root.querySelector<HTMLElement>('[data-id="task"]')!;
  const key = async (k: string) => {
    task().focus();
    await settle(); // the tree follows the focus before it reads a key
    task().dispatchEvent(new dom.window.KeyboardEvent('keydown', { key: k, bubbles: true }));
    await settle();
  };
  assert.equal(task().getAttribute('aria-expanded'), 'true', 'its details shown');
  await key('ArrowLeft');
  assert.equal(task().getAttribute('aria-expanded'), 'false', 'the first ← closes its details');
  assert.deepEqual(rows(root), NESTED);
  await key('ArrowLeft');
  assert.deepEqual(rows(root), FOLDED);
  await key('ArrowRight');
  assert.deepEqual(rows(root), NESTED);
  unmount();
});

test("a child session's row has Stop while it works and the agent allows it; Stop asks the host", async () => {
  const row = (state: { state: string; stopReason?: string }, cancel = true): SessionAction =>
    up({
      sessionUpdate: 'tool_call',
      toolCallId: 'subagent:kid',
      title: 'Digger',
      name: 'Agent',
      kind: 'think',
      status: 'in_progress',
      _meta: { tandem: { subagent: { sessionId: 'kid', cancel, state, stoppable: canStop(cancel, state.state) } } },
    } as SessionUpdate);
  const start: SessionAction = { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'dig' }] };
  const { root, intents, draw, unmount } = await mountTranscript(sessionOf([start, row({ state: 'running' })]));
  const stop = () => root.querySelector<HTMLButtonElement>('[data-testid="subagent-stop"]');
  stop()!.click();
  assert.deepEqual(intents.at(-1), { type: 'stopSubagent', toolCallId: 'subagent:kid' });
  await draw(sessionOf([start, row({ state: 'running' }, false)]));
  assert.equal(stop(), null, 'the agent does not let the client stop it');
  await draw(sessionOf([start, row({ state: 'idle', stopReason: 'end_turn' })]));
  assert.equal(stop(), null, 'nothing to stop once it is idle');
  unmount();
});
