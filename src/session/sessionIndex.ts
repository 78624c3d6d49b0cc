// The local index of past sessions per workspace ("Tandem: Open Session…"). Pure: the vscode side
// keeps the entries in workspaceState.

export interface SessionIndexEntry {
  sessionId: string;
  agentName: string;
  title?: string;
  cwd: string;
  createdAt: number;
  updatedAt: number;
  /** Number of prompts sent; 0-turn sessions are not worth listing. */
  turns: number;
}

export const MAX_INDEXED_SESSIONS = 200;

/** Inserts or updates an entry (most recent first), bounded to MAX_INDEXED_SESSIONS. */
export function upsertSession(
  index: readonly SessionIndexEntry[],
  entry: Partial<SessionIndexEntry> & Pick<SessionIndexEntry, 'sessionId'>,
): SessionIndexEntry[] {
  const prev = index.find((e) => e.sessionId === entry.sessionId);
  const merged = {
    ...(prev ?? { agentName: '', cwd: '', createdAt: entry.updatedAt ?? 0, updatedAt: 0, turns: 0 }),
    ...stripUndefined(entry),
  } as SessionIndexEntry;
  const rest = index.filter((e) => e.sessionId !== entry.sessionId);
  return [merged, ...rest].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, MAX_INDEXED_SESSIONS);
}

export function removeSession(index: readonly SessionIndexEntry[], sessionId: string): SessionIndexEntry[] {
  return index.filter((e) => e.sessionId !== sessionId);
}

/** Accepts what workspaceState returned, dropping anything malformed (it may come from an older version). */
export function parseIndex(raw: unknown): SessionIndexEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (e): e is SessionIndexEntry =>
      !!e &&
      typeof e === 'object' &&
      typeof e.sessionId === 'string' &&
      typeof e.agentName === 'string' &&
      typeof e.updatedAt === 'number',
  );
}

/**
 * Merges the agent's session/list answer with the local index: the agent's entries win for
 * title and time; local entries of this agent missing from the agent's list are kept (the agent
 * may page or forget), marked as local.
 */
export function mergeWithAgentList(
  local: readonly SessionIndexEntry[],
  agentName: string,
  remote: readonly { sessionId: string; title?: string | null; updatedAt?: string | null; cwd: string }[],
): (SessionIndexEntry & { source: 'agent' | 'local' })[] {
  const out = new Map<string, SessionIndexEntry & { source: 'agent' | 'local' }>();
  for (const r of remote) {
    const l = local.find((e) => e.sessionId === r.sessionId);
    const updatedAt = r.updatedAt ? Date.parse(r.updatedAt) || l?.updatedAt || 0 : (l?.updatedAt ?? 0);
    out.set(r.sessionId, {
      sessionId: r.sessionId,
      agentName,
      cwd: r.cwd,
      title: r.title ?? l?.title,
      createdAt: l?.createdAt ?? updatedAt,
      updatedAt,
      turns: l?.turns ?? 0,
      source: 'agent',
    });
  }
  for (const l of local)
    if (l.agentName === agentName && !out.has(l.sessionId)) out.set(l.sessionId, { ...l, source: 'local' });
  return [...out.values()].sort((a, b) => b.updatedAt - a.updatedAt);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
