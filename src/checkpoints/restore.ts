// "Restore to here": plan first (which files would change, which of them have unsaved edits in
// an editor, which cannot be restored), then apply. The restore is itself a checkpoint: its log
// keeps each file's content from just before, so restoring to that checkpoint undoes it. The
// agent is told what happened with the next prompt (takeRestoreNotice), so it does not go on
// from a stale picture of the files. Nothing is written through a symlink (restoreTarget.ts).
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isWithin } from '../client/files/realPath';
import { sha256, TooBigToKeep, tooBigMessage } from './blobStore';
import type { CheckpointStore } from './checkpointStore';
import { restoreTarget } from './restoreTarget';
import type { BlobRef, Checkpoint } from './timeline';

export type RestoreAction = 'write' | 'delete' | 'unchanged' | 'cannot';

export interface RestoreFile {
  readonly path: string;
  /** Relative to its workspace folder, with forward slashes. */
  readonly label: string;
  /** Its content at the checkpoint (null: it did not exist). */
  readonly target: BlobRef;
  /** write / delete: what the restore does; unchanged: it already is so; cannot: see reason. */
  readonly action: RestoreAction;
  readonly reason?: string;
  /** The user has unsaved edits to it: a conflict, never overwritten without asking. */
  readonly unsaved: boolean;
  /** It is a symlink now (to this target): the restore replaces the link, it never writes through it. */
  readonly link?: string;
}

export interface RestorePlan {
  readonly sessionId: string;
  readonly checkpoint: Checkpoint;
  /** "before prompt 2" */
  readonly title: string;
  readonly files: readonly RestoreFile[];
  /** Files the restore would change that have unsaved edits. */
  readonly conflicts: readonly string[];
}

/** Writes the restored files (the VS Code side passes one that goes through the editor, undoable). */
export interface RestoreWriter {
  write(file: string, bytes: Uint8Array): Promise<void>;
  delete(file: string): Promise<void>;
}

/** Opening with O_NOFOLLOW fails on a link that appeared since the last check (where the OS has it). */
const WRITE_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

export const diskWriter: RestoreWriter = {
  async write(file, bytes) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes, { flag: WRITE_NO_FOLLOW });
  },
  async delete(file) {
    await fs.rm(file, { force: true });
  },
};

export interface RestoreResult {
  /** The restore's own checkpoint (restore to it to undo); undefined when nothing was changed. */
  readonly checkpoint: Checkpoint | undefined;
  readonly restored: readonly string[];
  readonly skipped: readonly { path: string; reason: string }[];
  readonly failed: readonly { path: string; error: string }[];
  /** The line the agent gets with the next prompt. */
  readonly notice: string | undefined;
}

export async function planRestore(
  store: CheckpointStore,
  sessionId: string,
  checkpointId: number,
  unsaved: ReadonlySet<string>,
): Promise<RestorePlan> {
  const s = store.session(sessionId);
  const checkpoint = s.timeline.checkpoints[checkpointId];
  if (!checkpoint) throw new Error(`Session ${sessionId} has no checkpoint ${checkpointId}.`);
  await store.rescan(sessionId); // what commands changed since the last scan counts too
  // The session's folders: a worktree session restores in its worktree, and nowhere else.
  const roots = store.sessionRoots.of(sessionId);
  await store.whenIdle();
  const files: RestoreFile[] = [];
  // The editor's paths may be in a folder's symlinked form; the timeline's are canonical.
  const dirty = new Set([...unsaved].map(store.canonical));
  for (const [file, target] of s.timeline.statesAt(checkpointId)) {
    const label = labelOf(roots, file);
    const { refused, link } = restoreTarget(file, roots, label);
    const current = await readCurrent(file);
    let action: RestoreAction;
    let reason: string | undefined;
    if (refused) {
      action = 'cannot';
      reason = refused;
    } else if (target !== null && typeof target !== 'string') {
      action = 'cannot';
      reason = tooBigMessage(file, target.tooBig, store.blobs.limits.maxFileBytes);
    } else if (target === null) action = current === null && link === undefined ? 'unchanged' : 'delete';
    else if (current !== null && sha256(current) === target) action = 'unchanged';
    else if (!(await store.blobs.has(target))) {
      action = 'cannot';
      reason = `The checkpoint copy of ${file} is missing.`;
    } else action = 'write';
    files.push({ path: file, label, target, action, reason, unsaved: dirty.has(file), link });
  }
  files.sort((a, b) => a.label.localeCompare(b.label));
  const conflicts = files
    .filter((f) => f.unsaved && (f.action === 'write' || f.action === 'delete'))
    .map((f) => f.path);
  return { sessionId, checkpoint, title: s.timeline.label(checkpointId), files, conflicts };
}

