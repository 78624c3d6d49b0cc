// claude-agent-acp's terminal: announced (`_meta.terminal_info`) in the first tool_call, while the
// input still streams (rawInput {}); the command comes in a later update that carries no terminal
// meta. The terminal takes its name from that command, in the state and in the view's patches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { toSnapshot } from '../../../src/session/snapshot';
import { createSessionState, reduce } from '../../../src/session/reducer';
import { applyPatches } from '../../../src/shared/patches';

test('an agent terminal announced before its command is named after the command once it arrives', () => {
  const updates: SessionUpdate[] = [
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'toolu_1',
      title: 'Terminal',
      kind: 'execute',
      status: 'pending',
      rawInput: {},
      _meta: { claudeCode: { toolName: 'Bash' }, terminal_info: { terminal_id: 'toolu_1' } },
    },
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'toolu_1',
      title: 'echo hi',
      rawInput: { command: 'echo hi', description: 'Print hi' },
      _meta: { claudeCode: { toolName: 'Bash' } },
    },
  ];
  let s = createSessionState('s1');
  const view = toSnapshot(s);
  for (const update of updates) {
    const r = reduce(s, { type: 'update', at: 1, update });
    s = r.state;
    applyPatches(view, r.patches);
  }
  assert.equal(s.terminals.get('toolu_1')?.command, 'echo hi');
  assert.equal(view.terminals.toolu_1?.command, 'echo hi', 'the view is told too');
  assert.equal(view.terminals.toolu_1?.exited, false);
});
