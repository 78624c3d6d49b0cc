// A workspace in a temp folder with Tandem's real fs/write_text_file handler, a ChangeTracker and
// a CheckpointStore on a storage folder beside it; turns are driven like the agent client does
// (promptStarted → checkpoint, promptEnded → settle). With `throughLink`, the workspace is opened
// through a symlink to it (macOS /tmp, ~/code -> /Volumes/…): `folder` is the link, `ws` the real path.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChangeTracker } from '../../../src/client/changes/changeTracker';
import { FileSystemHandlers } from '../../../src/client/files/fileSystem';
import { MemoryLogger } from '../../../src/common/logger';
import { CheckpointStore } from '../../../src/checkpoints/checkpointStore';
import type { StoreLimits } from '../../../src/checkpoints/blobStore';
import { SessionStore } from '../../../src/session/store';
import { until } from '../../support/until';
import { FakeDocs, FakeEdits, FakePermission, fakeWorkspace, nodeFs } from '../client/fakePorts';

export const S = 'session-1';

export interface Harness {
  root: string;
  ws: string;
  /** The workspace folder as opened: `ws`, or a symlink to it. */
  folder: string;
  dir: string;
  docs: FakeDocs;
  tracker: ChangeTracker;
  store: CheckpointStore;
  session: SessionStore;
  handlers: FileSystemHandlers;
  warnings: string[];
  /** A user prompt: the session's new turn and its checkpoint (not awaited, like the real one). */
  prompt(): number;
  /** The turn ends; resolves when the scan that follows it is done. */
  endTurn(): Promise<void>;
  /** fs/write_text_file from the agent. */
  write(path: string, content: string): Promise<void>;
  /** Closes this store and opens a new one on the same folder (a window reload). */
  reopen(): Promise<Harness>;
}

export async function harness(
  limits?: Partial<StoreLimits>,
  existing?: { root: string },
  opts: { throughLink?: boolean } = {},
): Promise<Harness> {
  const root = existing?.root ?? realpathSync(mkdtempSync(join(tmpdir(), 'tandem-cp-')));
  const ws = join(root, 'ws');
  const dir = join(root, 'storage');
  mkdirSync(ws, { recursive: true });
  const folder = opts.throughLink ? join(root, 'opened-as') : ws;
  if (opts.throughLink && !existsSync(folder)) symlinkSync(ws, folder, 'dir');
  const docs = new FakeDocs();
  const tracker = new ChangeTracker();
  const store = await CheckpointStore.open({ dir, roots: [folder], tracker, limits });
  const warnings: string[] = [];
  store.onDidWarn((m) => warnings.push(m));
  const session = new SessionStore(S);
  // A reloaded window shows the session again with its earlier turns.
  for (const cp of store.checkpoints(S))
    if (cp.kind === 'prompt') {
      session.dispatch({ type: 'promptStarted', at: cp.at, prompt: [{ type: 'text', text: 'earlier' }] });
      session.dispatch({ type: 'promptEnded', at: cp.at, stopReason: 'end_turn' });
    }
  const handlers = new FileSystemHandlers(
    {
      documents: docs,
      fs: nodeFs,
      edits: new FakeEdits(docs),
      workspace: fakeWorkspace(folder),
      permission: new FakePermission(),
      tracker,
    },
    { cwd: folder, logger: new MemoryLogger(), session: (id) => (id === S ? session : undefined) },
  );
  const turn = () => session.state.turns.length - 1;
  const h: Harness = {
    root,
    ws,
    folder,
    dir,
    docs,
    tracker,
    store,
    session,
    handlers,
    warnings,
    prompt() {
      session.dispatch({ type: 'promptStarted', at: Date.now(), prompt: [{ type: 'text', text: 'go' }] });
      store.checkpoint(S, turn());
      // An agent's first change comes at least a file-clock tick after the prompt (see
      // Timeline.promptAt); the checkpoint's scan is still running then. The tick is read from
      // the file clock itself: on a loaded machine it lags Date.now() by more than a tick.
      const at = store.checkpoints(S).at(-1)!.at;
      const deadline = Date.now() + 2000;
      while (store.clock() <= at) {
        if (Date.now() > deadline) throw new Error('the file clock did not pass the checkpoint in 2 s');
      }
      return turn();
    },
    async endTurn() {
      session.dispatch({ type: 'promptEnded', at: Date.now(), stopReason: 'end_turn' });
      await store.settle(S, turn());
    },
    async write(path, content) {
      await handlers.write({ sessionId: S, path, content });
    },
    async reopen() {
      await store.whenIdle();
      store.dispose();
      return harness(limits, { root }, opts);
    },
  };
  return h;
}

/**
 * Waits until the clock is past `file`'s modification time by more than the attribution's
 * tolerance for the coarse file clock, as it is when a person edits a file and then prompts.
 */
export async function clockPast(file: string): Promise<void> {
  const m = statSync(file).mtimeMs;
  await until(() => Date.now() > m + 30, 1000, 'the clock to pass the edit');
}
