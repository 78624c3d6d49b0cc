// Every key Tandem keeps something under in VS Code's storage: the workspace state, the global
// state and the secret storage. One place, so two features never share a key by accident
// (test/unit/vscode/config.test.ts checks they are unique). Renaming a key loses what was kept
// under the old one.

/** context.workspaceState: kept per workspace. */
export const WORKSPACE_STATE = {
  /** RememberedDecision[]: the "always" answers to permission prompts (src/client/permissions/remembered.ts). */
  rememberedPermissions: 'tandem.permissions.remembered',
  /** Prompts queued while a turn runs, per session (src/session/promptQueue.ts); they outlive a reload. */
  promptQueue: 'tandem.promptQueue',
  /** The past sessions index, SessionIndexEntry[] (src/session/sessionIndex.ts). */
  sessionIndex: 'tandem.sessionIndex',
  /** { agentName, sessionId } of the session last shown, reopened at start. */
  lastSession: 'tandem.lastSession',
  /** The prompt running when the window went away (InFlightPrompt), when the window has no folder. */
  inFlightPrompt: 'tandem.inFlightPrompt',
  /** WorktreeSessionRecord[]: the sessions that run in a git worktree of their own (vscode/worktrees/). */
  worktreeSessions: 'tandem.worktreeSessions',
  /** ComparisonRecord[]: "Ask Several Agents" comparisons whose panel is open (vscode/worktrees/comparisonState.ts). */
  comparisons: 'tandem.comparisons',
  /** FeedbackComment[]: review comments on the agent's changes, per session (src/review/feedbackComments.ts). */
  feedbackComments: 'tandem.feedbackComments',
  /** ReviewedMark[]: files of a session the user marked as reviewed (src/review/reviewedMarks.ts). */
  reviewedFiles: 'tandem.reviewedFiles',
  /** SessionSummary[]: the agents' summaries of their sessions' changes (vscode/changes/sessionSummaries.ts). */
  sessionSummaries: 'tandem.sessionSummaries',
  /** KeptCommit[]: the commits "Commit Kept Changes…" made, per session (vscode/commit/keptCommits.ts). */
  keptCommits: 'tandem.keptCommits',
} as const;

/** context.globalState: kept for the user, across workspaces. */
export const GLOBAL_STATE = {
  /** Record<registry id, version>: agent updates already notified (each version is told once). */
  registryNotified: 'tandem.registry.notified',
} as const;

/** Key prefixes in context.secrets; the functions below complete them. */
export const SECRET_PREFIXES = {
  /** An agent's secret environment variable (its `secretEnv`, or an env-var sign-in). */
  agentSecret: 'tandem.agentSecret.',
  /** The names of the variables an agent was signed in with (a JSON array of strings). */
  agentSignInEnv: 'tandem.agentSignInEnv.',
} as const;

/** The secret storage key of `agent`'s environment variable `name`. */
export const agentSecretKey = (agent: string, name: string): string => `${SECRET_PREFIXES.agentSecret}${agent}.${name}`;

/** The secret storage key of the variable names `agent` was signed in with. */
export const agentSignInEnvKey = (agent: string): string => `${SECRET_PREFIXES.agentSignInEnv}${agent}`;
