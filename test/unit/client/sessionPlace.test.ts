// A session with a place (its own git worktree) works in that folder: its relative paths and
// commands resolve there, writing there needs no prompt, and the workspace — the user's tree — is
// outside it: a write there asks, and a denied write does not happen. A session of the same
// connection without a place still works in the workspace.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { agentText, Fault } from '../faults/harness';

const script = ({ ws }: { ws: string }) => ({
  initialize: { agentCapabilities: { loadSession: true } },
  newSession: { sessionId: 's-${n}' },
  defaultPrompt: {
    steps: [
      {
        request: 'fs/write_text_file',
        params: { sessionId: '${sessionId}', path: 'notes.txt', content: '${sessionId}' },
        as: 'w',
      },
      { terminal: { command: process.execPath, args: ['-e', 'process.stdout.write(process.cwd())'] }, as: 't' },
      {
        request: 'fs/write_text_file',
        params: { sessionId: '${sessionId}', path: join(ws, 'user.txt'), content: 'x' },
        as: 'o',
      },
      { stream: 'cwd=[${t.output}] outside=${o.error.message}' },
    ],
  },
});

test('a session with a place writes and runs in its folder and asks before the workspace', async () => {
  const f = new Fault(script, { answer: 'reject_once' });
  const place = join(realpathSync(join(f.ws, '..')), 'worktree');
  mkdirSync(place);
  await f.client.start();
  const inWorkspace = f.client.session!.sessionId;
  const store = await f.client.newSession(undefined, { cwd: place, label: 'tandem/x' });
  const id = store.sessionId;
  assert.equal(f.client.sessions().find((s) => s.sessionId === id)?.place, 'tandem/x');
  await f.client.prompt('go', id);

  assert.equal(readFileSync(join(place, 'notes.txt'), 'utf8'), id, 'the relative path landed in the place');
  assert.ok(!existsSync(join(f.ws, 'notes.txt')), 'not in the workspace');
  const text = agentText(store.snapshot());
  assert.match(text, new RegExp(`cwd=\\[${place}\\]`), 'the command ran in the place');
  assert.match(text, /outside=The user did not allow writing .*outside the session's worktree/);
  assert.ok(!existsSync(join(f.ws, 'user.txt')), 'the denied write into the workspace did not happen');
  assert.deepEqual(
    f.shown.map((s) => s.title),
    [`Write ${join(f.ws, 'user.txt')} — outside the session's worktree (${place})`],
    'one prompt: the write outside the place; none for its own folder',
  );

  // The connection's workspace session is unchanged: its writes land in the workspace, unasked.
  f.shown.length = 0;
  await f.client.prompt('go', inWorkspace);
  assert.equal(readFileSync(join(f.ws, 'notes.txt'), 'utf8'), inWorkspace);
  assert.equal(f.shown.length, 0);
  await f.check();
});

test('a session reopened in its place (session/load) works there again, and closing it forgets the place', async () => {
  const f = new Fault(script, { answer: 'reject_once' });
  const place = join(realpathSync(join(f.ws, '..')), 'worktree');
  mkdirSync(place);
  await f.client.start();
  const loaded = await f.client.loadSession('old-1', { cwd: place, label: 'tandem/old' });
  const load = f.incoming.length ? f.outgoing.find((m) => m.method === 'session/load') : undefined;
  assert.equal((load?.params as { cwd?: string } | undefined)?.cwd, place, 'session/load carries the place as cwd');
  await f.client.prompt('go', loaded.sessionId);
  assert.equal(readFileSync(join(place, 'notes.txt'), 'utf8'), 'old-1');
  await f.client.closeSession('old-1');
  assert.equal(
    f.client.sessions().some((s) => s.place),
    false,
  );
  await f.check();
});
