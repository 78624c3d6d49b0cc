// IDE intelligence for any agent: registers the Code, Workspace and Extensions client tool
// groups (src/tools/code/codeTools.ts, workspaceTools.ts, lmTools.ts) with their VS Code ports, and
// keeps the Extensions group equal to `vscode.lm.tools`. VS Code has no event for a change of
// that list, so it is re-read when extensions are installed, removed, enabled or disabled
// (extensions.onDidChange; the tool list reaches this extension host a moment later, so also
// after a short delay), when tandem.clientTools.extensionTools.exclude changes, and when another
// group takes a name.
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import type { Logger } from '../../common/logger';
import type { SessionStore } from '../../session/store';
import { codeToolGroup } from '../../tools/code/codeTools';
import { LmToolsSync, type LmPart, type LmPort } from '../../tools/lmTools';
import type { ToolRegistry } from '../../tools/registry';
import { workspaceToolGroup } from '../../tools/workspace/workspaceTools';
import { vscodeCodePort } from './codeTools';
import { editRecorder } from './editRecorder';
import { vscodeWorkspacePorts } from './workspaceTools';
import { extensionToolsExclude, onDidChange } from '../config';

/** Re-reads of vscode.lm.tools after an extension change (ms): the list arrives asynchronously. */
const RESYNC_DELAYS = [0, 500, 2000];

function lmPart(p: unknown): LmPart {
  if (p instanceof vscode.LanguageModelTextPart) return { type: 'text', text: p.value };
  const d = p as { mimeType?: unknown; data?: unknown };
  // LanguageModelDataPart (VS Code ≥ 1.102; this extension supports 1.100, so duck-typed).
  if (typeof d?.mimeType === 'string' && d.data instanceof Uint8Array)
    return { type: 'data', mimeType: d.mimeType, data: d.data };
  if (p instanceof vscode.LanguageModelPromptTsxPart) return { type: 'text', text: JSON.stringify(p.value) };
  return { type: 'text', text: typeof p === 'string' ? p : JSON.stringify(p) };
}

export const vscodeLm: LmPort = {
  tools: () =>
    vscode.lm.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      tags: t.tags,
    })),
  async invoke(name, input, signal) {
    const cts = new vscode.CancellationTokenSource();
    const cancel = () => cts.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      // No toolInvocationToken: the call comes from outside VS Code's chat (the agent, via Tandem).
      const r = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cts.token);
      return r.content.map(lmPart);
    } finally {
      signal.removeEventListener('abort', cancel);
      cts.dispose();
    }
  },
};

export interface IdeIntelligenceDeps {
  /** Review Changes' record of what the agent changed. */
  tracker: ChangeTracker;
  /** An open session of the current agent connection. */
  session(sessionId: string): SessionStore | undefined;
}

export function registerIdeIntelligence(
  registry: ToolRegistry,
  logger: Logger,
  deps: IdeIntelligenceDeps,
): vscode.Disposable {
  const recorder = editRecorder(() => ({
    tracker: deps.tracker,
    turnOf: (id) => {
      const s = deps.session(id);
      return s ? Math.max(0, s.state.turns.length - 1) : undefined;
    },
  }));
  // Tandem's own schemas: compiled on each tool's first call (no ajv at activation).
  const code = registry.register(codeToolGroup(vscodeCodePort(recorder)), { trusted: true });
  const workspace = registry.register(workspaceToolGroup(vscodeWorkspacePorts), { trusted: true });
  const lm = new LmToolsSync(registry, vscodeLm, extensionToolsExclude, logger);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const resync = () => {
    for (const ms of RESYNC_DELAYS) {
      const t = setTimeout(() => {
        timers.delete(t);
        lm.sync();
      }, ms);
      timers.add(t);
    }
  };
  lm.sync();
  const subs = [
    vscode.extensions.onDidChange(resync),
    onDidChange(['clientTools.extensionTools'], () => lm.sync()),
    registry.onDidChange(() => lm.sync()),
  ];
  return new vscode.Disposable(() => {
    for (const t of timers) clearTimeout(t);
    for (const s of subs) s.dispose();
    lm.dispose();
    workspace.dispose();
    code.dispose();
  });
}
