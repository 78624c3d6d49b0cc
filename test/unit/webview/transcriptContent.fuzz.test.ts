// Property: whatever valid ACP content an agent sends (acpArbitraries.ts), the session view draws
// every row of it. Sessions go through the real reducer, reach the view as the host sends them (a
// snapshot, then patches) and are drawn by the real transcript with turns, tool calls and thoughts
// open or folded. No exception escapes, no row falls back to "could not be shown", every row has
// content. `FULL=1` runs 10×.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { SessionAction } from '../../../src/session/actions';
import { createSessionState, reduce } from '../../../src/session/reducer';
import { toSnapshot } from '../../../src/session/snapshot';
import { AGENT_TO_CLIENT_REQUESTS, describeErrors, validateSessionNotification } from '../../../src/acp/validation';
import type { Patch, SessionSnapshot } from '../../../src/shared/sessionModel';
import { runs } from '../fuzz/runs';
import { until } from '../../support/until';
import { action } from './acpArbitraries';
import { installDom, mountTranscript, sessionOf } from './transcriptMount';

const dom = installDom();
const uncaught: unknown[] = [];
dom.window.addEventListener('error', (e) => {
  uncaught.push(e.error);
  e.preventDefault();
});

const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
const { buildRows } = require('../../../src/webview/rows') as typeof import('../../../src/webview/rows');
const { clearMarkdownCache } =
  require('../../../src/webview/components/Markdown') as typeof import('../../../src/webview/components/Markdown');

const validPermission = AGENT_TO_CLIENT_REQUESTS.get('session/request_permission')!;

/** The client drops what does not validate: a generated action must be valid ACP, or the generator is wrong. */
function assertValid(a: SessionAction): void {
  if (a.type === 'update') {
    const ok = validateSessionNotification({ sessionId: 'fuzz', update: a.update });
    assert.ok(ok, `generated an invalid update: ${describeErrors(validateSessionNotification.errors)}`);
  } else if (a.type === 'permissionRequested') {
    const { toolCall, options } = a.request;
    assert.ok(validPermission({ sessionId: 'fuzz', toolCall, options }), describeErrors(validPermission.errors));
  }
}

/** Every row drawn, each with content, none replaced by the error line. */
async function assertAllRows(root: HTMLElement, session: SessionSnapshot, foldAll: boolean | undefined) {
  const rows = buildRows(session, new Map(), foldAll, { kinds: new Set(), statuses: new Set() }, '');
  const drawn = () => [...root.querySelectorAll<HTMLElement>('.vrow')];
  // The list widens its window to the (tall) viewport once its effects ran: after a slow first draw.
  await until(() => drawn().length >= rows.length, 10_000, 'every row drawn').catch(() => undefined);
  const failed = [...root.querySelectorAll('[data-testid="row-error"]')].map((e) => e.textContent);
  assert.deepEqual(failed, [], 'a row could not be shown');
  assert.deepEqual(
    drawn().map((r) => r.dataset.key),
    rows.map((r) => r.key),
  );
  for (const r of drawn()) assert.ok(r.firstElementChild, `row ${r.dataset.key} is empty`);
  assert.deepEqual(uncaught, []);
}

// The lazily loaded parts (tool details, permission prompt, terminal renderer, a turn's changes)
// in before the property runs, so each case draws them at once, as a warmed-up view does.
test.before(async () => {
  const warm = sessionOf([
    { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] },
    { type: 'terminal', at: 1, terminal: { terminalId: 'T1', exited: false } },
    { type: 'terminalOutput', at: 1, terminalId: 'T1', data: 'hi' },
    {
      type: 'update',
      at: 1,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'Run',
        content: [{ type: 'terminal', terminalId: 'T1' }],
      },
    },
  ]);
  const { root, unmount } = await mountTranscript(warm, ['c1'], false);
  await until(() => !!root.querySelector('[data-testid="terminal-screen"]'), 5000, 'the terminal renderer');
  await until(() => !!root.querySelector('[data-testid="restore-here"]'), 5000, "the turn's changes");
  unmount();
});

test('any valid ACP content: every row of the session view renders, nothing escapes', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(action, { minLength: 1, maxLength: 24 }),
      fc.nat(),
      fc.constantFrom(false, undefined),
      fc.boolean(),
      async (generated, cutAt, foldAll, expandAll) => {
        const actions = generated.map((a, i) => ({ ...a, at: i + 1 }) as SessionAction);
        actions.forEach(assertValid);
        const cut = cutAt % (actions.length + 1);
        let state = createSessionState('fuzz');
        for (const a of actions.slice(0, cut)) state = reduce(state, a).state;
        const patches: Patch[] = [];
        let later = state;
        for (const a of actions.slice(cut)) {
          const r = reduce(later, a);
          later = r.state;
          patches.push(...r.patches);
        }
        // What the user opened: every tool call and thought (of the final session), or nothing.
        const final = toSnapshot(later);
        const open = expandAll
          ? [...Object.keys(final.toolCalls), ...final.turns.flatMap((t) => t.items.map((_, i) => `i${t.index}.${i}`))]
          : [];
        // The view receives copies (postMessage clones), a snapshot (a session opened again), then patches.
        clearMarkdownCache();
        const mirror = new Mirror();
        mirror.schedule = () => 1;
        // The workspace folder '/w' (acpStrings.ts makes paths in and around it), in the mirrored state.
        const session = structuredClone(toSnapshot(state));
        mirror.receive({ type: 'snapshot', agent: { state: 'ready' }, session, workspaceRoots: ['/w'] });
        const view = await mountTranscript(mirror.current.session!, open, foldAll, mirror.current.workspaceRoots);
        try {
          await assertAllRows(view.root, mirror.current.session!, foldAll);
          mirror.receive({ type: 'patch', sessionId: 'fuzz', patches: structuredClone(patches) });
          mirror.flush();
          await view.draw(mirror.current.session!);
          await assertAllRows(view.root, mirror.current.session!, foldAll);
        } finally {
          view.unmount();
        }
      },
    ),
    { numRuns: runs(60), includeErrorInReport: true },
  );
});
