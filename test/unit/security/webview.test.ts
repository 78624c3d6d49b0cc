// Security of the session webview, host side: the HTML's CSP (strict, nonce, nothing inline) and
// the webview → host path (SessionViewProvider receive → parseFromWebview → ViewIntents.handle): a
// forged or malformed message cannot write files and cannot answer a permission prompt the view
// was not shown. Real Controller + AgentClient + scripted agent, fake `vscode`.
import { state as vs, fakeContext, fakeWebviewView, vscodeFake } from './fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionBroker } from '../../../src/client/permissions/broker';
import { PermissionsFeature } from '../../../src/client/permissions/feature';
import { memoryMemento, RememberedDecisions } from '../../../src/client/permissions/remembered';
import { FileSystemFeature } from '../../../src/client/files/fileSystem';
import { ChangeTracker } from '../../../src/client/changes/changeTracker';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { Controller } from '../../../src/vscode/agent/controller';
import { viewIntents } from './viewIntents';
import { SessionViewProvider } from '../../../src/vscode/view/sessionView';
import { vscodeRequests } from '../../../src/vscode/view/webviewRequests';
import { FakeDocs, FakeEdits, fakeWorkspace, nodeFs } from '../client/fakePorts';
import { until } from '../../support/until';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

function cspOf(html: string): Map<string, string[]> {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, 'a CSP meta tag');
  return new Map(
    m[1]
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((p) => p[0])
      .map(([k, ...v]) => [k, v]),
  );
}

