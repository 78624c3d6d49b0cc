// Where a permission request comes from (the agent's connection) and which folders judge it: a
// session with a place (a worktree) is judged by its own folder only, so a rule or a remembered
// answer about "inside the workspace" never reaches the user's tree from it.
import type { SessionStore } from '../../session/store';
import type { SessionPlace } from '../connection/sessionPlace';

export interface RequestScope {
  store(sessionId: string): SessionStore | undefined;
  agentName: string;
  /** The workspace folder: the cwd of the connection's sessions without a place. */
  cwd: string;
  /** A session's own folder (a worktree): its cwd and the one root its rules and memories judge by. */
  placeOf?(sessionId: string): SessionPlace | undefined;
}

/** The cwd a request's relative paths resolve in, and the folders counted as inside. */
export function requestFolders(
  scope: RequestScope | undefined,
  sessionId: string,
  workspaceRoots: readonly string[],
): { cwd: string; roots: readonly string[] } {
  const place = scope?.placeOf?.(sessionId);
  if (place) return { cwd: place.cwd, roots: [place.cwd] };
  return { cwd: scope?.cwd ?? workspaceRoots[0] ?? process.cwd(), roots: workspaceRoots };
}
