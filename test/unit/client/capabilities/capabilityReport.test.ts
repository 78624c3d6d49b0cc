// The capability report from real agents' traffic: where checkpoints and command output come
// from follows what the agent did (claude-code-acp writes and runs through Tandem,
// claude-agent-acp does both itself), and the declared table follows the code's own predicates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import { buildCapabilityReport, type ReportInput } from '../../../../src/client/capabilities/capabilityReport';
import { WireObserver } from '../../../../src/client/capabilities/wireObserver';
import { observe } from './transcripts';

const report = (wire: WireObserver, more: Partial<ReportInput> = {}) =>
  buildCapabilityReport({
    agentName: 'Agent',
    state: 'ready',
    shown: true,
    openSessions: 1,
    wire: wire.snapshot(),
    ...more,
  });
/** The "In short" line that starts with `**label:**`. */
const line = (md: string, label: string) => md.split('\n').find((l) => l.startsWith(`- **${label}:**`)) ?? '';
/** The row of a Markdown table whose first cell is `key` in backticks. */
const row = (md: string, key: string) => md.split('\n').find((l) => l.startsWith(`| \`${key}\` |`)) ?? '';

test("claude-code-acp (writes and runs through Tandem): checkpoints from Tandem's own writes, commands in Tandem's terminals", () => {
  const md = report(observe('claude-code-acp-0.16.2-edit', 'claude-code-acp-0.16.2-bash'));
  assert.match(
    line(md, 'Checkpoints'),
    /from Tandem's own writes: the agent writes files through fs\/write_text_file \(2 calls\)/,
  );
  assert.match(
    line(md, 'Commands'),
    /Tandem's terminals: the agent runs commands through terminal\/create \(1 command\)/,
  );
  assert.match(line(md, 'File reads'), /through Tandem \(fs\/read_text_file, 2 calls\)/);
  assert.match(line(md, 'Permissions'), /asked before 3 of 4 calls that ran/);
  assert.match(row(md, 'fs/write_text_file'), /\| 2 \| 0 \|/);
  assert.match(row(md, 'fs.writeTextFile'), /\| yes \(2\) \|$/);
  assert.match(md, /^# Claude Code: capabilities/m);
  assert.match(md, /- `claude-login` Log in with Claude Code: Run `claude \/login` in the terminal/);
});

test("claude-agent-acp (writes and runs itself): checkpoints from the agent's diffs, commands run by the agent", () => {
  const md = report(observe('claude-agent-acp-0.100.0-edit', 'claude-agent-acp-0.100.0-bash'));
  assert.match(line(md, 'Checkpoints'), /from the agent's diffs and file snapshots: the agent writes files itself/);
  assert.match(line(md, 'Checkpoints'), /no fs\/write_text_file although Tandem offered it/);
  assert.match(line(md, 'Commands'), /the agent runs them itself \(1 command call ran, no terminal\/create\)/);
  assert.match(line(md, 'File reads'), /the agent reads the disk itself/);
  assert.match(
    line(md, 'Permissions'),
    /asked before 2 of 4 calls that ran \(edit 2 of 2, read 0 of 1, execute 0 of 1\)\. 2 calls ran without asking/,
  );
  assert.match(row(md, 'fs/write_text_file'), /\| 0 \| 0 \|/);
  assert.match(row(md, '_auth/status_update'), /Ignored/);
  assert.match(row(md, 'claudeCode.toolName'), /\| tool_call; tool_call_update \|$/);
  assert.match(row(md, '_meta.steering.supported'), /\| yes \| Send now adds a queued prompt/);
  assert.match(row(md, 'agentCapabilities.sessionCapabilities.fork'), /\| yes \| Fork Session/);
  assert.match(md, /Declared, and not used by Tandem: .*`agentCapabilities\.auth\.logout` \(yes\)/);
  assert.match(md, /`agentCapabilities\._meta\.claudeCode\.promptQueueing` \(yes\)/);
});

test('command output streamed in `_meta` is named as such', () => {
  const w = new WireObserver();
  w.observe('in', {
    jsonrpc: '2.0',
    method: 'session/update',
    params: {
      sessionId: 's',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'b',
        kind: 'execute',
        status: 'in_progress',
        _meta: { terminal_info: { terminal_id: 'b' } },
      },
    },
  });
  assert.match(line(report(w), 'Commands'), /streams in `_meta` \(terminal_info \/ terminal_output \/ terminal_exit\)/);
});

test('a capability declared in a shape the code does not accept shows as not declared', () => {
  const init = {
    protocolVersion: 1,
    agentCapabilities: { sessionCapabilities: { fork: true }, loadSession: false },
    _meta: { steering: { supported: 'yes' } },
  } as unknown as InitializeResponse;
  const md = report(new WireObserver(), { initialize: init });
  assert.match(row(md, 'agentCapabilities.sessionCapabilities.fork'), /\| no \| No Fork Session/);
  assert.match(row(md, '_meta.steering.supported'), /\| no \| Send now cancels the running turn/);
  assert.match(row(md, 'agentCapabilities.loadSession'), /\| no \|/);
});

test("text from the agent cannot break the report's Markdown", () => {
  const w = new WireObserver();
  w.observe('in', {
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: [], _meta: { 'a|b`<img src=x>': 1 } } },
  });
  const init = {
    protocolVersion: 1,
    agentInfo: { name: 'x', title: 'Evil | <script>alert(1)</script>\n# Heading', version: '1' },
  } as unknown as InitializeResponse;
  const md = report(w, { initialize: init });
  assert.ok(!md.includes('<script>') && !md.includes('<img'), 'no raw tags');
  assert.match(md, /^# Evil \\\| &lt;script&gt;alert\(1\)&lt;\/script&gt; # Heading: capabilities$/m);
  assert.match(md, /^\| `a\\\|b'&lt;img src=x&gt;` \| 1 \| plan \|$/m);
});

test('before the agent has answered initialize the report says so', () => {
  const w = new WireObserver();
  w.observe('out', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientCapabilities: { terminal: true } } });
  const md = report(w, { state: 'starting' });
  assert.match(md, /The agent has not answered `initialize` yet\./);
  assert.match(row(md, 'terminal'), /\| yes \| Run commands in Tandem's terminals .* \| not yet \|$/);
  assert.match(line(md, 'Permissions'), /no tool call has run yet\./);
});
