// The overview of every open session of every agent (the "Sessions" view), grouped by what it
// needs from the user: needs you (a permission prompt, a form, a sign-in), running, done but not
// yet seen, idle. Pure: the vscode side gathers the rows and draws them.
import { money } from '../shared/money';

export type OverviewGroup = 'needsYou' | 'running' | 'unseen' | 'idle' | 'archived';

/** One session as the overview lists it. */
export interface OverviewSession {
  sessionId: string;
  agentName: string;
  /** The branch of the git worktree the session works in, if it has one of its own. */
  place?: string;
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
  /** Lines added and removed in those files since the session first touched each, once counted. */
  lines?: { added: number; removed: number };
  /** Of those files, how many the user has not marked reviewed. */
  toReview?: number;
  /** When the running turn started (epoch ms), while one runs. */
  runningSince?: number;
  /** A worktree session put away: its work is on its branch, its folder removed (restore brings it back). */
  archived?: boolean;
  /** Context use and cost, where the agent reports usage_update. */
  usage?: { used: number; size: number; cost?: { amount: number; currency: string } | null };
}

/** The groups in the order they are shown: what needs the user first. */
export const GROUP_ORDER: readonly OverviewGroup[] = ['needsYou', 'running', 'unseen', 'idle', 'archived'];

export const GROUP_LABEL: Record<OverviewGroup, string> = {
  needsYou: 'Needs you',
  running: 'Running',
  unseen: 'Done, not yet seen',
  idle: 'Idle',
  archived: 'Archived',
};

export function groupOf(s: OverviewSession): OverviewGroup {
  if (s.archived) return 'archived';
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

/**
 * The line beside a session's title: its agent (and worktree branch), what it waits for, how long
 * its turn has run, its turns, changed files, and context use or cost where the agent reports them.
 */
export function describeSession(s: OverviewSession, now = Date.now()): string {
  const parts = [s.place ? `${s.agentName} in ${s.place}` : s.agentName];
  if (s.archived) return [...parts, 'archived: click to restore'].join(' · ');
  if (s.waiting) parts.push(`waits for ${s.waiting}`);
  if (s.status === 'working' && s.runningSince !== undefined) parts.push(`running ${elapsed(now - s.runningSince)}`);
  parts.push(`${s.turns} turn${s.turns === 1 ? '' : 's'}`);
  if (s.files)
    parts.push(
      `${s.files} file${s.files === 1 ? '' : 's'}${s.lines ? ` +${s.lines.added} −${s.lines.removed}` : ' changed'}`,
    );
  if (s.toReview) parts.push(`${s.toReview} to review`);
  const u = s.usage;
  if (u?.cost) parts.push(money(u.cost));
  else if (u && u.size > 0) parts.push(`${Math.round((u.used / u.size) * 100)}% context`);
  return parts.join(' · ');
}

/** "45 s", "3 min", "1 h 5 min": coarse on purpose, the row refreshes on changes, not every second. */
function elapsed(ms: number): string {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec < 60) return `${sec} s`;
  const min = Math.floor(sec / 60);
  return min < 60 ? `${min} min` : `${Math.floor(min / 60)} h ${min % 60} min`;
}
