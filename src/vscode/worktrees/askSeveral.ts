// "Tandem: Ask Several Agents…": one prompt to 2–4 agents, each in a new worktree session of its
// own (newWorktreeSession.ts), and a comparison panel of their results (comparisonPanel.ts). The
// comparison is kept in workspaceState (comparisonState.ts) and its panel comes back after a reload
// through a webview serializer. Registered after the prompts feature, whose PromptSender it uses.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import { MAX_AGENTS, MIN_AGENTS, type ComparisonRecord, shortPrompt } from '../../shared/comparisonModel';
import { requireRepo } from '../../worktrees/worktrees';
import type { Controller } from '../agent/controller';
import { readSettings } from '../config';
import type { Ctx } from '../ctx';
import type { PromptSender } from '../prompts/promptSender';
import { ComparisonPanel, type ComparisonPanelDeps } from './comparisonPanel';
import { Comparisons } from './comparisonState';
import { newWorktreeSession } from './newWorktreeSession';
import { errorText } from './worktreeTarget';
import type { WorktreeSessions } from './worktreeSessions';

export interface AskSeveralDeps {
  ctl: Controller;
  sessions: WorktreeSessions;
  sender: Pick<PromptSender, 'sendTo'>;
}

/** What the palette asks for; given as the command's first argument (tests), nothing is asked. */
export interface AskSeveralArgs {
  agents: string[];
  prompt: string;
}

export interface AskSeveralFeature {
  readonly comparisons: Comparisons;
  /** The open panel of a comparison (the integration tests drive it). */
  panel(comparisonId: string): ComparisonPanel | undefined;
}

const TITLE = 'Tandem: Ask Several Agents';

export function registerAskSeveral(ctx: Ctx, d: AskSeveralDeps): AskSeveralFeature {
  const comparisons = new Comparisons(ctx.extension.workspaceState);
  const panels = ctx.own(
    new ComparisonPanels({
      ctl: d.ctl,
      sessions: d.sessions,
      comparisons,
      logger: ctx.logger,
      extensionUri: ctx.extension.extensionUri,
    }),
  );
  ctx.own(
    vscode.commands.registerCommand('tandem.askSeveralAgents', async (args?: unknown) => {
      try {
        return await askSeveral(ctx, d, panels, args);
      } catch (err) {
        ctx.logger.error(`[worktrees] Ask Several Agents failed: ${errorText(err)}`);
        void vscode.window.showErrorMessage(`Tandem: Ask Several Agents failed. ${errorText(err)}`);
        return undefined;
      }
    }),
  );
  ctx.own(
    vscode.window.registerWebviewPanelSerializer(ComparisonPanel.viewType, {
      deserializeWebviewPanel: async (panel, state) => panels.restore(panel, state),
    }),
  );
  return { comparisons, panel: (id) => panels.get(id) };
}

/** The open comparison panels, by comparison id; closing one forgets its comparison. */
class ComparisonPanels extends Disposable {
  private readonly open = new Map<string, ComparisonPanel>();

  constructor(readonly d: ComparisonPanelDeps) {
    super();
  }

  get(id: string): ComparisonPanel | undefined {
    return this.open.get(id);
  }

  show(record: ComparisonRecord): ComparisonPanel {
    const shown = this.open.get(record.id);
    if (shown) {
      shown.reveal();
      return shown;
    }
    return this.add(ComparisonPanel.create(this.d, record));
  }

  /** A panel VS Code kept over a reload: its page's state names the comparison. */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const id = (state as { comparisonId?: unknown } | undefined)?.comparisonId;
    const record = typeof id === 'string' ? this.d.comparisons.get(id) : undefined;
    if (!record || this.open.has(record.id)) {
      panel.dispose();
      return;
    }
    this.add(new ComparisonPanel(this.d, record, panel));
  }

  private add(p: ComparisonPanel): ComparisonPanel {
    this.open.set(p.id, p);
    p.onDidClose(() => {
      this.open.delete(p.id);
      // Closed by the user (the window closing does not dispose panels): the comparison is done.
      if (!this.isDisposed) void this.d.comparisons.remove(p.id);
    });
    return p;
  }

  /**
   * The extension is going away: stop listening, but leave the panels to VS Code, which keeps
   * them for the next window (disposing one here would close its tab).
   */
  override dispose(): void {
    super.dispose();
    for (const p of this.open.values()) p.dispose();
    this.open.clear();
  }
}

