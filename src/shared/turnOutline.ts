// Folded turns cross to the webview as outlines: the header, the prompt and counts, without
// their messages and tool calls. A 10,000-call session then sends the turn in progress, not
// megabytes nobody has unfolded (structured-clone and JSON time grow with the snapshot). A
// turn's content follows in a `fullTurn` patch when the view asks (the user unfolds it) or
// when the turn changes. The host keeps one TurnOutliner per view; it is pure bookkeeping.
import type { Patch, SessionSnapshot, ToolCallView, TurnOutline, TurnView } from './sessionModel';

/** Most turns one loadTurns request may ask for ("expand all" on a very long session asks in slices). */
export const MAX_LOAD_TURNS = 1000;

/** A turn as the host holds it: everything a `fullTurn` patch carries. */
export interface FullTurn {
  turn: TurnView;
  calls: ToolCallView[];
}

export interface TurnSource {
  /** The turn with its tool calls, or undefined when it does not exist. */
  fullTurn(index: number): FullTurn | undefined;
  /** The turn a tool call belongs to. */
  turnOfCall(toolCallId: string): number | undefined;
}

export function outlineOf(turn: TurnView, calls: Record<string, ToolCallView>): TurnOutline {
  let tools = 0,
    failed = 0,
    running = 0;
  for (const it of turn.items) {
    if (it.kind !== 'tool') continue;
    tools++;
    const call = calls[it.toolCallId];
    const st = call?.status;
    if (st === 'failed') failed++;
    // A call of a turn that ended early is not running any more (it shows as interrupted).
    else if ((st === 'in_progress' || st === 'pending') && !call?.interrupted) running++;
  }
  return { tools, failed, running };
}

/** Turns that stay whole: the last one (it shows unfolded) and any with a prompt or form waiting. */
function keepWhole(s: SessionSnapshot): Set<number> {
  const keep = new Set<number>([s.turns.length - 1]);
  for (const p of s.permissions) {
    const t = s.toolCalls[p.toolCallId]?.turn;
    if (t !== undefined) keep.add(t);
  }
  for (const e of s.elicitations) {
    const t = e.toolCallId ? s.toolCalls[e.toolCallId]?.turn : undefined;
    if (t !== undefined) keep.add(t);
  }
  return keep;
}

const NONE: readonly number[] = [];

export class TurnOutliner {
  private sessionId: string | undefined;
  private outlined = new Set<number>();
  /** Outlined turns that list each tool call (an agent may reuse an id in a later turn). */
  private refs = new Map<string, number[]>();

  /** Whether turn `index` of the session was sent as an outline and not loaded since. */
  isOutlined(sessionId: string, index: number): boolean {
    return sessionId === this.sessionId && this.outlined.has(index);
  }

  /**
   * The snapshot to send: every turn but the ones that must stay whole becomes an outline
   * (when that drops anything). Remembers which, until the next snapshot.
   */
  snapshot(s: SessionSnapshot | null): SessionSnapshot | null {
    this.outlined = new Set();
    this.refs = new Map();
    this.sessionId = s?.meta.sessionId;
    if (!s) return s;
    const keep = keepWhole(s);
    // A call id an agent reused in a whole turn stays (ids are the agent's, not unique per turn).
    const needed = new Set<string>();
    for (const turn of s.turns)
      if (turn && keep.has(turn.index)) for (const it of turn.items) if (it.kind === 'tool') needed.add(it.toolCallId);
    let toolCalls: Record<string, ToolCallView> | undefined;
    const turns = s.turns.map((turn) => {
      if (!turn || keep.has(turn.index)) return turn;
      const first = turn.items[0];
      const prompt = first?.kind === 'user' ? [first] : [];
      if (turn.items.length === prompt.length) return turn;
      if (!toolCalls) toolCalls = { ...s.toolCalls };
      for (const it of turn.items) {
        if (it.kind !== 'tool') continue;
        if (!needed.has(it.toolCallId)) delete toolCalls[it.toolCallId];
        const r = this.refs.get(it.toolCallId);
        if (r) r.push(turn.index);
        else this.refs.set(it.toolCallId, [turn.index]);
      }
      this.outlined.add(turn.index);
      return { ...turn, items: prompt, outline: outlineOf(turn, s.toolCalls) };
    });
    return toolCalls ? { ...s, turns, toolCalls } : s;
  }

  /**
   * Patches to send for a change. A patch that touches an outlined turn is replaced by the whole
   * turn as it is now (the store has already applied the change, so the patch is in it).
   */
  patches(sessionId: string, patches: readonly Patch[], source: TurnSource): readonly Patch[] {
    if (sessionId !== this.sessionId || this.outlined.size === 0) return patches;
    let out: Patch[] | undefined;
    // Turns loaded by this batch: their later patches in it are inside the fullTurn too.
    const loaded = new Set<number>();
    for (let i = 0; i < patches.length; i++) {
      const p = patches[i];
      const touched = this.touched(p, source, loaded);
      if (touched.length === 0) {
        out?.push(p);
        continue;
      }
      out ??= patches.slice(0, i);
      for (const t of touched) {
        if (this.outlined.has(t)) {
          this.load(t, source, out);
          loaded.add(t);
        }
      }
      // A patch on the turn itself is inside the fullTurn; prompts and forms still go.
      if (p.op === 'permissions' || p.op === 'elicitations') out.push(p);
    }
    return out ?? patches;
  }

  /** The view unfolded these turns: their content, as patches. */
  request(sessionId: string, turns: readonly number[], source: TurnSource): Patch[] {
    const out: Patch[] = [];
    if (sessionId !== this.sessionId) return out;
    for (const t of turns) this.load(t, source, out);
    return out;
  }

  private load(t: number, source: TurnSource, out: Patch[]): void {
    if (!this.outlined.delete(t)) return;
    const full = source.fullTurn(t);
    if (full) out.push({ op: 'fullTurn', turn: full.turn, calls: full.calls });
  }

  /** Outlined turns a patch changes (none for the turn in progress: the per-patch path stays cheap). */
  private touched(p: Patch, source: TurnSource, loaded: Set<number>): readonly number[] {
    const hit = (t: number | undefined): t is number => t !== undefined && (this.outlined.has(t) || loaded.has(t));
    switch (p.op) {
      case 'turn':
        return hit(p.turn.index) ? [p.turn.index] : NONE;
      case 'item':
      case 'append':
        return hit(p.turn) ? [p.turn] : NONE;
      case 'tool': {
        const refs = this.refs.get(p.call.toolCallId);
        if (!refs && !hit(p.call.turn)) return NONE;
        return [p.call.turn, ...(refs ?? [])].filter(hit);
      }
      case 'permissions':
      case 'elicitations': {
        const ts = new Set<number>();
        const list = p.op === 'permissions' ? p.permissions : p.elicitations;
        for (const r of list) {
          const t = r.toolCallId ? source.turnOfCall(r.toolCallId) : undefined;
          if (hit(t)) ts.add(t);
        }
        return [...ts];
      }
      default:
        return NONE;
    }
  }
}
