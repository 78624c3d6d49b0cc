// Remembered decisions: an *_always answer is kept per workspace for that tool/command pattern
// and applied to the next matching request. Pure: storage is a port (vscode: workspaceState).
// Which answers get here (not a mode switch, not one that says "this session") is answerMemory.ts.
import * as nodePath from 'node:path';
import type { PermissionOption, ToolKind } from '@agentclientprotocol/sdk';
import { isWithin, withRealRoots } from '../files/realPath';
import { pathUnknown, type CallFacts } from './callFacts';
import { commandScope, describeCommandScope, scopeMatches } from './commandScope';
import { isModeCall } from './modeSwitch';

export interface RememberedDecision {
  id: string;
  /** Agent display name: tool names mean something only to the agent that chose them. */
  agent: string;
  /** allow or reject (from the option's kind). */
  decision: 'allow' | 'reject';
  /** What it applies to. */
  tool?: string;
  kind?: ToolKind;
  /** Execute: the command line, or the prefix the prompt showed (see `commandMatch`). */
  command?: string;
  /**
   * How `command` matches: the exact line, or a prefix of one command. Missing on entries
   * remembered before it existed, whose key was the program name: they never allow.
   */
  commandMatch?: 'exact' | 'prefix';
  /** Prefix matches: the options the approved line had (any other option asks again). */
  commandFlags?: readonly string[];
  /** Edits, deletes, moves: the exact file, relative to the workspace folder when inside one. */
  path?: string;
  /** When it was remembered (ms since epoch). */
  at: number;
}

export interface MementoPort {
  get(): readonly RememberedDecision[];
  set(list: readonly RememberedDecision[]): PromiseLike<void> | void;
}

export function memoryMemento(initial: RememberedDecision[] = []): MementoPort {
  let list = initial;
  return {
    get: () => list,
    set: (l) => {
      list = [...l];
    },
  };
}

const PATH_KINDS = new Set<ToolKind>(['edit', 'delete', 'move']);

/** The pattern an *_always answer to this call remembers, or undefined if the call gives too little to go on. */
export function patternFor(
  call: CallFacts,
  agent: string,
  option: PermissionOption,
  roots: readonly string[],
  at: number,
): RememberedDecision | undefined {
  const decision = option.kind === 'allow_always' ? 'allow' : option.kind === 'reject_always' ? 'reject' : undefined;
  // A mode switch's "always" means "auto-accept edits", not "approve every later plan".
  if (!decision || isModeCall(call)) return undefined;
  const base = { id: '', agent, decision, tool: call.tool, kind: call.kind, at } as RememberedDecision;
  if (call.command !== undefined) {
    const scope = commandScope(call.command);
    if (!scope) return undefined;
    base.command = scope.command;
    base.commandMatch = scope.match;
    if (scope.flags) base.commandFlags = scope.flags;
  } else if (call.kind && PATH_KINDS.has(call.kind)) {
    if (call.paths.length !== 1) return undefined;
    base.path = relToRoots(call.paths[0], roots);
  } else if (!call.tool && !call.kind) {
    return undefined;
  }
  base.id = describeRemembered(base);
  return base;
}

export function matchesRemembered(
  d: RememberedDecision,
  call: CallFacts,
  agent: string,
  roots: readonly string[],
): boolean {
  if (d.agent !== agent) return false;
  // Older versions remembered "Always allow ExitPlanMode": such an entry must never approve a plan.
  if (isModeCall(call)) return false;
  if (d.tool !== call.tool) return false;
  if (d.kind !== undefined && d.kind !== call.kind) return false;
  if (d.command !== undefined) {
    if (call.command === undefined) return false;
    if (!d.commandMatch)
      return d.decision === 'reject' && scopeMatches({ match: 'prefix', command: d.command }, call.command, false);
    // Remembering "git status" allows "git status -s", never "git status && rm -rf ~".
    return scopeMatches(
      { match: d.commandMatch, command: d.command, flags: d.commandFlags },
      call.command,
      d.decision === 'allow',
    );
  }
  if (d.path !== undefined) {
    if (call.paths.length !== 1) return false;
    return relToRoots(call.paths[0], roots) === d.path;
  }
  if (call.command !== undefined) return false;
  // Tool-wide decisions (reads, fetches, other tools): allow only where the call really lands
  // inside the workspace (callFacts resolves symlinks), never a read or edit with no path found.
  if (d.decision === 'allow') {
    if (pathUnknown(call)) return false;
    const real = withRealRoots(roots);
    return call.paths.every((p) => real.some((r) => isWithin(r, p)));
  }
  return true;
}

