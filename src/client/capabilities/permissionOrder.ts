// Whether an agent asked before it ran: per tool call, did a session/request_permission for its
// toolCallId come before the call reached in_progress or completed. An agent that decides by
// its own mode or remembered rules (claude-code-acp after "Always Allow", claude-agent-acp in an
// accepting mode) runs calls Tandem's permission rules never see; this counts them. Calls are
// kept by session and id, the oldest forgotten past the cap.

export interface ToolCallCounts {
  /** Distinct tool calls seen. */
  seen: number;
  /** Calls that reached in_progress or completed. */
  ran: number;
  /** Of those: a permission request for the call came before it ran. */
  askedFirst: number;
  ranWithoutAsking: number;
  /** Permission asked for a call that had already run. */
  askedAfterRunning: number;
  /** Permission asked, and the call never ran (rejected, cancelled, or still waiting). */
  askedNotRun: number;
  byKind: { kind: string; ran: number; askedFirst: number }[];
}

type CallRecord = { kind?: string; asked: boolean; ran: boolean };

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined);

export class PermissionOrder {
  private readonly calls = new Map<string, CallRecord>();
  private readonly counts = { seen: 0, ran: 0, askedFirst: 0, ranWithoutAsking: 0, askedAfterRunning: 0 };
  private readonly byKind = new Map<string, { ran: number; askedFirst: number }>();

  constructor(private readonly maxCalls: number) {}

  /** A tool_call or tool_call_update. */
  update(sessionId: unknown, toolCallId: unknown, kind: unknown, status: unknown): void {
    const call = this.call(sessionId, toolCallId, kind);
    if (!call || call.ran || (status !== 'in_progress' && status !== 'completed')) return;
    call.ran = true;
    this.counts.ran++;
    const k = this.kind(call.kind ?? 'unknown');
    if (k) k.ran++;
    if (call.asked) {
      this.counts.askedFirst++;
      if (k) k.askedFirst++;
    } else this.counts.ranWithoutAsking++;
  }

  /** A session/request_permission for this call (which may not have been reported yet: Gemini CLI). */
  asked(sessionId: unknown, toolCallId: unknown, kind: unknown): void {
    const call = this.call(sessionId, toolCallId, kind);
    if (!call) return;
    if (call.ran && !call.asked) this.counts.askedAfterRunning++;
    call.asked = true;
  }

  snapshot(): ToolCallCounts {
    let askedNotRun = 0;
    for (const c of this.calls.values()) if (c.asked && !c.ran) askedNotRun++;
    return {
      ...this.counts,
      askedNotRun,
      byKind: [...this.byKind].map(([kind, k]) => ({ kind, ...k })).sort((a, b) => b.ran - a.ran),
    };
  }

  /** The record of a tool call (made on first sight; the oldest is forgotten past the cap). */
  private call(sessionId: unknown, toolCallId: unknown, kind: unknown): CallRecord | undefined {
    const id = str(toolCallId, 200);
    if (id === undefined) return undefined;
    const key = `${str(sessionId, 200) ?? ''}\u0000${id}`;
    let rec = this.calls.get(key);
    if (!rec) {
      rec = { asked: false, ran: false };
      this.counts.seen++;
      this.calls.set(key, rec);
      if (this.calls.size > this.maxCalls) this.calls.delete(this.calls.keys().next().value!);
    }
    const k = str(kind, 40);
    if (k) rec.kind = k;
    return rec;
  }

  /** Per-kind counts; ACP has ten kinds, so a few more (an agent's own) are kept and the rest not. */
  private kind(kind: string): { ran: number; askedFirst: number } | undefined {
    let k = this.byKind.get(kind);
    if (!k && this.byKind.size < 16) this.byKind.set(kind, (k = { ran: 0, askedFirst: 0 }));
    return k;
  }
}
