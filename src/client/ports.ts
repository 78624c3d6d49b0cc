// The ports the agent's hands (fs, terminals, follow-along, review) use. src/client never imports
// vscode: src/vscode/editor/workspacePorts.ts implements these with the editor; unit tests with fakes.
// Paths are absolute file-system paths (the agent speaks paths, not URIs).
import type { IDisposable } from '../common/disposable';

/** A file open in the editor: its live text, unsaved edits included. */
export interface OpenDocument {
  readonly text: string;
  /** Unsaved changes in the buffer. */
  readonly isDirty: boolean;
  /** Increases with every change of the buffer (TextDocument.version). */
  readonly version: number;
}

/** Documents (editor buffers). */
export interface DocumentsPort {
  /** The open buffer of this file, or undefined when it is not open. */
  get(path: string): OpenDocument | undefined;
}

export interface FileStat {
  type: 'file' | 'directory' | 'other';
  size: number;
}

/** The file system (vscode.workspace.fs in VS Code, node:fs in tests). */
export interface FsPort {
  /** undefined when nothing is at `path`. */
  stat(path: string): Promise<FileStat | undefined>;
  readFile(path: string): Promise<Uint8Array>;
  /** The path with every symlink resolved; throws when it does not exist. */
  realpath(path: string): Promise<string>;
}

/** Edits applied through the editor's WorkspaceEdit: undoable, shown at once in open editors. */
export interface EditPort {
  /**
   * Replaces the whole text of an existing file (through its document, which is then saved, so
   * the disk and the editor agree) as one undoable edit.
   */
  replaceText(path: string, text: string): Promise<void>;
  /** Creates a file (and its parent folders) with these contents, as one undoable edit. */
  createFile(path: string, contents: Uint8Array): Promise<void>;
  /** Deletes a file, as one undoable edit (used by revert of a file the agent created). */
  deleteFile(path: string): Promise<void>;
  /**
   * Puts these exact bytes back into an existing file: an undoable text edit when the bytes are
   * text the editor can represent exactly, else a direct write (mixed line endings, BOM, …).
   */
  restoreBytes(path: string, bytes: Uint8Array): Promise<void>;
}

/** The workspace: its folders (real paths, symlinks resolved by the caller where needed). */
export interface WorkspacePort {
  folders(): readonly string[];
}

/** Reveal a location in the editor (follow-along). */
export interface RevealPort {
  /** Opens `path` in a preview editor at 1-based `line` without taking focus, with a brief highlight. */
  reveal(path: string, line: number | undefined): Promise<void>;
}

/** A spawned process (a terminal's command). */
export interface SpawnedProcess {
  readonly pid: number | undefined;
  /** Output chunks of stdout and stderr, in arrival order. */
  onData(listener: (chunk: Buffer) => void): IDisposable;
  /** Once: the process ended and its output pipes are drained (or a short while passed). */
  onExit(listener: (exit: { code: number | null; signal: string | null }) => void): IDisposable;
  /** Signals the process's whole group (POSIX) or tree (Windows). False when nothing was there. */
  signalGroup(signal: 'SIGTERM' | 'SIGKILL'): boolean;
  /** True while any (non-zombie) process of the group is alive. */
  groupAlive(): boolean;
  /** Output is a terminal's data (escape sequences, CRLF): the agent reads it as plain text. */
  readonly emitsTerminalData?: boolean;
}

export interface SpawnOptions {
  command: string;
  /** undefined: `command` is a shell line. */
  args?: readonly string[];
  cwd: string;
  /** Merged over the host's environment. */
  env?: Readonly<Record<string, string>>;
  /** The session that runs it, and its agent's name (a visible terminal is kept per session). */
  sessionId?: string;
  agentName?: string;
}

/** Process spawn: every process in a new process group. */
export interface ProcessPort {
  spawn(opts: SpawnOptions): SpawnedProcess;
}
