// The VS Code side of permissions: reads `tandem.permissions.rules` (user and workspace values
// apart, so workspace rules can only tighten), keeps remembered decisions in workspaceState,
// shows a notification + a badge on the Tandem view when the view is hidden or the window is
// not focused, and the "Tandem: Manage Permissions" command.
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import { notifyNow, permissionMessage } from '../view/attention';
import type { Event } from '../../common/event';
import type { Logger } from '../../common/logger';
import { PermissionBroker, type PendingPermission } from '../../client/permissions/broker';
import { PermissionsFeature } from '../../client/permissions/feature';
import { agentAllowedWatch } from './agentAllowList';
import {
  alwaysScopeText,
  RememberedDecisions,
  type MementoPort,
  type RememberedDecision,
} from '../../client/permissions/remembered';
import type { RuleSet } from '../../client/permissions/ruleEvaluation';
import { DEFAULT_RULES, parseRules } from '../../client/permissions/rules';
import { notifications, onDidChange, permissionRules, setPermissionRules, settingId } from '../config';
import { WORKSPACE_STATE } from '../storageKeys';

const RULES_ID = settingId('permissions.rules');
const MEMENTO_KEY = WORKSPACE_STATE.rememberedPermissions;
const roots = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);

export interface PermissionViewPort {
  readonly isVisible: boolean;
  /** The view was shown or hidden: prompts that only the view knew about then get a notification. */
  readonly onDidChangeVisibility: Event<boolean>;
  setBadge(count: number, tooltip: string): void;
  show(): void;
  /** The session the view shows: a prompt of another one (another agent's, say) is not in sight. */
  shownSession?(): string | undefined;
  /** Shows that session in the view. */
  showSession?(sessionId: string): void;
}

