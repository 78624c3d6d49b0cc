// What the browse list shows, independent of how it is drawn: one row per registry agent (and per
// installed agent the index no longer lists) with its state on this machine: installed, an update
// available, installable, or unavailable here and why. Registry text is data: `plainText` makes it
// safe to put into a label that renders `$(icon)` syntax.
import { formatListDate, type LoadedIndex } from './catalog';
import { planInstall, type InstallPlan, type Tools, type Unavailable } from './plan';
import type { InstalledAgent, PlatformKey } from './types';
import { compareVersions } from './versions';

export type RowState = 'installed' | 'update' | 'available' | 'unavailable';

export interface CatalogRow {
  id: string;
  name: string;
  /** The index's version (the installed one for an agent the index no longer lists). */
  version: string;
  description: string;
  authors: string[];
  license?: string;
  repository?: string;
  website?: string;
  icon?: string;
  state: RowState;
  installed?: InstalledAgent;
  /** How it would be installed here (absent when unavailable). */
  plan?: InstallPlan;
  unavailable?: Unavailable;
  /** False for an installed agent that is no longer in the index. */
  listed: boolean;
}

export interface Catalog {
  rows: CatalogRow[];
  url: string;
  fetchedAt: number;
  offline: boolean;
  /** "offline, list from 2026-11-23 14:05" when the list is the cached copy. */
  banner?: string;
  fetchError?: string;
  warnings: string[];
  platform?: PlatformKey;
}

export function buildCatalog(
  loaded: LoadedIndex,
  installed: readonly InstalledAgent[],
  platform: PlatformKey | undefined,
  tools: Tools,
): Catalog {
  const rows: CatalogRow[] = loaded.index.agents.map((a) => {
    const mine = installed.find((i) => i.id === a.id);
    const planned = planInstall(a, platform, tools);
    const plan = 'plan' in planned ? planned.plan : undefined;
    const state: RowState = mine
      ? compareVersions(a.version, mine.registryVersion ?? mine.version) > 0 && plan
        ? 'update'
        : 'installed'
      : plan
        ? 'available'
        : 'unavailable';
    return {
      id: a.id,
      name: a.name,
      version: a.version,
      description: a.description,
      authors: a.authors,
      license: a.license,
      repository: a.repository,
      website: a.website,
      icon: a.icon,
      state,
      installed: mine,
      plan,
      unavailable: 'unavailable' in planned ? planned.unavailable : undefined,
      listed: true,
    };
  });
  for (const i of installed) {
    if (rows.some((r) => r.id === i.id)) continue;
    rows.push({
      id: i.id,
      name: i.agentName,
      version: i.version,
      description: 'No longer listed in the registry.',
      authors: [],
      state: 'installed',
      installed: i,
      listed: false,
    });
  }
  const rank: Record<RowState, number> = { update: 0, installed: 1, available: 2, unavailable: 3 };
  rows.sort((a, b) => rank[a.state] - rank[b.state] || a.name.localeCompare(b.name));
  return {
    rows,
    url: loaded.url,
    fetchedAt: loaded.fetchedAt,
    offline: loaded.offline,
    banner: loaded.offline ? `offline, list from ${formatListDate(loaded.fetchedAt)}` : undefined,
    fetchError: loaded.fetchError,
    warnings: loaded.warnings,
    platform,
  };
}

/** How a row's agent is installed, in a few words ("npm @zed-industries/claude-code-acp@0.16.2"). */
export function describePlan(plan: InstallPlan): string {
  switch (plan.kind) {
    case 'npx':
      return `npm ${plan.packageName}@${plan.version}`;
    case 'uvx':
      return `uvx ${plan.package}`;
    case 'binary':
      return `${plan.platform} download, SHA-256 checked`;
  }
}

// C0/C1 controls, and the bidirectional overrides that can make text read differently than it is.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Registry text for a label or a notification: control and bidi characters removed, whitespace
 * collapsed, `$(` broken so it cannot turn into an icon and `](` so it cannot become a link (a
 * notification turns `[label](command:…)` into a clickable command), cut to `max` characters.
 */
export function plainText(s: string, max = 200): string {
  const t = s
    .replace(UNSAFE_CHARS, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\$\(/g, '$\u200b(')
    .replace(/\]\(/g, ']\u200b(');
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
