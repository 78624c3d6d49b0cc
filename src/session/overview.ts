// The overview of every open session of every agent (the "Sessions" view), grouped by what it
// needs from the user: needs you (a permission prompt, a form, a sign-in), running, done but not
// yet seen, idle. Pure: the vscode side gathers the rows and draws them.

export type OverviewGroup = 'needsYou' | 'running' | 'unseen' | 'idle';

/** One session as the overview lists it. */
export interface OverviewSession {
  sessionId: string;
  agentName: string;
  title?: string;
  /** The session store's status: idle, working, disconnected, … */
  status: string;
  turns: number;
  /** What the session waits for from the user ("a permission prompt"), if anything. */
  waiting?: string;
  /** A turn ended there since the user last looked at it. */
  unseen: boolean;
  /** Files the agent changed in it. */
  files: number;
}

/** The groups in the order they are shown: what needs the user first. */
export const GROUP_ORDER: readonly OverviewGroup[] = ['needsYou', 'running', 'unseen', 'idle'];

export const GROUP_LABEL: Record<OverviewGroup, string> = {
  needsYou: 'Needs you',
  running: 'Running',
  unseen: 'Done, not yet seen',
  idle: 'Idle',
};

export function groupOf(s: OverviewSession): OverviewGroup {
  if (s.waiting) return 'needsYou';
  if (s.status === 'working') return 'running';
  return s.unseen ? 'unseen' : 'idle';
}

/** The non-empty groups in order, each session once, by agent then title (stable otherwise). */
export function overviewGroups(
  sessions: readonly OverviewSession[],
): Array<{ group: OverviewGroup; sessions: OverviewSession[] }> {
  const sorted = [...sessions].sort(
    (a, b) => a.agentName.localeCompare(b.agentName) || (a.title ?? '').localeCompare(b.title ?? ''),
  );
  return GROUP_ORDER.map((group) => ({ group, sessions: sorted.filter((s) => groupOf(s) === group) })).filter(
    (g) => g.sessions.length > 0,
  );
}

/** The line beside a session's title: its agent, what it waits for, its turns and changed files. */
export function describeSession(s: OverviewSession): string {
  const parts = [s.agentName];
  if (s.waiting) parts.push(`waits for ${s.waiting}`);
  parts.push(`${s.turns} turn${s.turns === 1 ? '' : 's'}`);
  if (s.files) parts.push(`${s.files} file${s.files === 1 ? '' : 's'} changed`);
  return parts.join(' · ');
}
