// Follow-along: while on (setting tandem.followAgent; command tandem.toggleFollowAgent; a
// status-bar indicator), the `locations` of the agent's tool calls open in a preview editor at
// that line without taking focus from the composer, with a brief line highlight. Debounced: a
// burst of reads reveals only the last location once things settle. Workspace files only (a
// worktree session's: its folder's) unless tandem.followOutsideWorkspace is set. It watches the
// shown session's store changes.
import * as vscode from 'vscode';
import { isWithin } from '../../client/files/fileAccess';
import type { RevealPort } from '../../client/ports';
import { Disposable } from '../../common/disposable';
import { Emitter, type Event } from '../../common/event';
import type { SessionChange } from '../../session/store';
import type { Patch, ToolCallLocation } from '../../shared/sessionModel';
import { followAgent, followOutsideWorkspace, onDidChange, setFollowAgent } from '../config';

const DEBOUNCE_MS = 250;
const HIGHLIGHT_MS = 1500;

/** Opens a file at a line in the preview editor, keeping focus where it is, and flashes the line. */
export class EditorReveal extends Disposable implements RevealPort {
  private readonly decoration = this._register(
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
      overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.findMatchForeground'),
      overviewRulerLane: vscode.OverviewRulerLane.Center,
    }),
  );
  private timer?: NodeJS.Timeout;

  async reveal(path: string, line: number | undefined): Promise<void> {
    const uri = vscode.Uri.file(path);
    const l = Math.max(0, (line ?? 1) - 1);
    const editor = await vscode.window.showTextDocument(uri, {
      preview: true,
      preserveFocus: true,
      selection: new vscode.Range(l, 0, l, 0),
    });
    const range = editor.document.validateRange(new vscode.Range(l, 0, l, 0));
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    editor.setDecorations(this.decoration, [range]);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      try {
        editor.setDecorations(this.decoration, []);
      } catch {
        /* editor gone */
      }
    }, HIGHLIGHT_MS);
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    super.dispose();
  }
}

export class FollowAgent extends Disposable {
  private readonly status = this._register(
    vscode.window.createStatusBarItem('tandem.followAgent', vscode.StatusBarAlignment.Right, 99),
  );
  private readonly seen = new Map<string, string>();
  private pending?: { path: string; line?: number; sessionId: string };
  private timer?: NodeJS.Timeout;
  private readonly revealed = this._register(new Emitter<{ path: string; line?: number }>());
  /** A location was revealed (tests, telemetry-free diagnostics). */
  readonly onDidReveal = this.revealed.event;

  constructor(
    sessionChanges: Event<SessionChange>,
    private readonly port: RevealPort = new EditorReveal(),
    private readonly debounceMs = DEBOUNCE_MS,
    /** The folder a session works in when it is not the workspace (a worktree). */
    private readonly folderOf: (sessionId: string) => string | undefined = () => undefined,
  ) {
    super();
    this.status.name = 'Tandem: Follow Agent';
    this.status.command = 'tandem.toggleFollowAgent';
    this.updateStatus();
    this.status.show();
    this._register(sessionChanges((c) => this.onPatches(c.sessionId, c.patches)));
    this._register(vscode.commands.registerCommand('tandem.toggleFollowAgent', () => this.toggle()));
    this._register(onDidChange(['followAgent'], () => this.updateStatus()));
    if (port instanceof EditorReveal) this._register(port);
  }

  /** Read once per configuration change: onPatches runs for every session change and must stay cheap. */
  private on = followAgent();

  get enabled(): boolean {
    return this.on;
  }

  async toggle(): Promise<void> {
    // Flip it where it is set (workspace wins over global), globally otherwise.
    await setFollowAgent(!this.enabled);
    this.updateStatus();
  }

  private updateStatus(): void {
    const on = (this.on = followAgent());
    this.status.text = on ? '$(eye) Follow' : '$(eye-closed) Follow';
    this.status.tooltip = on
      ? 'Tandem follows the agent: files it touches open beside you. Click to stop.'
      : 'Tandem: click to follow the agent (open the files it touches).';
  }

  private onPatches(sessionId: string, patches: readonly Patch[]): void {
    if (!this.enabled) return;
    for (const p of patches) {
      if (p.op !== 'tool' || !p.call.locations.length) continue;
      const key = JSON.stringify(p.call.locations);
      if (this.seen.get(p.call.toolCallId) === key) continue;
      this.seen.set(p.call.toolCallId, key);
      if (this.seen.size > 2000) this.seen.delete(this.seen.keys().next().value!);
      const loc: ToolCallLocation = p.call.locations[p.call.locations.length - 1];
      this.schedule({ path: loc.path, line: loc.line ?? undefined, sessionId });
    }
  }

  private schedule(target: { path: string; line?: number; sessionId: string }): void {
    this.pending = target;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.debounceMs);
  }

  private async flush(): Promise<void> {
    const t = this.pending;
    this.pending = undefined;
    if (!t || !this.enabled) return;
    const outside = followOutsideWorkspace();
    const own = this.folderOf(t.sessionId);
    const folders = own ? [own] : (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    if (!outside && !folders.some((f) => isWithin(f, t.path))) return;
    try {
      const st = await vscode.workspace.fs.stat(vscode.Uri.file(t.path));
      if (!(st.type & vscode.FileType.File)) return;
      await this.port.reveal(t.path, t.line);
      this.revealed.fire({ path: t.path, line: t.line });
    } catch {
      /* gone or unreadable: nothing to follow */
    }
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    super.dispose();
  }
}