export function describeRemembered(d: Omit<RememberedDecision, 'id'>): string {
  const verb = d.decision === 'allow' ? 'Always allow' : 'Always reject';
  const what = d.tool ?? d.kind ?? 'tool';
  if (d.command !== undefined)
    return `${verb} ${what}: ${describeCommandScope({ match: d.commandMatch ?? 'prefix', command: d.command, flags: d.commandFlags })}`;
  if (d.path !== undefined) return `${verb} ${what} on ${d.path}`;
  return `${verb} ${what}`;
}

function isWideLegacy(d: RememberedDecision): boolean {
  return d.decision === 'allow' && d.command !== undefined && !d.commandMatch;
}

/** What an always-option of this call would remember, in words for the prompt ("Always" applies to …). */
export function alwaysScopeText(d: RememberedDecision | undefined): string {
  if (!d) return 'this call only (it gives too little to remember)';
  if (d.command !== undefined)
    return describeCommandScope({ match: d.commandMatch ?? 'prefix', command: d.command, flags: d.commandFlags });
  if (d.path !== undefined) return `${d.tool ?? d.kind ?? 'this tool'} on \`${d.path}\``;
  return `every ${d.tool ?? d.kind ?? 'tool'} call${d.decision === 'allow' ? ' inside the workspace' : ''}`;
}

/** `p` (a real path, from callFacts) relative to the folder it is in, by the folders' real paths. */
function relToRoots(p: string, roots: readonly string[]): string {
  for (const r of withRealRoots(roots))
    if (isWithin(r, p)) return nodePath.relative(r, p).split(nodePath.sep).join('/') || '.';
  return p;
}

export class RememberedDecisions {
  constructor(private readonly memento: MementoPort) {}

  list(): readonly RememberedDecision[] {
    return this.memento.get();
  }

  /**
   * Drops "always allow" command decisions remembered with the old key (the program name, which
   * allowed every command of that program). Returns what was dropped; rejections stay (they only tighten).
   */
  async dropWideCommandDecisions(): Promise<RememberedDecision[]> {
    const all = this.memento.get();
    const wide = all.filter(isWideLegacy);
    if (wide.length) await this.memento.set(all.filter((d) => !isWideLegacy(d)));
    return wide;
  }

  find(call: CallFacts, agent: string, roots: readonly string[]): RememberedDecision | undefined {
    // Rejections first: a remembered "no" beats a remembered "yes".
    const all = this.memento.get();
    return (
      all.find((d) => d.decision === 'reject' && matchesRemembered(d, call, agent, roots)) ??
      all.find((d) => d.decision === 'allow' && matchesRemembered(d, call, agent, roots))
    );
  }

  async remember(d: RememberedDecision): Promise<void> {
    const list = this.memento.get().filter((x) => !(x.id === d.id && x.agent === d.agent));
    await this.memento.set([...list, d]);
  }

  async remove(ids: ReadonlyArray<{ id: string; agent: string }>): Promise<number> {
    const before = this.memento.get();
    const after = before.filter((x) => !ids.some((r) => r.id === x.id && r.agent === x.agent));
    await this.memento.set(after);
    return before.length - after.length;
  }
}
