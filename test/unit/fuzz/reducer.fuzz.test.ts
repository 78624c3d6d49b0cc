// Properties of the session reducer over arbitrary action sequences: it never throws; every
// tool call has a status; content and locations are replaced, never appended; the webview's
// mirror rebuilt from a snapshot plus patches (coalesced or not) equals the host's snapshot,
// also when folded turns are sent as outlines and loaded later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { getToolCall, toSnapshot, turnWithCalls } from '../../../src/session/snapshot';
import { createSessionState, reduce } from '../../../src/session/reducer';
import type { SessionAction } from '../../../src/session/actions';
import { applyPatches, coalescePatches } from '../../../src/shared/patches';
import type { Patch } from '../../../src/shared/sessionModel';
import { outlineOf, TurnOutliner } from '../../../src/shared/turnOutline';
import { runs } from './runs';

const id = fc.constantFrom('t0', 't1', 't2', 't3');
const text = fc.string({ maxLength: 12 });
const status = fc.constantFrom('pending', 'in_progress', 'completed', 'failed');
const kind = fc.constantFrom('read', 'edit', 'execute', 'other', 'think');
const content = fc.array(
  fc.oneof(
    fc.record({ type: fc.constant('content'), content: fc.record({ type: fc.constant('text'), text }) }),
    fc.record({ type: fc.constant('diff'), path: text, oldText: fc.option(text), newText: text }),
    fc.record({ type: fc.constant('terminal'), terminalId: fc.constantFrom('T1', 'T2') }),
  ),
  { maxLength: 3 },
);
const locations = fc.array(
  fc.record({ path: text, line: fc.option(fc.nat(50), { nil: undefined }) }, { requiredKeys: ['path'] }),
  { maxLength: 2 },
);
const chunk = (k: string) =>
  fc.record(
    {
      sessionUpdate: fc.constant(k),
      content: fc.oneof(
        fc.record({ type: fc.constant('text'), text }),
        fc.record({ type: fc.constant('resource_link'), name: text, uri: text }),
      ),
      messageId: fc.option(fc.constantFrom('m1', 'm2'), { nil: undefined }),
    },
    { requiredKeys: ['sessionUpdate', 'content'] },
  );

const update: fc.Arbitrary<SessionUpdate> = fc.oneof(
  chunk('agent_message_chunk'),
  chunk('agent_message_chunk'),
  chunk('agent_thought_chunk'),
  chunk('user_message_chunk'),
  fc.record(
    {
      sessionUpdate: fc.constant('tool_call'),
      toolCallId: id,
      title: text,
      kind,
      status,
      content,
      locations,
      rawInput: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: ['sessionUpdate', 'toolCallId', 'title'] },
  ),
  fc.record(
    {
      sessionUpdate: fc.constant('tool_call_update'),
      toolCallId: id,
      status: fc.option(status),
      title: fc.option(text),
      content: fc.option(content),
      locations: fc.option(locations),
      _meta: fc.option(
        fc.record(
          {
            terminal_info: fc.record({ terminal_id: fc.constant('AT') }),
            terminal_output: fc.record({ terminal_id: fc.constant('AT'), data: text }),
          },
          { requiredKeys: [] },
        ),
        { nil: undefined },
      ),
    },
    { requiredKeys: ['sessionUpdate', 'toolCallId'] },
  ),
  fc.record({
    sessionUpdate: fc.constant('plan'),
    entries: fc.array(
      fc.record({
        content: text,
        priority: fc.constantFrom('high', 'low'),
        status: fc.constantFrom('pending', 'completed'),
      }),
      { maxLength: 3 },
    ),
  }),
  fc.record({ sessionUpdate: fc.constant('usage_update'), used: fc.nat(), size: fc.nat() }),
  fc.record({ sessionUpdate: fc.constant('session_info_update'), title: fc.option(text) }),
  fc.record({ sessionUpdate: fc.constant('notice'), severity: fc.constantFrom('info', 'warning'), title: text }),
  fc.record({
    sessionUpdate: fc.constant('compaction_update'),
    compactionId: fc.constantFrom('c1', 'c2'),
    status: fc.constantFrom('in_progress', 'completed'),
  }),
  fc.record({
    sessionUpdate: fc.constant('compaction_summary_chunk'),
    compactionId: fc.constantFrom('c1', 'c2'),
    content: fc.record({ type: fc.constant('text'), text }),
  }),
) as fc.Arbitrary<SessionUpdate>;