test('CSP: default-src none, scripts only by nonce (fresh per load), no unsafe-inline / unsafe-eval, no remote images', () => {
  const logger = new MemoryLogger();
  const provider = new SessionViewProvider(vscodeFake.Uri.file(REPO) as never, logger);
  provider.serve(
    {
      snapshot: () =>
        ({ type: 'snapshot', agent: { state: 'none' }, session: null, workspaceRoots: [], sessions: [] }) as never,
      turns: () => undefined,
    },
    vscodeRequests,
  );
  const a = fakeWebviewView();
  provider.resolveWebviewView(a.view as never);
  const html = a.html();
  const csp = cspOf(html);
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  const all = [...csp.values()].flat();
  assert.ok(!all.includes("'unsafe-inline'"), 'no unsafe-inline anywhere');
  assert.ok(!all.includes("'unsafe-eval'"), 'no unsafe-eval anywhere');
  assert.ok(
    !all.some((s) => s === '*' || /^https?:$/.test(s) || s === 'http:' || s === 'https:'),
    `no wildcard sources: ${all.join(' ')}`,
  );
  const scriptSrc = csp.get('script-src')!;
  const nonce = scriptSrc.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
  assert.ok(nonce && nonce.length >= 16, 'a script nonce of at least 128 bits');
  assert.ok(
    !(csp.get('img-src') ?? []).some((s) => /^https?:\/\/(?!file\+\.vscode-resource)/.test(s)),
    'images only from the extension or data:',
  );
  assert.ok(
    !csp.has('connect-src') || !csp.get('connect-src')!.some((s) => s !== "'none'"),
    'no network from the webview',
  );
  // Every script tag carries the nonce and loads a file: no inline code, no inline handlers.
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.ok(scripts.length >= 1);
  for (const [, attrs, body] of scripts) {
    assert.match(attrs, new RegExp(`nonce="${nonce!.replace(/[+/=]/g, '\\$&')}"`));
    assert.match(attrs, /src="/);
    assert.equal(body.trim(), '', 'no inline script');
  }
  assert.ok(!/\son[a-z]+=/i.test(html), 'no inline event handlers');
  // A second load gets a new nonce.
  const b = fakeWebviewView();
  provider.resolveWebviewView(b.view as never);
  const nonce2 = cspOf(b.html())
    .get('script-src')!
    .find((s) => s.startsWith("'nonce-"));
  assert.notEqual(nonce2, `'nonce-${nonce}'`);
  provider.dispose();
});

// ---------------------------------------------------------------- forged messages

const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-sec-view-')));
const ws = join(root, 'ws');
mkdirSync(ws);
writeFileSync(join(ws, 'keep.txt'), 'user data\n');
const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const script: AgentScript = {
  prompts: [
    {
      match: 'ask',
      steps: [
        {
          update: {
            sessionUpdate: 'tool_call',
            toolCallId: 'rm',
            title: 'rm -rf /',
            kind: 'execute',
            status: 'pending',
          },
        },
        {
          request: 'session/request_permission',
          params: { sessionId: '${sessionId}', toolCall: { toolCallId: 'rm', title: 'rm -rf /' }, options: OPTIONS },
          as: 'p',
        },
        { stream: 'answer ${p.outcome.outcome} ${p.outcome.optionId}' },
      ],
    },
  ],
};
const scriptFile = join(root, 'script.json');
writeFileSync(scriptFile, JSON.stringify(script));

function digest(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      h.update(`${p}:${st.size}:${st.mtimeMs}\n`);
      if (st.isDirectory()) walk(p);
      else h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

test('forged webview messages: malformed ones are refused and logged; nothing is written; a prompt not shown cannot be answered', async () => {
  vs.isTrusted = true;
  vs.folders = [ws];
  vs.config = {
    'tandem.agents': [{ name: 'Scripted', command: process.execPath, args: [AGENT, scriptFile] }],
    'tandem.defaultAgent': 'Scripted',
  };
  const logger = new MemoryLogger();
  const broker = new PermissionBroker({
    rules: () => ({ user: [], workspace: [] }),
    roots: () => [ws],
    remembered: new RememberedDecisions(memoryMemento()),
    logger,
  });
  const docs = new FakeDocs();
  const context = fakeContext(REPO, join(root, 'storage'));
  const ctl = new Controller({ context: context as never, logger, traffic: () => undefined });
  ctl.registerFeatures(() => [
    new PermissionsFeature(broker),
    new FileSystemFeature({
      documents: docs,
      fs: nodeFs,
      edits: new FakeEdits(docs),
      workspace: fakeWorkspace(ws),
      permission: broker,
      tracker: new ChangeTracker(),
    }),
  ]);
  const provider = new SessionViewProvider(vscodeFake.Uri.file(REPO) as never, logger);
  provider.serve({ snapshot: () => ctl.snapshot(), turns: () => undefined }, vscodeRequests);
  const handled: string[] = [];
  provider.onIntent((i) => handled.push(i.type));
  const answered: boolean[] = []; // what the broker said to each answer that reached it
  const intents = viewIntents(ctl, context, logger, {
    view: provider,
    permissions: {
      answer: (r, o) => {
        const ok = broker.answer(r, o);
        answered.push(ok);
        return ok;
      },
    },
  });
  const v = fakeWebviewView();
  provider.resolveWebviewView(v.view as never);
  try {
    await ctl.start();
    assert.equal(ctl.agent.state, 'ready');
    v.send({ type: 'ready' });
    const before = digest(ws);

    // 1. Malformed / unknown messages: refused by parseFromWebview, logged, never reach the controller.
    const forged: unknown[] = [
      { type: 'fs/write_text_file', path: join(ws, 'keep.txt'), content: 'pwned' },
      { type: 'writeFile', path: join(ws, 'keep.txt'), content: 'pwned' },
      { type: 'prompt', text: 'hi', path: join(ws, 'keep.txt') },
      { type: 'openExternal', url: 'file:///etc/passwd' },
      { type: 'openExternal', url: 'command:workbench.action.terminal.new' },
      { type: 'openExternal', url: 'javascript:alert(1)' },
      { type: 'permissionAnswer', requestId: 'perm-1' },
      { type: 'permissionAnswer', requestId: { $gt: '' }, optionId: 'allow' },
      { type: 'copyText' },
      ['ready'],
      'ready',
      null,
      42,
      { type: '__proto__' },
      { type: 'constructor' },
    ];
    for (const m of forged) v.send(m);
    assert.deepEqual(handled, [], `no forged message was handled: ${handled.join(', ')}`);
    const ignored = logger.messages('warn').filter((m) => /Ignored an invalid message from the Tandem view/.test(m));
    assert.equal(ignored.length, forged.length, 'each one logged');

    // 2. A prompt in session A, then the user opens session B: the view shows B, which has none.
    const a = ctl.current!.session!.sessionId;
    void intents.handle({ type: 'prompt', text: 'ask' });
    await until(() => broker.pending().length === 1);
    const pending = broker.pending()[0];
    assert.equal(pending.sessionId, a);
    // An answer naming an option the prompt did not offer changes nothing.
    v.send({ type: 'permissionAnswer', requestId: pending.requestId, optionId: 'allow_always' });
    await until(() => answered.length === 1, 2000, 'the answer to reach the broker');
    assert.deepEqual(answered, [false]);
    assert.equal(broker.pending().length, 1, 'an option not offered is refused');
    await intents.handle({ type: 'newSession' });
    assert.notEqual(ctl.current!.session!.sessionId, a);
    assert.deepEqual(ctl.snapshot().session!.permissions, [], 'the view shows no prompt');
    // Guessable ids: the forged answer for session A's prompt (not shown) must be refused.
    v.send({ type: 'permissionAnswer', requestId: pending.requestId, optionId: 'allow' });
    for (let i = 0; i < 5; i++) v.send({ type: 'permissionAnswer', requestId: `perm-${i}`, optionId: 'allow' });
    const notShown = () => logger.messages('warn').filter((m) => /permission answer .*not shown/i.test(m));
    await until(() => notShown().length === 6, 2000, 'the six forged answers to be refused');
    assert.equal(answered.length, 1, 'none of them reached the broker');
    assert.equal(broker.pending().length, 1, 'the prompt the view was not shown is still pending');
    assert.ok(
      logger.messages('warn').some((m) => /permission answer .*not shown/i.test(m)),
      'the forged answer is logged',
    );
    // Shown again (switch back): now the user's answer counts.
    v.send({ type: 'switchSession', sessionId: a });
    await until(() => ctl.current!.session!.sessionId === a);
    v.send({ type: 'permissionAnswer', requestId: pending.requestId, optionId: 'reject' });
    await until(() => broker.pending().length === 0);
    assert.equal(digest(ws), before, 'the workspace is byte-for-byte unchanged');
  } finally {
    await ctl.stop();
    intents.dispose();
    provider.dispose();
    ctl.dispose();
  }
});

after(() => {
  vs.config = {};
});
