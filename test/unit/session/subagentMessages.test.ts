// A subagent's own messages (claude-agent-acp sends them once Tandem advertises
// `subagent-transcript`): chunks marked with `_meta.claudeCode.parentToolUseId` go under the Agent
// call that started the subagent, never into the agent's answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionAction } from '../../../src/session/actions';
import { lastAgentMessageId } from '../../../src/session/rewind';
import { sessionToMarkdown } from '../../../src/session/exportMarkdown';
import type { ItemView } from '../../../src/shared/sessionModel';
import { reduceChecked } from './reduceChecked';

const up = (update: SessionUpdate, at = 1): SessionAction => ({ type: 'update', update, at });
const prompt = (text: string, at = 1): SessionAction => ({
  type: 'promptStarted',
  at,
  prompt: [{ type: 'text', text }],
});
const agentCall = (id: string, parent?: string): SessionAction =>
  up({
    sessionUpdate: 'tool_call',
    toolCallId: id,
    title: id,
    kind: parent ? 'read' : 'think',
    status: 'pending',
    ...(parent ? { _meta: { claudeCode: { toolName: 'Read', parentToolUseId: parent } } } : {}),
  });
/** A chunk as claude-agent-acp sends it; with `parent`, from the subagent of that Agent call. */
const chunk = (
  sessionUpdate: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk',
  text: string,
  parent?: string,
  messageId?: string,
): SessionAction =>
  up({
    sessionUpdate,
    content: { type: 'text', text },
    ...(messageId ? { messageId } : {}),
    ...(parent ? { _meta: { claudeCode: { parentToolUseId: parent } } } : {}),
  } as SessionUpdate);

const run = reduceChecked;

const shape = (items: ItemView[]) =>
  items.map((i) =>
    i.kind === 'tool'
      ? `tool ${i.toolCallId}`
      : i.kind === 'subagent'
        ? `${i.parentId}/${i.role}: ${i.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`
        : i.kind === 'compaction'
          ? 'compaction'
          : `${i.kind}: ${i.blocks.map((b) => (b.type === 'text' ? b.text : b.type)).join('')}`,
  );

test("a subagent's thoughts and messages go under its Agent call; the agent's answer stays its own", () => {
  const { snap } = run([
    prompt('find alpha'),
    chunk('agent_message_chunk', 'Let me ask a subagent.'),
    agentCall('task'),
    chunk('agent_thought_chunk', 'Where is it?', 'task'),
    chunk('agent_message_chunk', 'a.txt ', 'task', 'msg_sub'),
    chunk('agent_thought_chunk', '', 'task'),
    chunk('agent_message_chunk', 'says alpha.', 'task', 'msg_sub'),
    chunk('agent_message_chunk', 'The subagent found it.'),
  ]);
  assert.deepEqual(shape(snap.turns[0].items), [
    'user: find alpha',
    'agent: Let me ask a subagent.',
    'tool task',
    'task/thought: Where is it?',
    'task/agent: a.txt says alpha.',
    'agent: The subagent found it.',
  ]);
});

test("two subagents' interleaved chunks each continue their own message; a call of its own ends one", () => {
  const { snap } = run([
    prompt('survey'),
    agentCall('a'),
    agentCall('b'),
    chunk('agent_message_chunk', 'A1 ', 'a'),
    chunk('agent_message_chunk', 'B1 ', 'b', 'm1'),
    chunk('agent_message_chunk', 'A2', 'a'),
    chunk('agent_message_chunk', 'B2', 'b', 'm1'),
    agentCall('ra', 'a'),
    chunk('agent_message_chunk', 'A3', 'a'),
    // Another message of the same subagent (a new id) starts a new item.
    chunk('agent_message_chunk', 'B3', 'b', 'm2'),
  ]);
  assert.deepEqual(shape(snap.turns[0].items), [
    'user: survey',
    'tool a',
    'tool b',
    'a/agent: A1 A2',
    'b/agent: B1 B2',
    'tool ra',
    'a/agent: A3',
    'b/agent: B3',
  ]);
});

test("a background subagent's message after its turn ended goes into that turn, not the current one", () => {
  const { snap } = run([
    prompt('first'),
    agentCall('task'),
    { type: 'promptEnded', at: 2, stopReason: 'end_turn' },
    prompt('second', 3),
    chunk('agent_message_chunk', 'late report', 'task'),
    chunk('agent_message_chunk', 'Second answer.'),
  ]);
  assert.deepEqual(shape(snap.turns[0].items), ['user: first', 'tool task', 'task/agent: late report']);
  assert.deepEqual(shape(snap.turns[1].items), ['user: second', 'agent: Second answer.']);
});

test('a chunk naming a call the session does not know stays in the conversation', () => {
  const { snap } = run([prompt('go'), chunk('agent_message_chunk', 'hello', 'never-seen')]);
  assert.deepEqual(shape(snap.turns[0].items), ['user: go', 'agent: hello']);
});

test("a subagent's named message is never the point Edit and resend forks at", () => {
  const { state } = run([
    prompt('first'),
    chunk('agent_message_chunk', 'main answer', undefined, 'msg_main'),
    agentCall('task'),
    chunk('agent_message_chunk', 'sub report', 'task', 'msg_sub'),
    { type: 'promptEnded', at: 2, stopReason: 'end_turn' },
    prompt('second', 3),
  ]);
  assert.equal(lastAgentMessageId(state, 1), 'msg_main');
});

test("the Markdown export quotes a subagent's message after its Agent call", () => {
  const { snap } = run([prompt('go'), agentCall('task'), chunk('agent_message_chunk', 'line one\nline two', 'task')]);
  assert.match(sessionToMarkdown(snap), /\*\*think\*\* task\n\n> line one\n> line two/);
});
