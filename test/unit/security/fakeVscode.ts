// A small fake `vscode` module for unit tests of src/vscode/* in plain Node: the parts the
// controller and the session view use are real fakes (Uri, EventEmitter, Disposable, workspace
// trust and configuration, a recording window); anything else is a harmless callable stub.
// Import this file before any module that imports 'vscode'.
import Module from 'node:module';
import * as nodePath from 'node:path';

export const state = {
  isTrusted: true,
  /** window.state.focused */
  windowFocused: true,
  folders: [] as string[],
  /** `tandem.agents` etc. by full key. */
  config: {} as Record<string, unknown>,
  /** Messages shown with window.show*Message, and other recorded calls. */
  shown: [] as string[],
  /** What the next messages' buttons answer, in order (then undefined: the message was dismissed). */
  answers: [] as (string | undefined)[],
  commands: [] as string[],
  /** Context keys set with `setContext`, by name. */
  context: {} as Record<string, unknown>,
  /** Answers for window.showInputBox, in order (undefined when empty: dismissed), and what was asked. */
  inputs: [] as string[],
  inputBoxes: [] as Array<{ title?: string; password?: boolean }>,
  /** Titles of the QuickPicks shown (each is dismissed). */
  quickPicks: [] as string[],
  /** Options of the terminals created (a Pseudoterminal in `pty`). */
  terminals: [] as Array<{ name?: string; pty?: unknown }>,
  trustListeners: [] as Array<() => void>,
};

function stub(name: string): unknown {
  const target = function () {
    /* stub */
  };
  return new Proxy(target, {
    get(_t, p) {
      if (p === 'then') return undefined;
      if (p === 'dispose') return () => undefined;
      if (p === Symbol.toPrimitive || p === 'toString') return () => name;
      return stub(`${name}.${String(p)}`);
    },
    apply() {
      return {
        dispose() {
          /* stub */
        },
        then: (r: (v: unknown) => void) => Promise.resolve(undefined).then(r),
      };
    },
    construct() {
      return stub(`new ${name}`) as object;
    },
  });
}

class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
    readonly path: string,
    private readonly text: string,
  ) {}
  static file(p: string): Uri {
    return new Uri('file', p, p, `file://${p}`);
  }
  static parse(s: string): Uri {
    const m = /^([\w+.-]+):/.exec(s);
    return new Uri(m?.[1] ?? 'file', s, s, s);
  }
  static joinPath(u: Uri, ...parts: string[]): Uri {
    return Uri.file(nodePath.join(u.fsPath, ...parts));
  }
  static from(c: { scheme: string; path: string }): Uri {
    return new Uri(c.scheme, c.path, c.path, `${c.scheme}:${c.path}`);
  }
  with(): Uri {
    return this;
  }
  toString(): string {
    return this.text;
  }
}

class EventEmitter<T> {
  private listeners: Array<(e: T) => void> = [];
  readonly event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((x) => x !== l);
      },
    };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Disposable {
  constructor(private readonly fn?: () => void) {}
  static from(...ds: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => ds.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.fn?.();
  }
}

const record = (kind: string) => async (msg: string) => {
  state.shown.push(`${kind}: ${msg}`);
  return state.answers.shift();
};

