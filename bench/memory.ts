// Memory: the host heap of a 10,000-tool-call session, and a leak check.
//  1. 10,000 tool calls (+ 10,000 message chunks) from the scripted agent's `flood` step through
//     the real AgentClient (spawned agent, NDJSON transport, validation, reducer, SessionStore):
//     heap after GC against the same client with an empty session (baseline, same run).
//  2. The same 10,000 calls with realistic payloads (Claude-style titles, locations, rawInput,
//     text results, diffs of ~40 lines on edits, ~1 KB of command output on executes), fed to
//     the SessionStore directly (reducer only), against an empty store.
//  3. Leak check: 10 sessions opened and closed on one AgentClient, and 10 full AgentClient
//     start → prompt → shutdown cycles (each session 1,000 tool calls): the heap after GC may
//     not grow by more than the tolerance (1 MB; one leaked session would add `oneSessionMB`).
// The webview heap of the 10,000-call session is measured by bench/webview.mjs (webviewHeap).
// `node out/bench/memory.js [--quick]`; prints one JSON line; exit 1 when the leak check fails.
import { SessionStore } from '../src/session/store';
import { cleanupScripts, clientLeakCheck, heapAfterGc, mb, sessionHeap, sessionLeakCheck } from './lib/memory';

const quick = process.argv.includes('--quick');
const CALLS = quick ? 2000 : 10_000;
const CYCLES = 10;
const LEAK_SIZE = { toolCalls: quick ? 300 : 1000, chunks: quick ? 300 : 1000 };
const TOLERANCE_MB = 1;

const TOOLS = [
  { tool: 'Read', kind: 'read' },
  { tool: 'Edit', kind: 'edit' },
  { tool: 'Grep', kind: 'search' },
  { tool: 'Bash', kind: 'execute' },
  { tool: 'Glob', kind: 'search' },
  { tool: 'WebFetch', kind: 'fetch' },
] as const;

function line(i: number, w = 60): string {
  return `  const value${i} = compute(input${i % 7}, options); // line ${i} ${'x'.repeat(w % 40)}`;
}

/** Realistic tool calls straight into a SessionStore. Returns the store. */
function realisticSession(calls: number): SessionStore {
  const store = new SessionStore('bench-realistic', () => 1_700_000_000_000);
  let at = 1_700_000_000_000;
  const turns = 50;
  const perTurn = calls / turns;
  let n = 0;
  for (let t = 0; t < turns; t++) {
    store.dispatch({
      type: 'promptStarted',
      at: at++,
      prompt: [{ type: 'text', text: `Task ${t + 1}: refactor module ${t} and run its tests` }],
    });
    for (let i = 0; i < perTurn; i++, n++) {
      const { tool, kind } = TOOLS[n % TOOLS.length];
      const path = `/home/user/project/src/module${t}/file${i}.ts`;
      const id = `toolu_${n.toString(36).padStart(8, '0')}abcdefghijklmnop`;
      const rawInput =
        tool === 'Bash'
          ? { command: `npm test -- src/module${t}/file${i}.test.ts`, description: 'Run the tests' }
          : tool === 'Edit'
            ? { file_path: path, old_string: line(i), new_string: line(i + 1) }
            : tool === 'Grep'
              ? { pattern: `compute\\(input${i}`, path: `/home/user/project/src/module${t}` }
              : { file_path: path };
      store.dispatch({
        type: 'update',
        at: at++,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: id,
          title: tool === 'Bash' ? `\`${rawInput.command}\`` : `${tool} ${path}`,
          kind,
          status: 'pending',
          locations: [{ path, line: i + 1 }],
          rawInput,
          _meta: { claudeCode: { toolName: tool } },
        },
      });
      store.dispatch({
        type: 'update',
        at: at++,
        update: { sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' },
      });
      const content =
        kind === 'edit'
          ? [
              {
                type: 'diff' as const,
                path,
                oldText: Array.from({ length: 40 }, (_, k) => line(k)).join('\n'),
                newText: Array.from({ length: 40 }, (_, k) => line(k + (k === 20 ? 1 : 0))).join('\n'),
              },
            ]
          : kind === 'execute'
            ? [
                {
                  type: 'content' as const,
                  content: {
                    type: 'text' as const,
                    text: Array.from({ length: 16 }, (_, k) => `  ✓ test ${k} of file${i} passes (${k + 3} ms)`).join(
                      '\n',
                    ),
                  },
                },
              ]
            : [
                {
                  type: 'content' as const,
                  content: { type: 'text' as const, text: `${'Found 3 matches. '.repeat(4)}${path}` },
                },
              ];
      store.dispatch({
        type: 'update',
        at: at++,
        update: {
          sessionUpdate: 'tool_call_update',
          toolCallId: id,
          status: n % 97 === 0 ? 'failed' : 'completed',
          content,
        },
      });
      if (i % 10 === 0)
        store.dispatch({
          type: 'update',
          at: at++,
          update: {
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'text', text: `Now looking at file ${i} of module ${t}; ` },
          },
        });
    }
    store.dispatch({ type: 'promptEnded', at: at++, stopReason: 'end_turn' });
  }
  return store;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  // 1. Real AgentClient + scripted flood.
  const client = await sessionHeap({ toolCalls: CALLS, chunks: CALLS });

  // 2. Reducer only, realistic payloads.
  const emptyStore = await heapAfterGc();
  let store: SessionStore | undefined = realisticSession(CALLS);
  const fullStore = await heapAfterGc();
  const realistic = {
    toolCalls: store.state.toolCalls.size,
    emptyMB: mb(emptyStore),
    fullMB: mb(fullStore),
    sessionMB: mb(fullStore - emptyStore),
    bytesPerToolCall: Math.round((fullStore - emptyStore) / CALLS),
    snapshotJsonMB: mb(JSON.stringify(store.snapshot()).length),
  };
  store.dispose();
  store = undefined;

  // 3. Leak checks.
  const sessions = await sessionLeakCheck({ cycles: CYCLES, warmup: 2, size: LEAK_SIZE, toleranceMB: TOLERANCE_MB });
  const clients = await clientLeakCheck({ cycles: CYCLES, warmup: 2, size: LEAK_SIZE, toleranceMB: TOLERANCE_MB });
  cleanupScripts();

  const ok = sessions.ok && clients.ok;
  console.log(
    JSON.stringify({
      bench: 'memory',
      node: process.version,
      quick,
      hostHeap: { flood: client, realistic },
      leak: { sessions, clients },
      budget: `leak check: heap growth across ${CYCLES} cycles ≤ ${TOLERANCE_MB} MB`,
      budget_met: ok,
      wallMs: Date.now() - t0,
    }),
  );
  if (!ok) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
