import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { commandLineIn, terminalKey, typedWord } from '../../../src/vscode/terminals/visibleTerminalLines';

test('a new terminal, opened in the requested folder, runs the agent’s shell line in a child bash', () => {
  assert.equal(commandLineIn({ command: 'ls -la | head', cwd: '/ws' }, false, 'linux'), `/bin/bash -c 'ls -la | head'`);
});

test('a reused terminal changes to the requested folder first (the shell may have moved)', () => {
  assert.equal(
    commandLineIn({ command: 'make', cwd: "/w s/it's" }, true, 'linux', '/usr/bin/bash'),
    `cd -- '/w s/it'\\''s' && /usr/bin/bash -c make`,
  );
  assert.equal(commandLineIn({ command: 'dir', cwd: 'C:\\ws' }, true, 'win32'), 'dir');
});

test('a program with arguments is quoted for the child bash', () => {
  assert.equal(
    commandLineIn({ command: 'echo', args: ['a b', '$HOME', 'plain-1.0'], cwd: '/ws' }, false, 'linux'),
    `/bin/bash -c 'echo '\\''a b'\\'' '\\''$HOME'\\'' plain-1.0'`,
  );
  assert.equal(typedWord(''), "''");
});

test('a typed line never holds a newline or a raw control character', () => {
  const line = commandLineIn({ command: "cat <<'EOF'\nhi!\tthere\x1b[0m\nEOF", cwd: '/ws' }, false, 'linux');
  assert.doesNotMatch(line, /[\x00-\x1f\x7f]/);
  assert.equal(line, `/bin/bash -c 'cat <<'\\''EOF'\\'''$'\\n''hi!'$'\\t''there'$'\\x1b''[0m'$'\\n''EOF'`);
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

// The terminal's bash reads typed lines with history expansion on. A bash reading its input with
// `set -o history -o histexpand` expands `!` the same way, and, unlike a terminal, needs no pty.
const bash = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p));
const noBash = process.platform === 'win32' || !bash ? 'needs bash' : false;

/** Types `lines` into a bash that expands history references, as the terminal's shell does. */
function typeInto(lines: string[]): { stdout: string; stderr: string; status: number | null } {
  const input = ['set -o history -o histexpand', ...lines, ''].join('\n');
  const r = spawnSync(bash!, ['--norc', '--noprofile'], { input, encoding: 'utf8', cwd: '/' });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const typed = (command: string, reused = false) => commandLineIn({ command, cwd: '/' }, reused, 'linux', bash);

test('a typed command runs as bash -c runs it: no history expansion', { skip: noBash }, () => {
  const r = typeInto([typed('echo "reach!bang" && echo after'), 'echo "status=$?"']);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout, 'reach!bang\nafter\nstatus=0\n');
});

test('a typed command’s exit ends the command with its code, not the shell it was typed into', { skip: noBash }, () => {
  const r = typeInto([typed('echo before; exit 3', true), 'echo "status=$?"', typed('echo next')]);
  assert.equal(r.stdout, 'before\nstatus=3\nnext\n');
  assert.equal(r.status, 0);
});

test('a typed multi-line command (a here-document) runs whole', { skip: noBash }, () => {
  const r = typeInto([typed(`cat <<'EOF'\nline one!\n  'two' "three" $HOME\nEOF\necho done`)]);
  assert.equal(r.stdout, `line one!\n  'two' "three" $HOME\ndone\n`);
});

test('any word survives typing: the shell gets it back exactly', { skip: noBash }, () => {
  // Mostly what a shell treats specially (quotes, `!`, `$`, backslashes, control characters).
  const special = fc.constantFrom(...`!'"\\$\`#^*?[]{}()<>|&;~ \n\t\r\x1b\x7f\x01`.split(''));
  const unit = fc.oneof(special, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  const word = fc.string({ unit, maxLength: 30 }).filter((s) => !s.includes('\0'));
  fc.assert(
    fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
      const r = typeInto(words.map((w) => `printf '%s\\0' ${typedWord(w)}`));
      assert.deepEqual(r.stdout.split('\0').slice(0, -1), words, r.stderr);
    }),
    { numRuns: 60 },
  );
});