export class TandemPermissions extends Disposable {
  readonly broker: PermissionBroker;
  readonly remembered: RememberedDecisions;
  private rules: RuleSet = { user: [], workspace: [] };
  private lastWarnings = '';
  private readonly notified = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly logger: Logger,
    private readonly view: PermissionViewPort,
  ) {
    super();
    const memento: MementoPort = {
      get: () => context.workspaceState.get<RememberedDecision[]>(MEMENTO_KEY, []),
      set: (list) => context.workspaceState.update(MEMENTO_KEY, list),
    };
    this.remembered = new RememberedDecisions(memento);
    // Decisions remembered by program name (older versions) allowed every command of that program.
    void this.remembered.dropWideCommandDecisions().then((dropped) => {
      for (const d of dropped) logger.warn(`Dropped a remembered decision wider than its prompt showed: ${d.id}`);
    });
    this.broker = this._register(
      new PermissionBroker({
        rules: () => this.rules,
        roots,
        remembered: this.remembered,
        logger,
      }),
    );
    this.reload();
    this._register(onDidChange(['permissions.rules'], () => this.reload()));
    this._register(
      vscode.window.onDidChangeWindowState(() => {
        this.notifyHidden();
        this.updateBadge();
      }),
    );
    this._register(
      view.onDidChangeVisibility(() => {
        this.notifyHidden();
        this.updateBadge();
      }),
    );
    this._register(
      this.broker.onDidChange((c) => {
        if (c.type === 'added') this.maybeNotify(c.pending);
        else this.notified.delete(c.requestId);
        this.updateBadge();
      }),
    );
  }

  /** For each new agent connection. */
  feature(): PermissionsFeature {
    const deps = () => ({ rules: this.rules, remembered: this.remembered, roots: roots() });
    return new PermissionsFeature(this.broker, agentAllowedWatch(this.logger, deps));
  }

  /** A permissionAnswer from the webview; false (and logged) when forged or late. */
  answer(requestId: string, optionId: string): boolean {
    const ok = this.broker.answer(requestId, optionId);
    if (!ok)
      this.logger.warn(
        `Ignored a permission answer for ${requestId} / ${optionId}: not pending or not an offered option.`,
      );
    return ok;
  }

  private reload(): void {
    const info = permissionRules();
    const user = parseRules(info.user, 'user');
    const ws = parseRules(info.workspace, 'workspace');
    const folder = parseRules(info.workspaceFolder, 'workspace');
    this.rules = { user: user.rules, workspace: [...ws.rules, ...folder.rules] };
    const warnings = [...user.warnings, ...ws.warnings, ...folder.warnings];
    for (const w of warnings) this.logger.warn(w);
    const key = warnings.join('\n');
    if (key && key !== this.lastWarnings) {
      void vscode.window
        .showWarningMessage(
          `Tandem: ${warnings.length} permission rule${warnings.length === 1 ? ' was' : 's were'} skipped. ${warnings[0]}`,
          'Open Settings',
          'Show Log',
        )
        .then((pick) => {
          if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', RULES_ID);
          if (pick === 'Show Log') void vscode.commands.executeCommand('tandem.showLog');
        });
    }
    this.lastWarnings = key;
  }

  private notifyHidden(): void {
    if (!notifyNow(this.view)) return;
    for (const p of this.broker.pending()) this.maybeNotify(p);
  }

  private maybeNotify(p: PendingPermission): void {
    // tandem.notifications: off, when the view is hidden or the window unfocused (default), always;
    // and, unless off, when the prompt's session is not the one the view shows.
    const elsewhere = this.view.shownSession && this.view.shownSession() !== p.sessionId;
    const now = notifyNow(this.view) || (elsewhere && notifications() !== 'off');
    if (!now || this.notified.has(p.requestId)) return;
    this.notified.add(p.requestId);
    const items = p.view.options.map((o) => ({ title: `${o.name}`, optionId: o.optionId }));
    const show = { title: 'Show in Tandem', optionId: '' };
    void vscode.window.showInformationMessage(permissionMessage(p), ...items, show).then((pick) => {
      if (!pick) return;
      if (!pick.optionId) {
        if (this.view.showSession) this.view.showSession(p.sessionId);
        else this.view.show();
        return;
      }
      // Already answered in the view (or cancelled): the late click changes nothing.
      this.answer(p.requestId, pick.optionId);
    });
  }

  /** Counts the prompts the user cannot see: with the view in sight, the shown session's are on screen. */
  updateBadge(): void {
    const inSight = this.view.isVisible && vscode.window.state.focused;
    const shown = this.view.shownSession?.();
    const n = this.broker.pending().filter((p) => !(inSight && p.sessionId === shown)).length;
    this.view.setBadge(n, n === 1 ? '1 permission request waiting' : `${n} permission requests waiting`);
  }

  /**
   * Tandem: Manage Permissions — remembered decisions and rules. Removable entries carry a trash
   * button (Enter removes the active one too) and the list updates in place; the built-in rules
   * are listed for reference only.
   */
  async manage(): Promise<void> {
    const qp = vscode.window.createQuickPick<ManageItem>();
    qp.title = 'Tandem: Manage Permissions';
    qp.placeholder = 'Remove a remembered decision or a rule with its trash button (or Enter)';
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.buttons = [{ iconPath: new vscode.ThemeIcon('gear'), tooltip: 'Edit rules in settings' }];
    const refresh = () => {
      const active = qp.activeItems[0]?.label;
      qp.items = this.manageItems();
      // Keep the place in the list (setting items moves the focus to the top).
      const same = qp.items.find((x) => x.label === active && x.remove);
      if (same) qp.activeItems = [same];
    };
    const remove = async (item: ManageItem) => {
      if (!item.remove) return;
      qp.busy = true;
      try {
        await item.remove();
        this.logger.info(`Manage Permissions: removed ${item.label}`);
      } catch (e) {
        void vscode.window.showErrorMessage(
          `Tandem: could not remove the entry: ${e instanceof Error ? e.message : String(e)}`,
        );
      } finally {
        qp.busy = false;
        refresh();
      }
    };
    const openSettings = () => {
      qp.hide();
      void vscode.commands.executeCommand('workbench.action.openSettings', RULES_ID);
    };
    const subs = [
      qp.onDidTriggerItemButton((e) => void remove(e.item)),
      qp.onDidTriggerButton(openSettings),
      qp.onDidAccept(() => {
        const item = qp.activeItems[0];
        if (item?.openSettings) openSettings();
        else if (item) void remove(item);
      }),
      // Settings edited elsewhere while the list is open.
      onDidChange(['permissions.rules'], refresh),
    ];
    qp.items = this.manageItems();
    await new Promise<void>((resolve) => {
      subs.push(qp.onDidHide(() => resolve()));
      qp.show();
    });
    for (const d of subs) d.dispose();
    qp.dispose();
  }

  private manageItems(): ManageItem[] {
    const trash = [{ iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Remove' }];
    const items: ManageItem[] = [];
    const remembered = this.remembered.list();
    items.push({ label: 'Remembered in this workspace', kind: vscode.QuickPickItemKind.Separator });
    if (!remembered.length)
      items.push({
        label: '$(info) No remembered decisions',
        description: 'choose an "always" option in a prompt to add one',
      });
    for (const d of remembered) {
      items.push({
        label: `${d.decision === 'allow' ? '$(check-all)' : '$(circle-slash)'} ${d.id}`,
        description: `${d.agent} · ${new Date(d.at).toLocaleString()}`,
        detail: d.command !== undefined ? `Applies to ${alwaysScopeText(d)}` : undefined,
        buttons: trash,
        remove: () => this.remembered.remove([{ id: d.id, agent: d.agent }]),
      });
    }
    const info = permissionRules();
    const addRules = (label: string, list: unknown, target: vscode.ConfigurationTarget) => {
      if (!Array.isArray(list) || !list.length) return;
      items.push({ label, kind: vscode.QuickPickItemKind.Separator });
      const parsed = parseRules(list, target === vscode.ConfigurationTarget.Global ? 'user' : 'workspace');
      list.forEach((raw, i) => {
        const rule = parsed.rules.find((r) => r.index === i);
        items.push({
          label: `${rule ? actionIcon(rule.spec.action) : '$(warning)'} ${rule?.label ?? 'malformed rule'}`,
          description: `#${i + 1}`,
          detail: JSON.stringify(raw),
          buttons: trash,
          remove: async () => {
            const cur = permissionRules();
            const value =
              target === vscode.ConfigurationTarget.Global
                ? cur.user
                : target === vscode.ConfigurationTarget.Workspace
                  ? cur.workspace
                  : cur.workspaceFolder;
            if (!Array.isArray(value)) return;
            const next = value.filter((x) => JSON.stringify(x) !== JSON.stringify(raw));
            await setPermissionRules(next.length ? next : undefined, target);
          },
        });
      });
    };
    addRules('Rules in user settings', info.user, vscode.ConfigurationTarget.Global);
    addRules('Rules in workspace settings (can only tighten)', info.workspace, vscode.ConfigurationTarget.Workspace);
    items.push({ label: 'Built-in (always apply, after your rules)', kind: vscode.QuickPickItemKind.Separator });
    for (const r of DEFAULT_RULES)
      items.push({ label: `${actionIcon(r.spec.action)} ${r.label}`, description: 'built-in' });
    items.push({ label: '$(circle-large-outline) everything else asks', description: 'built-in' });
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    items.push({ label: '$(gear) Edit rules in settings…', openSettings: true });
    return items;
  }
}

/** A row of Manage Permissions: removable (trash button), the settings link, or for reference. */
type ManageItem = vscode.QuickPickItem & {
  remove?: () => Thenable<unknown> | Promise<unknown>;
  openSettings?: boolean;
};

function actionIcon(a: string): string {
  return a === 'allow' ? '$(check)' : a === 'reject' ? '$(close)' : '$(question)';
}
