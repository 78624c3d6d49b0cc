import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_PRESETS, findExecutable, missingCommandHelp } from '../../../src/client/agents/agentPresets';

test('findExecutable looks up PATH, needs the executable bit, takes paths as they are', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-path-'));
  writeFileSync(join(dir, 'agent-x'), '#!/bin/sh\n');
  chmodSync(join(dir, 'agent-x'), 0o755);
  writeFileSync(join(dir, 'not-exec'), '');
  const env = { PATH: `/nonexistent:${dir}` };
  assert.equal(findExecutable('agent-x', env), join(dir, 'agent-x'));
  assert.equal(findExecutable('not-exec', env), undefined);
  assert.equal(findExecutable('missing', env), undefined);
  assert.equal(findExecutable(join(dir, 'agent-x'), { PATH: '' }), join(dir, 'agent-x'));
  assert.equal(findExecutable('./agent-x', { PATH: '' }, dir), join(dir, 'agent-x'));
  assert.equal(findExecutable('node'), findExecutable('node', process.env));
});

test('presets cover the agents the compat tests run, each with install help', () => {
  assert.deepEqual(
    AGENT_PRESETS.map((p) => p.name),
    ['Claude Code', 'Claude Agent', 'Gemini CLI', 'Codex', 'OpenCode', 'Qwen Code', 'Kilo Code'],
  );
  assert.deepEqual(AGENT_PRESETS.find((p) => p.name === 'Gemini CLI')?.args, ['--acp']);
  assert.deepEqual(AGENT_PRESETS.find((p) => p.name === 'OpenCode')?.args, ['acp']);
  assert.equal(AGENT_PRESETS.find((p) => p.name === 'Codex')?.npmPackage, '@agentclientprotocol/codex-acp');
  const help = missingCommandHelp({ name: 'Claude Code', command: 'claude-code-acp' });
  assert.match(help, /npm install -g @zed-industries\/claude-code-acp/);
  assert.match(help, /tried to run: claude-code-acp/);
  assert.match(missingCommandHelp({ name: 'X', command: 'x-acp', args: ['--serve'] }), /x-acp --serve.*full path/s);
});
