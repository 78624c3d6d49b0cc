// Rules, the built-in read rule and remembered decisions judge where a call really lands: real
// temp folders with real symlinks, since a lexical check cannot see ws/docs/keys → ~/.ssh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { callFacts, isInside, type CallLike } from '../../../../src/client/permissions/callFacts';
import { evaluate, type RuleSet } from '../../../../src/client/permissions/ruleEvaluation';
import { parseRules } from '../../../../src/client/permissions/rules';
import {
  memoryMemento,
  patternFor,
  RememberedDecisions,
  type RememberedDecision,
} from '../../../../src/client/permissions/remembered';
import { realPathSync } from '../../../../src/client/files/realPath';

/** tmp/ws (the workspace, docs/keys → tmp/home/.ssh), tmp/home, tmp/link-ws → tmp/ws. */
function fixture() {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-realpaths-')));
  const ws = join(tmp, 'ws');
  const home = join(tmp, 'home');
  mkdirSync(join(ws, 'docs'), { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'secret');
  writeFileSync(join(home, '.bashrc'), 'rc');
  writeFileSync(join(ws, 'docs', 'readme.md'), 'hi');
  symlinkSync(join(home, '.ssh'), join(ws, 'docs', 'keys'));
  symlinkSync(ws, join(tmp, 'link-ws'));
  return { tmp, ws, home, linkWs: join(tmp, 'link-ws') };
}

function rules(user: unknown[] = [], workspace: unknown[] = []): RuleSet {
  return { user: parseRules(user, 'user').rules, workspace: parseRules(workspace, 'workspace').rules };
}

const read = (rawInput: Record<string, unknown>): CallLike => ({
  toolCallId: 'r1',
  kind: 'read',
  title: 'Read',
  rawInput,
});
const edit = (path: string): CallLike => ({
  toolCallId: 'e1',
  kind: 'edit',
  title: 'Edit',
  content: [{ type: 'diff', path, oldText: null, newText: 'x' }],
});

test('the built-in read rule asks for a read through a workspace link that leads outside', () => {
  const { ws } = fixture();
  const decide = (c: CallLike) => evaluate(rules(), callFacts(c, undefined, ws), { roots: [ws] }).action;
  assert.equal(decide(read({ file_path: join(ws, 'docs', 'keys', 'id_rsa') })), 'ask');
  assert.equal(decide(read({ file_path: 'docs/keys/id_rsa' })), 'ask', 'relative to the cwd');
  assert.equal(decide(read({ file_path: join(ws, 'docs', 'readme.md') })), 'allow', 'a real file inside');
});

test('`..` after a link climbs from where the link points, as the file system does', () => {
  const { ws } = fixture();
  const facts = callFacts(read({ file_path: `${ws}/docs/keys/../.bashrc` }), undefined, ws);
  assert.equal(evaluate(rules(), facts, { roots: [ws] }).action, 'ask');
});

test('a user edit rule on docs/** asks for a write through a link that leaves the workspace', () => {
  const { ws } = fixture();
  const s = rules([{ kind: 'edit', paths: 'docs/**', action: 'allow' }]);
  const decide = (p: string) => evaluate(s, callFacts(edit(p), undefined, ws), { roots: [ws] }).action;
  assert.equal(decide(join(ws, 'docs', 'keys', 'authorized_keys')), 'ask', 'a new file behind the link');
  assert.equal(decide(join(ws, 'docs', 'keys', 'id_rsa')), 'ask', 'an existing file behind the link');
  assert.equal(decide(join(ws, 'docs', 'new.md')), 'allow', 'a new file really in docs/');
});

test('a dangling link is judged by the file a write through it would create', () => {
  const { ws, home } = fixture();
  symlinkSync(join(home, '.config', 'autostart', 'x.desktop'), join(ws, 'docs', 'later.md'));
  const s = rules([{ kind: 'edit', paths: 'docs/**', action: 'allow' }]);
  const facts = callFacts(edit(join(ws, 'docs', 'later.md')), undefined, ws);
  assert.deepEqual(facts.paths, [join(home, '.config', 'autostart', 'x.desktop')]);
  assert.equal(evaluate(s, facts, { roots: [ws] }).action, 'ask');
});

test('a path rule matches the real path relative to the real folder, whichever way either is named', () => {
  const { ws, linkWs } = fixture();
  const s = rules([{ kind: 'edit', paths: 'docs/**', action: 'allow' }]);
  // The agent was started in the folder through its symlinked name; the editor reports the real one.
  const viaLink = callFacts(edit(join(linkWs, 'docs', 'a.md')), undefined, linkWs);
  assert.equal(evaluate(s, viaLink, { roots: [ws] }).action, 'allow');
  // The workspace was opened through the symlink.
  const direct = callFacts(edit(join(ws, 'docs', 'a.md')), undefined, ws);
  assert.equal(evaluate(s, direct, { roots: [linkWs] }).action, 'allow');
  assert.equal(
    evaluate(rules(), callFacts(read({ file_path: 'docs/readme.md' }), undefined, linkWs), { roots: [linkWs] }).action,
    'allow',
  );
});

test('a reject rule holds on the name the call gives as well as on the real file', () => {
  const { ws } = fixture();
  mkdirSync(join(ws, 'config'));
  writeFileSync(join(ws, 'config', 'env.txt'), 'TOKEN=1');
  symlinkSync(join(ws, 'config', 'env.txt'), join(ws, '.env'));
  const s = rules([], [{ paths: '**/.env', action: 'reject' }]);
  const facts = callFacts(read({ file_path: join(ws, '.env') }), undefined, ws);
  assert.equal(evaluate(s, facts, { roots: [ws] }).action, 'reject');
});

test('a read, edit or delete with no path found asks; a search with no path runs in the cwd', () => {
  const { ws, tmp } = fixture();
  const secret = join(tmp, 'home', '.ssh', 'id_rsa');
  const decide = (s: RuleSet, c: CallLike, cwd = ws) =>
    evaluate(s, callFacts(c, undefined, cwd), { roots: [ws] }).action;
  assert.equal(decide(rules(), read({ file: secret })), 'ask', 'the path sits under a key Tandem does not know');
  assert.equal(decide(rules(), { toolCallId: 'r2', kind: 'read', title: 'Read' }), 'ask', 'no rawInput at all');
  const editsAnywhereInside = rules([{ kind: ['edit', 'delete'], action: 'allow' }]);
  assert.equal(
    decide(editsAnywhereInside, { toolCallId: 'e2', kind: 'edit', title: 'Edit', rawInput: { target: secret } }),
    'ask',
  );
  assert.equal(decide(editsAnywhereInside, { toolCallId: 'd1', kind: 'delete', title: 'rm', rawInput: {} }), 'ask');
  const grep: CallLike = { toolCallId: 's1', kind: 'search', title: 'Grep', rawInput: { pattern: 'TODO' } };
  assert.equal(decide(rules(), grep), 'allow', 'a search with no path looks in the cwd, the workspace');
  assert.equal(decide(rules(), grep, tmp), 'ask', 'a session whose cwd is outside the workspace');
  assert.equal(decide(rules(), { ...grep, rawInput: { pattern: 'x', path: 'docs/keys' } }), 'ask');
});

test('a read of "~/…" is a read in the home folder, not in a workspace folder named "~"', () => {
  const { ws } = fixture();
  const facts = callFacts(read({ file_path: '~/.ssh/id_rsa' }), undefined, ws);
  assert.deepEqual(facts.named, [join(homedir(), '.ssh', 'id_rsa')]);
  assert.equal(evaluate(rules(), facts, { roots: [ws] }).action, 'ask');
});

test('a "~/…" rule glob means the home folder', () => {
  const s = rules([{ kind: 'read', paths: '~/notes/**', action: 'allow', outsideWorkspace: true }]);
  const facts = { toolCallId: 'r', kind: 'read' as const, title: '', paths: [join(homedir(), 'notes', 'a.md')] };
  assert.equal(evaluate(s, facts, { roots: ['/nowhere/ws'] }).action, 'allow');
});

test('a file whose name starts with two dots is inside the folder', () => {
  const { ws } = fixture();
  assert.equal(isInside(join(ws, '..notes'), ws), true);
  assert.equal(isInside(join(ws, '..', 'x'), ws), false);
  const facts = callFacts(read({ file_path: join(ws, '..notes') }), undefined, ws);
  assert.equal(evaluate(rules(), facts, { roots: [ws] }).action, 'allow');
});

const ALWAYS: PermissionOption = { optionId: 'aa', name: 'Always', kind: 'allow_always' };
const readTool = (rawInput: Record<string, unknown>): CallLike => ({
  ...read(rawInput),
  _meta: { claudeCode: { toolName: 'Read' } },
});
const editTool = (path: string): CallLike => ({ ...edit(path), _meta: { claudeCode: { toolName: 'Edit' } } });
const entry = (d: Partial<RememberedDecision>): RememberedDecision => ({
  id: 'x',
  agent: 'Claude',
  decision: 'allow',
  at: 0,
  ...d,
});

test('a remembered "always allow Read" does not reach through a link, nor a read with no path found', () => {
  const { ws, home } = fixture();
  const remembered = new RememberedDecisions(memoryMemento([entry({ tool: 'Read', kind: 'read' })]));
  const find = (c: CallLike) => remembered.find(callFacts(c, undefined, ws), 'Claude', [ws]);
  assert.ok(find(readTool({ file_path: join(ws, 'docs', 'readme.md') })), 'inside: remembered');
  assert.equal(find(readTool({ file_path: join(ws, 'docs', 'keys', 'id_rsa') })), undefined);
  assert.equal(find(readTool({ file: join(home, '.ssh', 'id_rsa') })), undefined);
});

test('a remembered file decision names the real file and matches only it', () => {
  const { ws, home, linkWs } = fixture();
  const through = callFacts(editTool(join(ws, 'docs', 'keys', 'config')), undefined, ws);
  assert.equal(patternFor(through, 'Claude', ALWAYS, [ws], 1)?.path, join(home, '.ssh', 'config'));
  // An entry remembered by its name before: the link now leads outside, so it no longer matches.
  const byName = entry({ tool: 'Edit', kind: 'edit', path: 'docs/keys/config' });
  assert.equal(new RememberedDecisions(memoryMemento([byName])).find(through, 'Claude', [ws]), undefined);
  // The same file named through the symlinked workspace is the same decision.
  const inside = callFacts(editTool(join(linkWs, 'docs', 'a.md')), undefined, linkWs);
  const d = patternFor(inside, 'Claude', ALWAYS, [linkWs], 1)!;
  assert.equal(d.path, 'docs/a.md');
  const again = callFacts(editTool(join(ws, 'docs', 'a.md')), undefined, ws);
  assert.ok(new RememberedDecisions(memoryMemento([d])).find(again, 'Claude', [ws]));
});

test('resolving a missing path, a link loop or a dangling link never throws', () => {
  const { ws } = fixture();
  symlinkSync(join(ws, 'b'), join(ws, 'a'));
  symlinkSync(join(ws, 'a'), join(ws, 'b'));
  assert.equal(realPathSync(join(ws, 'no', 'such', 'file')), join(ws, 'no', 'such', 'file'));
  assert.equal(typeof realPathSync(join(ws, 'a', 'x')), 'string');
  assert.equal(realPathSync('/'), '/');
});
