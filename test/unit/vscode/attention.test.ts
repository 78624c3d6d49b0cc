// Being told when the agent needs you: a turn that ends or fails while the view is out of sight
// shows a notification (per tandem.notifications), counts on the view's badge and is cleared
// when the view is seen; a cancel tells nothing. Real Controller and scripted agent, fake `vscode`.
import { state as vs, fakeContext } from '../security/fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Emitter } from '../../../src/common/event';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { TurnAttention } from '../../../src/vscode/view/attention';
import { Controller } from '../../../src/vscode/agent/controller';
import { TurnEnds } from '../../../src/vscode/prompts/turnEnds';
import { until } from '../../support/until';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

const SCRIPT: AgentScript = {
  prompts: [
    { match: 'fail', steps: [{ fail: { code: -32603, message: 'model overloaded' } }] },
    { match: 'hang', steps: [{ stream: 'working…' }, { hang: true }] },
  ],
  defaultPrompt: { steps: [{ stream: 'done' }] },
};

async function withAttention(
  setting: string | undefined,
  body: (t: {
    ctl: Controller;
    view: ReturnType<typeof fakeView>;
    attention: TurnAttention;
    /** The outcomes of the turns that ended, once TurnAttention has handled them. */
    ends: string[];
  }) => Promise<void>,
) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-attention-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(join(root, 'script.json'), JSON.stringify(SCRIPT));
  vs.folders = [ws];
  vs.isTrusted = true;
  vs.windowFocused = true;
  vs.config = {
    'tandem.agents': [{ name: 'Scripted', command: process.execPath, args: [AGENT, join(root, 'script.json')] }],
    'tandem.defaultAgent': 'Scripted',
    ...(setting ? { 'tandem.notifications': setting } : {}),
  };
  vs.shown = [];
  const ctl = new Controller({
    context: fakeContext(REPO, join(root, 'storage')) as never,
    logger: new MemoryLogger(),
    traffic: () => undefined,
  });
  const turns = new TurnEnds();
  ctl.registerFeatures(() => [turns]);
  const view = fakeView();
  const attention = new TurnAttention(ctl, turns, view);
  // Subscribed after TurnAttention: it has handled an end when this hears of it.
  const ends: string[] = [];
  turns.onDidEnd((e) => ends.push(e.outcome));
  try {
    await ctl.start();
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    await body({ ctl, view, attention, ends });
  } finally {
    await ctl.stop();
    attention.dispose();
    turns.dispose();
    ctl.dispose();
  }
}

function fakeView() {
  const visibility = new Emitter<boolean>();
  const v = {
    isVisible: false,
    onDidChangeVisibility: visibility.event,
    badges: new Map<string, { count: number; tooltip: string }>(),
    shows: 0,
    setBadge(count: number, tooltip: string, source: string) {
      v.badges.set(source, { count, tooltip });
    },
    show() {
      v.shows++;
    },
    setVisible(visible: boolean) {
      v.isVisible = visible;
      visibility.fire(visible);
    },
  };
  return v;
}

test('a turn that ends while the view is hidden: a notification, the badge, the status; seeing the view clears them', async () => {
  await withAttention(undefined, async ({ ctl, view, attention }) => {
    await ctl.current!.prompt('hello');
    await until(() => vs.shown.length > 0, 5000, 'a notification');
    assert.match(vs.shown[0], /^info: .* finished/);
    assert.deepEqual(view.badges.get('turns'), { count: 1, tooltip: '1 finished while you were away' });
    assert.deepEqual(attention.unseen, { ended: 1, failed: 0 });
    view.setVisible(true);
    assert.equal(view.badges.get('turns')?.count, 0);
    assert.deepEqual(attention.unseen, { ended: 0, failed: 0 });
  });
});

test('a failed turn says why; an unfocused window counts as not looking', async () => {
  await withAttention(undefined, async ({ ctl, view, attention }) => {
    view.isVisible = true;
    vs.windowFocused = false;
    await ctl.current!.prompt('fail please');
    await until(() => vs.shown.length > 0, 5000, 'a notification');
    assert.match(vs.shown[0], /^error: .*the turn failed.*model overloaded/);
    assert.deepEqual(attention.unseen, { ended: 0, failed: 1 });
  });
});

test('whenHidden (default) with the view in sight, and off: no notification', async () => {
  await withAttention(undefined, async ({ ctl, view, ends }) => {
    view.isVisible = true;
    await ctl.current!.prompt('hello');
    await until(() => ends.length === 1, 5000, 'the end of the turn');
    assert.deepEqual(vs.shown, []);
    assert.equal(view.badges.get('turns'), undefined);
  });
  await withAttention('off', async ({ ctl, view, ends }) => {
    await ctl.current!.prompt('hello');
    await until(() => ends.length === 1, 5000, 'the end of the turn');
    assert.deepEqual(vs.shown, [], 'off: no notification');
    assert.equal(view.badges.get('turns')?.count, 1, 'the badge still counts it');
  });
});

test('always: a notification even with the view in sight; a cancelled turn tells nothing', async () => {
  await withAttention('always', async ({ ctl, view, ends }) => {
    view.isVisible = true;
    await ctl.current!.prompt('hello');
    await until(() => vs.shown.length === 1, 5000, 'a notification');
    const turn = ctl.current!.prompt('hang please');
    await until(() => ctl.current!.session!.state.meta.status === 'working', 5000, 'the turn runs');
    ctl.current!.cancel();
    await turn;
    await until(() => ends.length === 2, 5000, 'the end of the cancelled turn');
    assert.deepEqual(ends, ['ended', 'cancelled']);
    assert.equal(vs.shown.length, 1, vs.shown.join(' | '));
  });
});

after(() => {
  vs.config = {};
  vs.windowFocused = true;
});

test('sessions that share a title are told apart in the notification by their last prompt', async () => {
  await withAttention(undefined, async ({ ctl }) => {
    await ctl.current!.prompt('fix the login page');
    await ctl.newSession();
    await ctl.current!.prompt('write the release notes');
    await until(() => vs.shown.length === 2, 5000, 'two notifications');
    assert.match(vs.shown[0], /finished \(untitled session: “fix the login page”\)/);
    assert.match(vs.shown[1], /finished \(untitled session: “write the release notes”\)/);
  });
});