export async function applyRestore(
  store: CheckpointStore,
  plan: RestorePlan,
  writer: RestoreWriter = diskWriter,
  opts: { overwriteUnsaved?: boolean } = {},
): Promise<RestoreResult> {
  const s = store.session(plan.sessionId);
  const skipped: { path: string; reason: string }[] = [];
  const todo = plan.files.filter((f) => {
    if (f.action === 'cannot') skipped.push({ path: f.path, reason: f.reason ?? 'cannot be restored' });
    else if (f.unsaved && f.action !== 'unchanged' && !opts.overwriteUnsaved)
      skipped.push({ path: f.path, reason: `${f.label} has unsaved changes in an editor` });
    else return f.action === 'write' || f.action === 'delete';
    return false;
  });
  if (!todo.length) return { checkpoint: undefined, restored: [], skipped, failed: [], notice: undefined };
  await store.whenIdle();
  // Each file as it is now, kept so that this restore can be undone.
  const befores = new Map<string, BlobRef>();
  for (const f of todo) {
    const current = await readCurrent(f.path);
    let ref: BlobRef = null;
    if (current)
      try {
        ref = await store.blobs.put(current, f.path);
      } catch (err) {
        if (!(err instanceof TooBigToKeep)) throw err;
        store.warn(`${err.message} Undoing this restore will not bring it back.`);
        ref = { tooBig: current.length };
      }
    befores.set(f.path, ref);
  }
  const id = s.timeline.nextId;
  store.append(s, { k: 'cp', id, kind: 'restore', of: plan.checkpoint.id, at: store.clock(), label: plan.title });
  const restored: string[] = [];
  const failed: { path: string; error: string }[] = [];
  for (const f of todo) {
    try {
      // Checked again: the plan may have waited on the user while a link appeared.
      const { refused, link } = restoreTarget(f.path, store.sessionRoots.of(plan.sessionId), f.label);
      if (refused) throw new Error(refused);
      if (link !== undefined) await fs.unlink(f.path); // the link goes, its target stays as it is
      if (f.action === 'write') await writer.write(f.path, (await store.read(f.target))!);
      else if (link === undefined) await writer.delete(f.path);
      await store.noteWritten(f.path, f.target);
      store.append(s, { k: 'restored', cp: id, path: f.path, before: befores.get(f.path)!, after: f.target });
      restored.push(f.path);
    } catch (err) {
      failed.push({ path: f.path, error: err instanceof Error ? err.message : String(err) });
    }
  }
  followInTracker(store, plan, restored);
  const notice = restored.length ? noticeOf(store, plan, restored) : undefined;
  if (notice) store.append(s, { k: 'notice', text: s.timeline.notice ? `${s.timeline.notice}; ${notice}` : notice });
  return { checkpoint: s.timeline.checkpoints[id], restored, skipped, failed, notice };
}

/** The pending line for the agent (cleared: it is sent once, with the next prompt). */
export function takeRestoreNotice(store: CheckpointStore, sessionId: string): string | undefined {
  const s = store.session(sessionId);
  const text = s.timeline.notice;
  if (!text) return undefined;
  store.append(s, { k: 'notice', text: null });
  return text;
}

/** Review Changes follows: changes after the checkpoint are reverted, earlier ones come back. */
function followInTracker(store: CheckpointStore, plan: RestorePlan, restored: readonly string[]): void {
  const { tracker } = store.opts;
  const tl = store.session(plan.sessionId).timeline;
  const paths = new Set(restored);
  for (const t of tracker.allTurns(plan.sessionId))
    for (const c of t.files) {
      if (!paths.has(c.path)) continue;
      const cp = tl.ofTurn(c.turn);
      if (cp && cp.id >= plan.checkpoint.id) tracker.setState(c.sessionId, c.turn, c.path, 'reverted');
      else if (c.state === 'reverted') tracker.setState(c.sessionId, c.turn, c.path, 'pending');
    }
}

function noticeOf(store: CheckpointStore, plan: RestorePlan, restored: readonly string[]): string {
  const labels = restored.map((p) => labelOf(store.sessionRoots.of(plan.sessionId), p));
  const shown = labels.slice(0, 10).join(', ') + (labels.length > 10 ? ` and ${labels.length - 10} more` : '');
  const tl = store.session(plan.sessionId).timeline;
  const cp = plan.checkpoint;
  return cp.kind === 'restore'
    ? `Undid the restore to ${tl.label(cp.of ?? -1)}: ${shown}`
    : `Restored to ${plan.title}: ${shown}`;
}

export function labelOf(roots: readonly string[], file: string): string {
  for (const root of roots)
    if (file !== root && isWithin(root, file)) return path.relative(root, file).split(path.sep).join('/');
  return file;
}

async function readCurrent(file: string): Promise<Uint8Array | null> {
  try {
    const st = await fs.lstat(file);
    return st.isFile() ? await fs.readFile(file) : null;
  } catch {
    return null;
  }
}
