// Where a session works. Most sessions work in the workspace: their cwd is its first folder and
// every workspace folder counts as inside. A session in a git worktree of its own has a place:
// its folder is its cwd and the only folder inside — fs requests, terminals, permission paths and
// rules, the agent's allow list all judge by it — so nothing it does lands in the user's tree
// without a prompt.

export interface SessionPlace {
  /** The session's cwd (session/new, load, resume, fork) and the one folder counted as inside. */
  readonly cwd: string;
  /** How the view names the place: the worktree's branch (`tandem/fix-login`). */
  readonly label: string;
}
