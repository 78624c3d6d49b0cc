// Folding an Agent call's subagent rows (the calls and messages under it). A fold is kept with the
// other expand states of the transcript (saved in the view's memory) as `subtree:<call id>` →
// false; open is the default.
const PREFIX = 'subtree:';

export const subtreeKey = (toolCallId: string) => `${PREFIX}${toolCallId}`;

/** The folded Agent calls, as a string that changes only when they do (rows are rebuilt on it). */
export function foldedKey(expanded: ReadonlyMap<string, boolean>): string {
  const ids: string[] = [];
  for (const [k, v] of expanded) if (!v && k.startsWith(PREFIX)) ids.push(k.slice(PREFIX.length));
  return ids.sort().join('\n');
}

export function foldedSet(key: string): ReadonlySet<string> {
  return new Set(key ? key.split('\n') : []);
}

/** The expand states with the subtree of `toolCallId` folded if it was open, else opened. */
export function toggledSubtree(expanded: ReadonlyMap<string, boolean>, toolCallId: string): Map<string, boolean> {
  const k = subtreeKey(toolCallId);
  return new Map(expanded).set(k, expanded.get(k) === false);
}
