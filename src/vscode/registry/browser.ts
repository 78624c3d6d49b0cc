// "Tandem: Add Agent from Registry…": the registry's agents in a QuickPick (icon, name, version,
// vendor, license, description), grouped by what they are on this machine: updates, installed,
// installable, not available here (with the reason). Everything from the registry goes through
// `plainText`: a QuickPick shows text, and no `$(icon)` of the registry's turns into an icon.
import * as vscode from 'vscode';
import { describePlan, plainText, type Catalog, type CatalogRow, type RowState } from '../../registry/browse';
import type { RegistryIcons } from './icons';

export interface RowItem extends vscode.QuickPickItem {
  row?: CatalogRow;
  /** The offline line: picking it tries the registry again. */
  reload?: boolean;
}

const GROUPS: { state: RowState; label: (c: Catalog) => string }[] = [
  { state: 'update', label: () => 'Updates' },
  { state: 'installed', label: () => 'Installed' },
  { state: 'available', label: () => 'Available' },
  { state: 'unavailable', label: (c) => `Not available on ${c.platform ?? 'this platform'}` },
];

const STATE_ICON: Record<RowState, string> = {
  update: 'arrow-circle-up',
  installed: 'check',
  available: 'cloud-download',
  unavailable: 'circle-slash',
};

/** The list's title: says when the list is the cached copy. */
export function catalogTitle(c: Catalog): string {
  return c.banner ? `ACP Registry — ${c.banner}` : 'Add Agent from the ACP Registry';
}

/** One QuickPick item per row, under a separator per group; icons where already fetched. */
export function catalogItems(
  c: Catalog,
  icons: ReadonlyMap<string, { light: vscode.Uri; dark: vscode.Uri }>,
): RowItem[] {
  const items: RowItem[] = [];
  if (c.banner) {
    // An item, not a separator: VS Code drops a separator that another one follows.
    const why = c.fetchError ? `: ${plainText(c.fetchError, 120)}` : '';
    items.push({
      label: `$(cloud-offline) ${c.banner}`,
      detail: `Could not reach ${plainText(hostOf(c.url), 80)}${why}. Pick this line to try again.`,
      alwaysShow: true,
      reload: true,
    });
  }
  for (const g of GROUPS) {
    const rows = c.rows.filter((r) => r.state === g.state);
    if (!rows.length) continue;
    items.push({ label: g.label(c), kind: vscode.QuickPickItemKind.Separator });
    for (const row of rows) items.push(rowItem(row, icons.get(row.id)));
  }
  return items;
}

function rowItem(row: CatalogRow, icon?: { light: vscode.Uri; dark: vscode.Uri }): RowItem {
  const vendor = row.authors.length ? plainText(row.authors.join(', '), 60) : undefined;
  const description = [`v${plainText(row.version, 30)}`, vendor, row.license ? plainText(row.license, 40) : undefined]
    .filter(Boolean)
    .join(' · ');
  return {
    label: plainText(row.name, 80),
    description,
    detail: `$(${STATE_ICON[row.state]}) ${stateText(row)} — ${plainText(row.description)}`,
    iconPath: icon ?? new vscode.ThemeIcon('hubot'),
    row,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** What the row is on this machine, in words. */
export function stateText(row: CatalogRow): string {
  switch (row.state) {
    case 'update':
      return `update ${plainText(row.installed!.version, 30)} → ${plainText(row.version, 30)}`;
    case 'installed':
      return `installed ${plainText(row.installed!.version, 30)}`;
    case 'available':
      return row.plan ? `installs via ${plainText(describePlan(row.plan), 100)}` : 'installable';
    case 'unavailable':
      return `not available: ${plainText(row.unavailable?.message ?? 'no distribution for this machine', 160)}`;
  }
}

/**
 * Shows the list while it loads, fills it in, then fetches icons in the background. Resolves
 * with the chosen row (undefined when dismissed).
 */
export async function pickRow(
  load: () => Promise<Catalog>,
  icons: RegistryIcons,
  onError: (err: unknown) => void,
): Promise<{ row: CatalogRow; catalog: Catalog } | undefined> {
  const qp = vscode.window.createQuickPick<RowItem>();
  qp.title = 'ACP Registry — loading…';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.busy = true;
  const refresh: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('refresh'),
    tooltip: 'Reload the registry',
  };
  qp.buttons = [refresh];
  const fetched = new Map<string, { light: vscode.Uri; dark: vscode.Uri }>();
  let catalog: Catalog | undefined;
  const show = () => {
    if (!catalog) return;
    const active = qp.activeItems[0]?.row?.id;
    qp.items = catalogItems(catalog, fetched);
    const again = qp.items.find((i) => i.row?.id === active);
    if (again) qp.activeItems = [again];
  };
  const reload = async () => {
    qp.busy = true;
    try {
      catalog = await load();
      qp.title = catalogTitle(catalog);
      qp.placeholder = `${catalog.rows.length} agents. Pick one to install, update, use or remove.`;
      show();
      for (const row of catalog.rows)
        if (row.icon && !fetched.has(row.id))
          void icons.get(row.icon).then((icon) => {
            if (!icon) return;
            fetched.set(row.id, icon);
            show();
          });
    } catch (err) {
      onError(err);
      qp.hide();
    } finally {
      qp.busy = false;
    }
  };
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: { row: CatalogRow; catalog: Catalog } | undefined) => {
      if (done) return;
      done = true;
      resolve(v);
      qp.dispose();
    };
    qp.onDidTriggerButton((b) => {
      if (b === refresh) void reload();
    });
    qp.onDidAccept(() => {
      if (qp.selectedItems[0]?.reload) return void reload();
      const row = qp.selectedItems[0]?.row;
      if (row && catalog) finish({ row, catalog });
    });
    qp.onDidHide(() => finish(undefined));
    qp.show();
    void reload();
  });
}
