// "Open in terminal" mirrors a command from the store of the session that ran it: what it printed,
// then live output, also after the view has switched to another session. Fake `vscode`.
import { state as vs } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '../../../src/session/store';
import { TerminalMirror } from '../../../src/vscode/terminals/terminalMirror';

interface FakePty {
  onDidWrite(l: (data: string) => void): { dispose(): void };
  open(): void;
  close(): void;
}

test('an open mirror keeps streaming its command after the view shows another session', async () => {
  const a = new SessionStore('a');
  const b = new SessionStore('b');
  a.dispatch({ type: 'terminal', at: 1, terminal: { terminalId: 't1', command: 'make', exited: false } });
  a.dispatch({ type: 'terminalOutput', at: 2, terminalId: 't1', data: 'early line\n' });
  let shown = a;
  vs.terminals = [];
  const mirror = new TerminalMirror(() => shown);
  try {
    assert.ok(await mirror.show('t1'), 'a terminal opened');
    const pty = vs.terminals[0].pty as FakePty;
    const written: string[] = [];
    pty.onDidWrite((d) => written.push(d));
    pty.open();
    assert.match(written.join(''), /early line/);
    shown = b;
    a.dispatch({ type: 'terminalOutput', at: 3, terminalId: 't1', data: 'late line\n' });
    assert.match(written.join(''), /late line/, 'output of the session in the background still arrives');
    a.dispatch({ type: 'terminal', at: 4, terminal: { terminalId: 't1', exited: true, exitCode: 0 } });
    assert.match(written.join(''), /exit code 0/);
    pty.close();
  } finally {
    mirror.dispose();
  }
});
