import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toSnapshot } from '../../../src/session/snapshot';
import { reduceAll, createSessionState } from '../../../src/session/reducer';
import { sessionToMarkdown } from '../../../src/session/exportMarkdown';

test('export: turns, messages, tool calls with diff and terminal, plan, errors', () => {
  const at = 1;
  const { state } = reduceAll(createSessionState('s-42'), [
    {
      type: 'promptStarted',
      at,
      prompt: [
        { type: 'text', text: 'Fix the bug' },
        { type: 'resource_link', name: 'a.ts', uri: 'file:///w/a.ts' },
      ],
    },
    {
      type: 'update',
      at,
      update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Looking' } },
    },
    {
      type: 'update',
      at,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'I will **edit** it.' } },
    },
    {
      type: 'update',
      at,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit a.ts',
        kind: 'edit',
        status: 'completed',
        locations: [{ path: '/w/a.ts', line: 3 }],
        content: [{ type: 'diff', path: '/w/a.ts', oldText: 'a\nb\nc', newText: 'a\nB\nc' }],
      },
    },
    { type: 'terminal', at, terminal: { terminalId: 'T', command: 'npm test', exited: true, exitCode: 0 } },
    { type: 'terminalOutput', at, terminalId: 'T', data: '\x1b[32mok\x1b[0m 1\n' },
    {
      type: 'update',
      at,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 't2',
        title: 'npm test',
        kind: 'execute',
        status: 'failed',
        content: [{ type: 'terminal', terminalId: 'T' }],
      },
    },
    {
      type: 'update',
      at,
      update: {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Edit', priority: 'high', status: 'completed' },
          { content: 'Test', priority: 'high', status: 'in_progress' },
        ],
      },
    },
    { type: 'update', at, update: { sessionUpdate: 'session_info_update', title: 'Bug fix' } },
    { type: 'promptEnded', at, stopReason: 'cancelled' },
    { type: 'promptStarted', at, prompt: [{ type: 'text', text: 'again' }] },
    { type: 'promptFailed', at, error: 'Agent exited\nLast output:\nboom' },
  ]);
  const md = sessionToMarkdown(toSnapshot(state), { agentName: 'Demo', exportedAt: new Date('2026-11-21T10:00:00Z') });
  assert.match(md, /^# Bug fix\n/);
  assert.match(md, /Agent: Demo · Session: `s-42` · Exported: 2026-11-21T10:00:00.000Z/);
  assert.match(md, /## Turn 1\n\n\*\*You:\*\*\n\nFix the bug\n📎 \[a.ts\]\(file:\/\/\/w\/a.ts\)/);
  assert.match(md, /<details><summary>Thinking<\/summary>\n\nLooking/);
  assert.match(md, /✅ \*\*edit\*\* Edit a.ts\n  - `\/w\/a.ts:3`/);
  assert.match(md, /```diff\n  --- \/w\/a.ts\n  \+\+\+ \/w\/a.ts\n  -b\n  \+B\n  ```/);
  assert.match(md, /```console\n  \$ npm test\n  ok 1/);
  assert.ok(!md.includes('\x1b'), 'ANSI escapes stripped');
  assert.match(md, /_Stopped: cancelled_/);
  assert.match(md, /> \*\*Error:\*\* Agent exited\n> Last output:\n> boom/);
  assert.match(md, /- \[x\] Edit\n- \[ \] Test _\(in progress\)_/);
});