const api: Record<string, unknown> = {
  Uri,
  EventEmitter,
  Disposable,
  Range: class {
    constructor(...a: unknown[]) {
      Object.assign(this, { a });
    }
  },
  ThemeIcon: class {
    constructor(readonly id: string) {}
  },
  QuickPickItemKind: { Separator: -1, Default: 0 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  workspace: new Proxy(
    {
      get isTrusted() {
        return state.isTrusted;
      },
      get workspaceFolders() {
        return state.folders.map((p, index) => ({ uri: Uri.file(p), name: nodePath.basename(p), index }));
      },
      getConfiguration: (section?: string) => ({
        get: (key: string, d?: unknown) => {
          const v = state.config[section ? `${section}.${key}` : key];
          return v === undefined ? d : v;
        },
        inspect: () => undefined,
        has: () => false,
        update: async () => undefined,
      }),
      onDidGrantWorkspaceTrust: (l: () => void) => {
        state.trustListeners.push(l);
        return {
          dispose() {
            /* */
          },
        };
      },
      registerTextDocumentContentProvider: () => ({
        dispose() {
          /* */
        },
      }),
    },
    { get: (t, p) => (p in t ? (t as Record<string | symbol, unknown>)[p] : stub(`workspace.${String(p)}`)) },
  ),
  window: new Proxy(
    {
      get state() {
        return { focused: state.windowFocused };
      },
      showErrorMessage: record('error'),
      showWarningMessage: record('warning'),
      showInformationMessage: record('info'),
      showQuickPick: async (_items: unknown, o: { title?: string } = {}) => {
        state.quickPicks.push(o.title ?? '');
        return undefined;
      },
      createStatusBarItem: () => ({
        show() {
          /* */
        },
        dispose() {
          /* */
        },
      }),
      createTerminal: (o: { name?: string; pty?: unknown }) => {
        state.terminals.push(o);
        return {
          show() {
            /* */
          },
          dispose() {
            /* */
          },
        };
      },
      showInputBox: async (o: { title?: string; password?: boolean } = {}) => {
        state.inputBoxes.push({ title: o.title, password: o.password });
        return state.inputs.shift();
      },
      withProgress: async (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
        task(
          {
            report() {
              /* */
            },
          },
          {
            isCancellationRequested: false,
            onCancellationRequested: () => ({
              dispose() {
                /* */
              },
            }),
          },
        ),
    },
    { get: (t, p) => (p in t ? (t as Record<string | symbol, unknown>)[p] : stub(`window.${String(p)}`)) },
  ),
  commands: new Proxy(
    {
      executeCommand: async (c: string, ...args: unknown[]) => {
        state.commands.push(c);
        if (c === 'setContext') state.context[String(args[0])] = args[1];
        return undefined;
      },
    },
    { get: (t, p) => (p in t ? (t as Record<string | symbol, unknown>)[p] : stub(`commands.${String(p)}`)) },
  ),
};

export const vscodeFake = new Proxy(api, {
  get: (t, p) => (p in t ? t[p as string] : stub(`vscode.${String(p)}`)),
}) as Record<string, unknown> & {
  Uri: typeof Uri;
  LogLevel: Record<string, number>;
  workspace: Record<string, unknown>;
};

const M = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = M._load;
M._load = function (request: string, ...rest: unknown[]) {
  if (request === 'vscode') return vscodeFake;
  return load.call(this, request, ...rest);
};

/** A fake ExtensionContext with what the controller reads. */
export function fakeContext(extensionPath: string, storage: string): unknown {
  const secrets = new Map<string, string>();
  return {
    extensionUri: Uri.file(extensionPath),
    globalStorageUri: Uri.file(storage),
    subscriptions: [],
    extension: { packageJSON: { version: '0.0.0-test' } },
    secrets: {
      get: async (k: string) => secrets.get(k),
      store: async (k: string, v: string) => {
        secrets.set(k, v);
      },
      delete: async (k: string) => {
        secrets.delete(k);
      },
    },
    workspaceState: { get: () => undefined, update: async () => undefined, keys: () => [] },
    globalState: {
      get: () => undefined,
      update: async () => undefined,
      keys: () => [],
      setKeysForSync() {
        /* */
      },
    },
  };
}

export interface FakeView {
  view: unknown;
  posted: unknown[];
  send(msg: unknown): void;
  html(): string;
}

/** A WebviewView for SessionViewProvider.resolveWebviewView: records what the host posts; `send` plays the page. */
export function fakeWebviewView(): FakeView {
  let listener: ((m: unknown) => void) | undefined;
  const posted: unknown[] = [];
  const webview = {
    options: {},
    html: '',
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    asWebviewUri: (u: { fsPath: string }) => ({
      toString: () => `https://file+.vscode-resource.vscode-cdn.net${u.fsPath}`,
    }),
    onDidReceiveMessage: (l: (m: unknown) => void) => {
      listener = l;
      return {
        dispose() {
          /* */
        },
      };
    },
    postMessage: async (m: unknown) => {
      posted.push(m);
      return true;
    },
  };
  const view = {
    webview,
    visible: true,
    badge: undefined,
    onDidChangeVisibility: () => ({
      dispose() {
        /* */
      },
    }),
    onDidDispose: () => ({
      dispose() {
        /* */
      },
    }),
  };
  return { view, posted, send: (m) => listener?.(m), html: () => webview.html };
}
