// "Before" snapshots of files agents change themselves (e.g. claude-agent-acp writes the disk and
// reports a tool call with `diff` content): read while the call is pending, marked changed when
// it completes, rebuilt from the diff (inexact) when seen only afterwards. Review Changes is
// made of them (changeTracker.ts).
import type { SessionNotification, ToolCallContent } from '@agentclientprotocol/sdk';
import type { Logger } from '../../common/logger';
import type { ChangeTracker } from '../changes/changeTracker';
import type { FeatureContext } from '../connection/feature';
import type { FsPort } from '../ports';

export class DiffSnapshots {
  private readonly pendingSnapshots = new Map<string, Promise<void>>();
  private readonly logger: Logger;
  private readonly absolute: (path: string, sessionId: string) => string;

  constructor(
    private readonly deps: { fs: FsPort; tracker: ChangeTracker },
    private readonly ctx: Pick<FeatureContext, 'logger' | 'session'>,
    absolute: (path: string, sessionId: string) => string,
  ) {
    this.logger = ctx.logger;
    // In the tracker's form (a folder opened through a symlink: its real path), so the pending
    // snapshot and the entry are found under the path fs/write_text_file resolves to.
    this.absolute = (p, sessionId) => deps.tracker.canonical(absolute(p, sessionId));
  }

  /** The snapshot of `path` being read for this turn, if one is. */
  pending(sessionId: string, turn: number, path: string): Promise<void> | undefined {
    return this.pendingSnapshots.get(snapshotKey(sessionId, turn, path));
  }

  /**
   * Tool calls with `diff` content (agents that write the disk themselves, e.g. claude-agent-acp):
   * snapshot the file while the call is pending, mark it changed when the call completes.
   */
  observe(n: SessionNotification): void {
    const u = n.update;
    if (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') return;
    const store = this.ctx.session(n.sessionId);
    const view = store?.state.toolCalls.get(u.toolCallId);
    const content: ToolCallContent[] = view?.content ?? u.content ?? [];
    const status = view?.status ?? u.status ?? 'pending';
    const diffs = content.filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff');
    const turn = view?.turn ?? this.turnOf(n.sessionId);
    const { tracker } = this.deps;
    const original = originalFileOf(u._meta);
    if (original) {
      // claude-agent-acp reports the whole file as it was before its edit. It writes the disk
      // without waiting for us, so our own read may have come too late: the agent's copy wins.
      const path = this.absolute(original.path, n.sessionId);
      const fix = () => tracker.correctBefore(n.sessionId, turn, path, u.toolCallId, original.before);
      const pending = this.pendingSnapshots.get(snapshotKey(n.sessionId, turn, path));
      if (pending) void pending.then(fix);
      else fix();
    }
    if (!diffs.length) return;
    for (const d of diffs) {
      const path = this.absolute(d.path, n.sessionId);
      const k = snapshotKey(n.sessionId, turn, path);
      const after = () => {
        if (status === 'completed') tracker.markApplied(n.sessionId, turn, path);
        else if (status === 'failed') tracker.forget(n.sessionId, turn, path);
      };
      if (!tracker.needsSnapshot(n.sessionId, turn, path)) {
        tracker.snapshot(n.sessionId, turn, path, null, { source: 'diff', toolCallId: u.toolCallId });
        after();
        continue;
      }
      const pending = this.pendingSnapshots.get(k);
      if (pending) {
        void pending.then(after);
        continue;
      }
      if (status === 'completed' || status === 'failed') {
        // Seen only after the fact: the disk already changed, rebuild from the diff (inexact).
        if (status === 'completed') {
          const before = d.oldText == null ? null : new TextEncoder().encode(d.oldText);
          tracker.snapshot(n.sessionId, turn, path, before, {
            source: 'diff',
            exact: false,
            toolCallId: u.toolCallId,
            applied: true,
          });
        }
        continue;
      }
      const job = this.readSnapshot(path)
        .then(
          (before) => {
            tracker.snapshot(n.sessionId, turn, path, before, {
              source: 'diff',
              exact: true,
              toolCallId: u.toolCallId,
            });
          },
          (err) => this.logger.warn(`Could not snapshot ${path}: ${err instanceof Error ? err.message : err}`),
        )
        .finally(() => this.pendingSnapshots.delete(k));
      this.pendingSnapshots.set(k, job);
      void job.then(after);
    }
  }

  private async readSnapshot(path: string): Promise<Uint8Array | null> {
    const stat = await this.deps.fs.stat(path);
    if (!stat || stat.type !== 'file') return null;
    return this.deps.fs.readFile(path);
  }

  /** The session's current turn (the last one). */
  turnOf(sessionId: string): number {
    const turns = this.ctx.session(sessionId)?.state.turns.length ?? 0;
    return Math.max(0, turns - 1);
  }
}

function snapshotKey(sessionId: string, turn: number, path: string): string {
  return `${sessionId}\u0000${turn}\u0000${path}`;
}

/** `_meta.claudeCode.toolResponse` of an Edit/Write result: the file before the change (null: new). */
function originalFileOf(meta: unknown): { path: string; before: string | null } | undefined {
  const r = (meta as { claudeCode?: { toolResponse?: unknown } } | undefined)?.claudeCode?.toolResponse as
    { filePath?: unknown; originalFile?: unknown } | undefined;
  if (!r || typeof r !== 'object' || typeof r.filePath !== 'string' || !r.filePath || !('originalFile' in r))
    return undefined;
  if (r.originalFile !== null && typeof r.originalFile !== 'string') return undefined;
  return { path: r.filePath, before: r.originalFile };
}
