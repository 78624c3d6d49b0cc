// What the user does with a registry agent: install (with progress, cancellable, then start it
// and sign in), update (the old version stays until the new one starts), use, uninstall, and
// open its repository. Errors say what happened in words (registry/messages.ts), what was left as
// it was, and offer Retry, Open Settings or Show Log.
import * as vscode from 'vscode';
import { plainText, type Catalog, type CatalogRow } from '../../registry/browse';
import { loadFailure, operationFailure, type Operation, type RegistryMessage } from '../../registry/messages';
import { UV_HELP } from '../../registry/plan';
import type { RegistryService } from '../../registry/service';
import { stateText } from './browser';
import type { RegistryDeps } from './registryCommands';
import { setDefaultAgent, userDefaultAgent } from '../config';

interface Action extends vscode.QuickPickItem {
  run: () => Promise<unknown>;
}

export class RegistryActions {
  constructor(
    private readonly service: RegistryService,
    private readonly d: RegistryDeps,
  ) {}

  /** The menu for one row of the list. */
  async act(row: CatalogRow, catalog: Catalog): Promise<string | undefined> {
    const name = row.installed?.agentName ?? row.name;
    const actions: Action[] = [];
    if (row.state === 'available')
      actions.push({
        label: `$(cloud-download) Install ${plainText(`${row.name} ${row.version}`, 100)}`,
        detail: stateText(row),
        run: () => this.install(row.id, catalog),
      });
    if (row.state === 'update')
      actions.push({
        label: `$(arrow-circle-up) Update to ${plainText(row.version, 40)}`,
        detail: stateText(row),
        run: () => this.updateAll([row.id], catalog),
      });
    if (row.installed) {
      actions.push({
        label: `$(play) Use ${plainText(name, 80)}`,
        detail: 'Make it the default agent and start it',
        run: () => this.use(name),
      });
      actions.push({
        label: `$(trash) Uninstall ${plainText(name, 80)}`,
        detail: 'Removes its files and its tandem.agents entry',
        run: () => this.uninstall(row.id),
      });
    }
    if (row.state === 'unavailable') return this.explainUnavailable(row);
    const link = safeLink(row.repository ?? row.website);
    if (link)
      actions.push({
        label: `$(link-external) Open ${link.authority}`,
        detail: link.toString(true),
        run: () => Promise.resolve(vscode.env.openExternal(link)),
      });
    const pick = await vscode.window.showQuickPick(actions, { title: `Tandem: ${plainText(row.name, 80)}` });
    const result = await pick?.run();
    return typeof result === 'string' ? result : undefined;
  }

  /** Installs `id`, then starts it (and signs in when it asks). Resolves with its settings name. */
  async install(id: string, catalog?: Catalog): Promise<string | undefined> {
    if (!this.trusted('install')) return undefined;
    const label = (await this.known(catalog))?.rows.find((r) => r.id === id)?.name ?? id;
    try {
      const rec = await this.withProgress(`Installing ${label}`, (signal, progress) =>
        this.service.install(id, { signal, progress, catalog }),
      );
      this.d.logger.info(
        `[registry] installed ${rec.id} ${rec.version} (${rec.kind}) as "${rec.agentName}"${rec.dir ? ` in ${rec.dir}` : ''}`,
      );
      await this.use(rec.agentName, `${rec.agentName} ${rec.version} is installed and ready.`);
      return rec.agentName;
    } catch (err) {
      this.showError({ verb: 'install', name: label }, err);
      return undefined;
    }
  }

  /** Updates each agent in turn; resolves with the ids that were updated. */
  async updateAll(ids: string[], catalog?: Catalog): Promise<string[]> {
    if (!ids.length || !this.trusted('update')) return [];
    const done: string[] = [];
    for (const id of ids) {
      // Said by the name the user knows it by, from the version it has to the one offered.
      const rec = (await this.service.installed().catch(() => [])).find((a) => a.id === id);
      const row = (await this.known(catalog))?.rows.find((r) => r.id === id);
      const op: Operation = {
        verb: 'update',
        name: rec?.agentName ?? row?.name ?? id,
        from: rec?.version,
        to: row?.version,
      };
      try {
        const { from, to } = await this.withProgress(`Updating ${op.name}`, (signal, progress) =>
          this.service.update(id, { signal, progress, catalog }),
        );
        done.push(id);
        const runs = this.d.runner.isRunning(to.agentName);
        const msg = `Tandem: updated ${to.agentName} from ${from.version} to ${to.version}.`;
        if (!runs) void say('information', msg);
        else
          void say('information', `${msg} Restart it to use the new version.`, 'Restart Agent').then((p) => {
            if (p) void this.d.runner.start(to.agentName);
          });
      } catch (err) {
        this.showError(op, err);
      }
      catalog = undefined; // the next update reads the index again
    }
    return done;
  }

