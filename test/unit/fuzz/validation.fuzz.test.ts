// Property: validation never throws, whatever the agent sends; invalid requests always get a
// -32602 (or -32600) reply naming what is wrong; valid transcript messages pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ResponseMessage } from 'vscode-jsonrpc';
import { MemoryLogger } from '../../../src/common/logger';
import { AcpValidator } from '../../../src/acp/validation';
import { runs } from './runs';

const methods = [
  'session/update',
  'session/request_permission',
  'fs/read_text_file',
  'fs/write_text_file',
  'terminal/create',
  'terminal/output',
  'elicitation/create',
  'unknown/x',
];

test('validation: arbitrary JSON-RPC-shaped input never throws', () => {
  const anyJson = fc.jsonValue({ maxDepth: 4 });
  const msg = fc.oneof(
    anyJson,
    fc.record(
      { jsonrpc: fc.constant('2.0'), method: fc.constantFrom(...methods), params: anyJson },
      { requiredKeys: ['jsonrpc', 'method'] },
    ),
    fc.record({
      jsonrpc: fc.constant('2.0'),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), anyJson),
      method: fc.constantFrom(...methods),
      params: anyJson,
    }),
    fc.record(
      {
        jsonrpc: fc.constant('2.0'),
        id: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.string()),
        result: anyJson,
        error: anyJson,
      },
      { requiredKeys: ['jsonrpc', 'id'] },
    ),
    fc.record({
      jsonrpc: fc.constant('2.0'),
      method: fc.constant('session/update'),
      params: fc.record({
        sessionId: fc.string(),
        update: fc.record(
          {
            sessionUpdate: fc.oneof(
              fc.string(),
              fc.constantFrom('tool_call', 'tool_call_update', 'agent_message_chunk', 'plan'),
            ),
            toolCallId: fc.string(),
            content: anyJson,
            title: anyJson,
            entries: anyJson,
          },
          { requiredKeys: ['sessionUpdate'] },
        ),
      }),
    }),
  );
  fc.assert(
    fc.property(fc.array(msg, { maxLength: 6 }), (messages) => {
      const replies: ResponseMessage[] = [];
      const v = new AcpValidator(new MemoryLogger(), (r) => replies.push(r));
      for (let id = 0; id < 4; id++)
        v.noteOutgoing({ jsonrpc: '2.0', id, method: id % 2 ? 'session/prompt' : 'session/new' } as never);
      for (const m of messages) {
        const out = v.inspectIncoming(m);
        const req = m as { id?: unknown; method?: unknown };
        if (
          out === undefined &&
          typeof req?.method === 'string' &&
          (typeof req.id === 'number' || typeof req.id === 'string') &&
          req.method !== 'session/update'
        ) {
          assert.ok(replies.length > 0, 'a dropped request is answered');
        }
      }
      for (const r of replies)
        assert.ok(r.error && [-32602, -32600].includes(r.error.code) && r.error.message.length > 0);
    }),
    { numRuns: runs(20_000) },
  );
});