const action: fc.Arbitrary<SessionAction> = fc.oneof(
  { weight: 8, arbitrary: update.map((u) => ({ type: 'update', update: u, at: 1 }) as SessionAction) },
  {
    weight: 1,
    arbitrary: fc.constant({ type: 'promptStarted', at: 2, prompt: [{ type: 'text', text: 'go' }] } as SessionAction),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<SessionAction>(
      { type: 'promptEnded', at: 3, stopReason: 'end_turn' },
      { type: 'promptFailed', at: 3, error: 'x' },
      { type: 'disconnected', at: 3, error: 'gone' },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('terminal'),
      at: fc.constant(4),
      terminal: fc.record({ terminalId: fc.constantFrom('T1', 'T2'), exited: fc.boolean(), command: text }),
    }) as fc.Arbitrary<SessionAction>,
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('terminalOutput'),
      at: fc.constant(5),
      terminalId: fc.constantFrom('T1', 'T2', 'nope'),
      data: text,
    }) as fc.Arbitrary<SessionAction>,
  },
);

test('reducer: never throws; invariants hold; snapshot + patches == snapshot', () => {
  fc.assert(
    fc.property(fc.array(action, { maxLength: 30 }), fc.nat(29), (actions, cut) => {
      let s = createSessionState('fuzz');
      const split = Math.min(cut, actions.length);
      for (const a of actions.slice(0, split)) s = reduce(s, a).state;
      // A webview that connects mid-session: snapshot now, then patches.
      const mirror = toSnapshot(s);
      const mirror2 = toSnapshot(s);
      const patches: Patch[] = [];
      for (const a of actions.slice(split)) {
        const r = reduce(s, a);
        s = r.state;
        patches.push(...r.patches);
        if (
          a.type === 'update' &&
          (a.update.sessionUpdate === 'tool_call' || a.update.sessionUpdate === 'tool_call_update')
        ) {
          const call = toSnapshot(s).toolCalls[a.update.toolCallId];
          if (a.update.content != null) assert.deepEqual(call.content, a.update.content, 'content replaced');
          if (a.update.locations != null) assert.deepEqual(call.locations, a.update.locations, 'locations replaced');
        }
      }
      const snap = toSnapshot(s);
      for (const c of Object.values(snap.toolCalls))
        assert.ok(['pending', 'in_progress', 'completed', 'failed'].includes(c.status));
      applyPatches(mirror, patches);
      assert.deepEqual(mirror, snap);
      applyPatches(mirror2, coalescePatches(patches));
      assert.deepEqual(mirror2, snap);
    }),
    { numRuns: runs(50_000) },
  );
});

test('outlined snapshot + patches through the outliner + loading every turn == snapshot', () => {
  fc.assert(
    fc.property(
      fc.array(action, { maxLength: 40 }),
      fc.nat(39),
      fc.array(fc.nat(6), { maxLength: 4 }),
      (actions, cut, asks) => {
        let s = createSessionState('fuzz');
        const split = Math.min(cut, actions.length);
        for (const a of actions.slice(0, split)) s = reduce(s, a).state;
        const source = {
          fullTurn: (t: number) => turnWithCalls(s, t),
          turnOfCall: (id: string) => getToolCall(s, id)?.turn,
        };
        const outliner = new TurnOutliner();
        const mirror = outliner.snapshot(toSnapshot(s))!;
        actions.slice(split).forEach((a, i) => {
          const r = reduce(s, a);
          s = r.state;
          applyPatches(mirror, outliner.patches('fuzz', r.patches, source));
          // The view unfolds a turn now and then.
          if (asks[i] !== undefined) applyPatches(mirror, outliner.request('fuzz', [asks[i]], source));
          // At every step, what the view holds whole is exactly the host's.
          const host = toSnapshot(s);
          assert.equal(mirror.turns.length, host.turns.length);
          mirror.turns.forEach((t, k) => {
            if (t.outline) {
              assert.deepEqual(t.items, host.turns[k].items.slice(0, t.items.length), 'an outline keeps the prompt');
              assert.deepEqual(t.outline, outlineOf(host.turns[k], host.toolCalls), 'its counts are current');
              return;
            }
            assert.deepEqual(t, host.turns[k]);
            for (const it of t.items)
              if (it.kind === 'tool') assert.deepEqual(mirror.toolCalls[it.toolCallId], host.toolCalls[it.toolCallId]);
          });
          assert.deepEqual({ ...mirror, turns: [], toolCalls: {} }, { ...host, turns: [], toolCalls: {} });
        });
        applyPatches(
          mirror,
          outliner.request(
            'fuzz',
            mirror.turns.map((t) => t.index),
            source,
          ),
        );
        assert.ok(
          mirror.turns.every((t) => !t.outline),
          'every turn loaded',
        );
        assert.deepEqual(mirror, toSnapshot(s));
      },
    ),
    { numRuns: runs(10_000) },
  );
});
