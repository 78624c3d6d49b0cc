import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandLineIn, shellQuote, terminalKey } from '../../../src/vscode/visibleTerminalLines';

test('the agent’s shell line is typed as is where the shell already stands', () => {
  const opts = { command: 'ls -la | head', cwd: '/ws' };
  assert.equal(commandLineIn(opts, '/ws', 'linux'), 'ls -la | head');
  assert.equal(commandLineIn(opts, undefined, 'linux'), 'ls -la | head', 'cwd unknown: the terminal opened there');
});

test('a shell standing in another folder changes to the requested one first', () => {
  assert.equal(
    commandLineIn({ command: 'make', cwd: "/w s/it's" }, '/elsewhere', 'linux'),
    `cd -- '/w s/it'\\''s' && make`,
  );
  assert.equal(commandLineIn({ command: 'dir', cwd: 'C:\\ws' }, 'C:\\x', 'win32'), 'dir');
});

test('a program with arguments is quoted for the shell', () => {
  assert.equal(
    commandLineIn({ command: 'echo', args: ['a b', "it's", '$HOME', 'plain-1.0'], cwd: '/ws' }, '/ws', 'linux'),
    `echo 'a b' 'it'\\''s' '$HOME' plain-1.0`,
  );
  assert.equal(shellQuote(''), "''");
});

test('commands share a terminal per session and environment', () => {
  assert.equal(terminalKey({ sessionId: 's1' }), terminalKey({ sessionId: 's1', env: {} }));
  assert.notEqual(terminalKey({ sessionId: 's1' }), terminalKey({ sessionId: 's2' }));
  assert.equal(
    terminalKey({ sessionId: 's1', env: { A: '1', B: '2' } }),
    terminalKey({ sessionId: 's1', env: { B: '2', A: '1' } }),
  );
  assert.notEqual(terminalKey({ sessionId: 's1', env: { A: '1' } }), terminalKey({ sessionId: 's1' }));
});
