// What the Code group asks VS Code's language features (src/vscode/clientTools/codeTools.ts implements it
// with `vscode.commands.executeCommand('vscode.execute…Provider', …)`; tests with fakes). Units
// are VS Code's (0-based); the tools turn them into the agent's 1-based, workspace-relative form.
import type { Pos, PortDocument, PortLocation, Span } from './codeShape';
import type { WorkspaceFolderInfo } from '../workspace/workspacePaths';

export interface PortSymbol {
  name: string;
  /** SymbolKind's name: "Function", "Class", "Method", … */
  kind: string;
  detail?: string;
  containerName?: string;
  /** The whole symbol (document symbols) or where it is (workspace symbols). */
  location: PortLocation;
  children?: PortSymbol[];
}

/** A function or method in a call hierarchy; `ref` is the provider's own item (opaque here). */
export interface PortCallItem {
  name: string;
  kind: string;
  detail?: string;
  /** Its name's range (selectionRange). */
  location: PortLocation;
  ref: unknown;
}

/** One caller (incoming) or callee (outgoing) and the call sites (ranges in the caller's file). */
export interface PortCall {
  item: PortCallItem;
  ranges: Span[];
}

/** A WorkspaceEdit: the files it changes and how many text edits each; `ref` is the edit itself. */
export interface PortEdit {
  files: Array<{ uri: string; path?: string; edits: number }>;
  ref: unknown;
}

export interface PortCodeAction {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  /** Why the action cannot run now (CodeAction.disabled.reason). */
  disabled?: string;
  /** Messages of the diagnostics it fixes. */
  diagnostics: string[];
  edit?: PortEdit;
  /** The command it runs (after its edit), if any. */
  command?: string;
  ref: unknown;
}

export interface CodePort {
  folders(): WorkspaceFolderInfo[];
  /** The path with every symlink resolved; throws when nothing is there (as fs.realpath). */
  realpath(path: string): Promise<string>;
  /** Opens (loads) a document; throws when it cannot be read. */
  open(pathOrUri: string): Promise<PortDocument>;
  /** Extensions that bring language features for `languageId` (they activate on it). Empty: none installed. */
  languageSupport(languageId: string): string[];
  /** The text of a location's first line (for previews); undefined when it cannot be read. */
  lineText(loc: PortLocation): Promise<string | undefined>;
  definitions(doc: PortDocument, pos: Pos): Promise<PortLocation[]>;
  references(doc: PortDocument, pos: Pos): Promise<PortLocation[]>;
  documentSymbols(doc: PortDocument): Promise<PortSymbol[]>;
  workspaceSymbols(query: string): Promise<PortSymbol[]>;
  /** Hover contents as markdown / plain text, one entry per provider part. */
  hover(doc: PortDocument, pos: Pos): Promise<string[]>;
  prepareCallHierarchy(doc: PortDocument, pos: Pos): Promise<PortCallItem[]>;
  calls(item: PortCallItem, direction: 'incoming' | 'outgoing'): Promise<PortCall[]>;
  /** The rename's edit, or undefined when no provider answers; throws the provider's reason when the element cannot be renamed. */
  rename(doc: PortDocument, pos: Pos, newName: string): Promise<PortEdit | undefined>;
  /** Code actions for a range (with their edits resolved). */
  codeActions(doc: PortDocument, range: Span, kind?: string): Promise<PortCodeAction[]>;
  /**
   * Applies an edit as one undoable change, saves the files it touched that had no unsaved
   * changes, and records them in Review Changes for the session. False: VS Code refused it.
   */
  applyEdit(edit: PortEdit, sessionId: string | undefined): Promise<boolean>;
  /** Runs a code action's command. */
  runCommand(action: PortCodeAction): Promise<void>;
}