  async uninstall(id: string): Promise<string | undefined> {
    let name = id;
    try {
      const rec = (await this.service.installed()).find((a) => a.id === id);
      name = rec?.agentName ?? id;
      // A running agent is stopped first, so its files can go.
      if (rec) await this.d.runner.stopAgent(rec.agentName);
      const removed = await this.service.uninstall(id);
      if (userDefaultAgent() === removed.agentName) await setDefaultAgent(undefined);
      void say('information', `Tandem: uninstalled ${removed.agentName}.`);
      return removed.agentName;
    } catch (err) {
      this.showError({ verb: 'uninstall', name }, err);
      return undefined;
    }
  }

  /** The list for the messages' names and versions: the one shown, else the saved copy (no fetch when there is one). */
  private async known(catalog: Catalog | undefined): Promise<Catalog | undefined> {
    try {
      return catalog ?? (await this.service.catalog({ maxAgeMs: Number.POSITIVE_INFINITY }));
    } catch {
      return undefined;
    }
  }

  /** Makes `name` the default agent and starts it; an agent that asks to sign in gets the sign-in flow. */
  private async use(name: string, readyMessage?: string): Promise<string> {
    await setDefaultAgent(name);
    if (!vscode.workspace.isTrusted) return name;
    this.d.showView();
    await this.d.runner.start(name);
    if (this.d.runner.agent.state === 'auth') await this.d.signIn();
    else if (readyMessage && this.d.runner.agent.state === 'ready') void say('information', `Tandem: ${readyMessage}`);
    return name;
  }

  showError(op: Operation, err: unknown): void {
    if (err instanceof Error && (err.name === 'AbortError' || /aborted/i.test(err.message))) {
      void say('information', `Tandem: cancelled; nothing was left behind.`);
      return;
    }
    void this.showFailure(operationFailure(op, err));
  }

  /** The index could not be loaded: Retry runs `retry`. */
  showLoadError(err: unknown, retry: () => unknown): void {
    void this.showFailure(loadFailure(err), retry);
  }

  private async showFailure(m: RegistryMessage, retry?: () => unknown): Promise<void> {
    this.d.logger.error(`[registry] ${m.log}`);
    const buttons = m.buttons.filter((b) => b !== 'Retry' || retry);
    const pick = await say('error', m.text, ...buttons);
    if (pick === 'Retry') await retry?.();
    else if (pick === 'Open Settings')
      await vscode.commands.executeCommand('workbench.action.openSettings', m.setting ?? 'tandem.registry');
    else if (pick === 'Show Log') await vscode.commands.executeCommand('tandem.showLog');
  }

  private async explainUnavailable(row: CatalogRow): Promise<undefined> {
    const msg = `${row.name} cannot be installed here: ${row.unavailable?.message ?? 'no distribution for this machine'}`;
    if (row.unavailable?.message.endsWith(UV_HELP)) {
      const pick = await say('warning', msg, 'Open uv installation guide');
      if (pick)
        await vscode.env.openExternal(vscode.Uri.parse('https://docs.astral.sh/uv/getting-started/installation/'));
    } else void say('warning', msg);
    return undefined;
  }

  private trusted(what: string): boolean {
    if (vscode.workspace.isTrusted) return true;
    void say(
      'warning',
      `Tandem does not ${what} agents in a restricted workspace: an agent runs commands and edits files. Trust this workspace first.`,
    );
    return false;
  }

  private withProgress<T>(
    title: string,
    run: (signal: AbortSignal, progress: (message: string, fraction?: number) => void) => Promise<T>,
  ): Promise<T> {
    return Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (p, token) => {
          const ac = new AbortController();
          token.onCancellationRequested(() => ac.abort());
          let done = 0;
          return run(ac.signal, (message, fraction) => {
            const increment = fraction !== undefined ? Math.max(0, fraction * 100 - done) : undefined;
            if (fraction !== undefined) done = fraction * 100;
            p.report({ message, increment });
          });
        },
      ),
    );
  }
}

/** A notification whose text may carry registry strings (names, versions, messages): shown as plain text. */
function say(
  kind: 'information' | 'warning' | 'error',
  text: string,
  ...buttons: string[]
): Thenable<string | undefined> {
  const t = plainText(text, 1000);
  if (kind === 'error') return vscode.window.showErrorMessage(t, ...buttons);
  if (kind === 'warning') return vscode.window.showWarningMessage(t, ...buttons);
  return vscode.window.showInformationMessage(t, ...buttons);
}

/** The repository or website link, when it is http(s). */
function safeLink(url: string | undefined): vscode.Uri | undefined {
  if (!url) return undefined;
  try {
    const u = vscode.Uri.parse(url, true);
    return u.scheme === 'https' || u.scheme === 'http' ? u : undefined;
  } catch {
    return undefined;
  }
}
