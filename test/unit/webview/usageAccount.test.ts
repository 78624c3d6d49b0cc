// The view's header from the agent's `_meta` channels: the usage meter (the context used of its
// size and the cost so far from usage_update, what the last turn spent from its `_meta.quota`)
// and who the agent works as (`_auth/status_update`), with a way to sign in when it says nobody.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { until } from '../../support/until';
import { fakeHost } from './fakeHost';
import { installDom } from './transcriptMount';
import type { AgentView } from '../../../src/shared/protocol';
import { emptySnapshot, type SessionSnapshot, type TurnView } from '../../../src/shared/sessionModel';

installDom();

function mountApp(agent: AgentView, session: SessionSnapshot | null) {
  const { h, render } = require('preact') as typeof import('preact');
  const { HostContext } = require('../../../src/webview/host') as typeof import('../../../src/webview/host');
  const { App } =
    require('../../../src/webview/components/App') as typeof import('../../../src/webview/components/App');
  const { Mirror } = require('../../../src/webview/mirror') as typeof import('../../../src/webview/mirror');
  const mirror = new Mirror();
  mirror.receive({ type: 'snapshot', agent, session, sessions: [] });
  const fake = fakeHost();
  const root = document.body.appendChild(document.createElement('div'));
  render(h(HostContext.Provider, { value: fake.host }, h(App, { vm: mirror.current })), root);
  return {
    root,
    intents: fake.intents,
    unmount: () => {
      render(null, root);
      root.remove();
    },
  };
}

const ready: AgentView = { state: 'ready', name: 'Claude Agent' };
const turn = (index: number, usage?: TurnView['usage']): TurnView => ({
  index,
  startedAt: index,
  endedAt: index + 1,
  stopReason: 'end_turn',
  items: [{ kind: 'user', blocks: [{ type: 'text', text: `task ${index}` }] }],
  ...(usage ? { usage } : {}),
});
const session = (usage?: SessionSnapshot['meta']['usage'], turns: TurnView[] = []): SessionSnapshot => {
  const s = emptySnapshot('s');
  return { ...s, meta: { ...s.meta, ...(usage ? { usage } : {}) }, turns };
};
const meter = async (root: HTMLElement) => {
  await until(() => !!root.querySelector('[data-testid="usage"]'), 1000, 'the usage meter');
  return root.querySelector<HTMLElement>('[data-testid="usage"]')!;
};

test('the meter shows the context used of its size, the cost so far, and what the last turn spent', async () => {
  const s = session({ used: 30_000, size: 200_000, cost: { amount: 1.234, currency: 'USD' } }, [
    turn(0, { total: 900, input: 300, output: 600 }),
    turn(1, { total: 1500, input: 20, output: 40, cachedRead: 1440 }),
    turn(2),
  ]);
  const { root, unmount } = mountApp(ready, s);
  const m = await meter(root);
  assert.equal(m.querySelector('[data-testid="usage-context"]')!.textContent, '30.0k/200k');
  assert.match(m.textContent!, /· \$1\.23/);
  assert.equal(m.querySelector('[data-testid="usage-turn"]')!.textContent, ' · 1.5k tokens last turn');
  assert.match(m.title, /^Context: 30,000 of 200,000 tokens \(15%\)$/m);
  assert.match(m.title, /^Cost so far: \$1\.2340$/m);
  assert.match(m.title, /^Last turn: 1,500 tokens \(20 in, 40 out, 1,440 from cache\)$/m);
  unmount();
});

test('a cost too small to show in cents says so instead of $0.00; a window of millions reads as M', async () => {
  const { root, unmount } = mountApp(
    ready,
    session({ used: 30, size: 1_000_000, cost: { amount: 0.00088, currency: 'USD' } }),
  );
  const m = await meter(root);
  assert.equal(m.querySelector('[data-testid="usage-context"]')!.textContent, '30/1M');
  assert.match(m.textContent!, /· <\$0\.01/);
  assert.match(m.title, /Cost so far: \$0\.0009/);
  unmount();
});

test("with only a turn's spend and no context reported, the meter shows the spend alone", async () => {
  const { root, unmount } = mountApp(ready, session(undefined, [turn(0, { total: 60, input: 20, output: 40 })]));
  const m = await meter(root);
  assert.equal(m.querySelector('[data-testid="usage-context"]'), null);
  assert.equal(m.textContent, '60 tokens last turn');
  unmount();
});

test('the header names who the agent works as; signed out, it offers the sign-in', async () => {
  const signedIn = mountApp(
    { ...ready, account: { kind: 'api_key', label: 'Anthropic API key', detail: 'env' } },
    null,
  );
  // The chip comes in a chunk of its own, loaded on first use.
  await until(() => !!signedIn.root.querySelector('[data-testid="agent-account"]'), 1000, 'the account chip');
  const chip = signedIn.root.querySelector<HTMLElement>('[data-testid="agent-account"]')!;
  assert.equal(chip.textContent!.trim(), 'Anthropic API key');
  assert.equal(chip.title, 'Works as Anthropic API key (env)');
  assert.equal(chip.tagName, 'SPAN', 'nothing to click');
  signedIn.unmount();

  const out = mountApp({ ...ready, account: { kind: 'none', label: 'Not logged in' } }, null);
  await until(() => !!out.root.querySelector('[data-testid="agent-account"]'), 1000, 'the sign-in chip');
  const button = out.root.querySelector<HTMLButtonElement>('[data-testid="agent-account"]')!;
  assert.equal(button.textContent!.trim(), 'Not logged in: sign in…');
  button.click();
  assert.deepEqual(out.intents, [{ type: 'signIn' }]);
  out.unmount();
});

test('asked to sign in, the view says which account the agent reported', async () => {
  const { root, unmount } = mountApp(
    {
      state: 'auth',
      name: 'Claude Agent',
      message: 'Claude Agent needs you to sign in.',
      account: { kind: 'account', label: 'Claude Max', email: 'ada@example.com' },
    },
    null,
  );
  assert.match(
    root.querySelector('[data-testid="sign-in"]')!.textContent!,
    /needs you to sign in\. It reports Claude Max \(ada@example\.com\)\./,
  );
  unmount();
});
