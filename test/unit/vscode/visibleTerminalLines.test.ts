import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandLineIn, shellQuote, terminalKey } from '../../../src/vscode/terminals/visibleTerminalLines';

test('a new terminal, opened in the requested folder, gets the agent’s shell line as is', () => {
  assert.equal(commandLineIn({ command: 'ls -la | head', cwd: '/ws' }, false, 'linux'), 'ls -la | head');
});

test('a reused terminal changes to the requested folder first (the shell may have moved)', () => {
  assert.equal(commandLineIn({ command: 'make', cwd: "/w s/it's" }, true, 'linux'), `cd -- '/w s/it'\\''s' && make`);
  assert.equal(commandLineIn({ command: 'dir', cwd: 'C:\\ws' }, true, 'win32'), 'dir');
});

test('a program with arguments is quoted for the shell', () => {
  assert.equal(
    commandLineIn({ command: 'echo', args: ['a b', "it's", '$HOME', 'plain-1.0'], cwd: '/ws' }, false, 'linux'),
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