async function askSeveral(
  ctx: Ctx,
  d: AskSeveralDeps,
  panels: ComparisonPanels,
  args: unknown,
): Promise<string | undefined> {
  const configured = readSettings(ctx.extension.extensionUri).agents.map((a) => a.name);
  const given = parseArgs(args);
  const agents = given?.agents ?? (await pickAgents(configured, d.ctl.agent.name));
  if (!agents) return undefined;
  const unknown = agents.filter((a) => !configured.includes(a));
  if (unknown.length) return fail(`${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in tandem.agents.`);
  if (agents.length < MIN_AGENTS || agents.length > MAX_AGENTS)
    return fail(`pick ${MIN_AGENTS} to ${MAX_AGENTS} agents (${agents.length} picked).`);
  const prompt = given?.prompt ?? (await askPrompt(agents));
  if (!prompt) return undefined;
  if (!(await inRepo())) return undefined;

  const name = shortPrompt(prompt);
  const opened: ComparisonRecord['sessions'] = [];
  const sent = new Map<string, Promise<string | undefined>>();
  for (const agentName of agents) {
    // One at a time: each starts (and shows) its agent. Its prompt goes at once rather than after
    // the last one opens: the turns overlap, and an agent at work is never the one stopped to
    // make room for the next (tandem.maxAgents).
    const sessionId = await newWorktreeSession(
      { ctx, ctl: d.ctl, sessions: d.sessions },
      { agentName, name: `${name} ${agentName}`, carryChanges: false },
    );
    if (!sessionId) continue;
    opened.push({ sessionId, agentName });
    sent.set(sessionId, send(d, sessionId, prompt));
  }
  if (!opened.length) return undefined;
  if (opened.length < agents.length)
    void vscode.window.showWarningMessage(
      `Tandem: ${opened.length} of ${agents.length} agents opened a session; the comparison shows ${opened.length === 1 ? 'that one' : 'those'}.`,
    );
  const record: ComparisonRecord = { id: randomUUID(), prompt, sessions: opened, createdAt: Date.now() };
  await panels.d.comparisons.put(record);
  const panel = panels.show(record);
  for (const [sessionId, p] of sent) panel.track(sessionId, p);
  ctx.logger.info(`[worktrees] comparison ${record.id}: ${opened.map((o) => o.agentName).join(', ')}`);
  return record.id;
}

/** Sends the prompt as the session's turn; resolves when the turn ends, with the error if it failed. */
async function send(d: AskSeveralDeps, sessionId: string, text: string): Promise<string | undefined> {
  try {
    const client = d.ctl.clientOf(sessionId);
    if (!client) return 'Its agent stopped before the prompt was sent.';
    await d.sender.sendTo(client, sessionId, { text, attachments: [] });
    return undefined;
  } catch (err) {
    return errorText(err);
  }
}

function parseArgs(args: unknown): AskSeveralArgs | undefined {
  if (!args || typeof args !== 'object') return undefined;
  const a = args as Partial<AskSeveralArgs>;
  if (!Array.isArray(a.agents) || !a.agents.every((n) => typeof n === 'string') || typeof a.prompt !== 'string')
    return undefined;
  return { agents: a.agents, prompt: a.prompt };
}

async function pickAgents(names: readonly string[], shown: string | undefined): Promise<string[] | undefined> {
  if (names.length < MIN_AGENTS) {
    fail(`Ask Several Agents needs at least ${MIN_AGENTS} agents in tandem.agents (${names.length} configured).`);
    return undefined;
  }
  for (;;) {
    const picks = await vscode.window.showQuickPick(
      names.map((n) => ({ label: n, description: n === shown ? 'shown now' : undefined })),
      {
        title: TITLE,
        placeHolder: `Pick ${MIN_AGENTS} to ${MAX_AGENTS} agents; each works in a worktree of its own`,
        canPickMany: true,
      },
    );
    if (!picks) return undefined;
    if (picks.length >= MIN_AGENTS && picks.length <= MAX_AGENTS) return picks.map((p) => p.label);
    // Say why and ask again: a picker that only closes would leave the user guessing.
    const again = await vscode.window.showWarningMessage(
      `Tandem: pick ${MIN_AGENTS} to ${MAX_AGENTS} agents to compare (${picks.length} picked).`,
      'Pick Again',
    );
    if (again !== 'Pick Again') return undefined;
  }
}

async function askPrompt(agents: readonly string[]): Promise<string | undefined> {
  const v = await vscode.window.showInputBox({
    title: TITLE,
    prompt: `The prompt ${agents.join(', ')} each get, each in a worktree of its own.`,
    placeHolder: 'Add input validation to the signup form',
    validateInput: (s) => (s.trim() ? undefined : 'Write the prompt the agents get.'),
  });
  return v?.trim() || undefined;
}

/** Checked once here, so a folder without git says so once rather than once per agent. */
async function inRepo(): Promise<boolean> {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  let why: string | undefined;
  if (!folder) why = 'open a folder that is in a git repository first.';
  else if (!vscode.workspace.isTrusted) why = 'Tandem runs no agent in an untrusted workspace.';
  else
    try {
      await requireRepo(folder.uri.fsPath);
    } catch (err) {
      why = `${folder.name} is not in a git repository with a commit: ${errorText(err)}`;
    }
  if (why) fail(why);
  return !why;
}

function fail(why: string): undefined {
  void vscode.window.showErrorMessage(`Tandem: ${why.charAt(0).toUpperCase()}${why.slice(1)}`);
  return undefined;
}
