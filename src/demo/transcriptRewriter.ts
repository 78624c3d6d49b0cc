// What a replayed transcript must change to fit the live client: the recorded sessionId becomes
// the one the client uses, string ids the client answered differently (terminalId, …) take its
// values, and the recorded cwd of session/new (e.g. /home/user/project) is rebased onto the
// client's cwd in every string.
import type { RpcMessage } from './transcript';

export class TranscriptRewriter {
  /** Exact-string substitutions (recorded → actual): sessionIds, terminalIds, … */
  private readonly values = new Map<string, string>();
  private recordedCwd: string | undefined;
  private actualCwd: string | undefined;

  /** A client request and the recorded one it matched: the session id and the cwd to rebase. */
  learnRequest(recorded: RpcMessage, actual: { method: string; params: Record<string, unknown> }): void {
    const rp = recorded.params ?? {};
    if (typeof rp.sessionId === 'string' && typeof actual.params.sessionId === 'string')
      this.values.set(rp.sessionId, actual.params.sessionId);
    if (actual.method === 'session/new' || actual.method === 'session/load') {
      if (typeof rp.cwd === 'string') this.recordedCwd = rp.cwd.replace(/\/+$/, '');
      if (typeof actual.params.cwd === 'string') this.actualCwd = actual.params.cwd.replace(/\/+$/, '');
    }
  }

  /** Remember string ids whose actual value differs from the recording (terminalId, …). */
  learnAnswer(recorded: unknown, actual: unknown): void {
    if (!recorded || !actual || typeof recorded !== 'object' || typeof actual !== 'object') return;
    for (const [k, v] of Object.entries(recorded as Record<string, unknown>)) {
      const a = (actual as Record<string, unknown>)[k];
      if (typeof v === 'string' && typeof a === 'string' && /id$/i.test(k) && v !== a) this.values.set(v, a);
      else if (v && typeof v === 'object') this.learnAnswer(v, a);
    }
  }

  /** `m` with every learned value replaced and the recorded cwd rebased. */
  rewrite(m: RpcMessage): RpcMessage {
    return this.rewriteValue(m) as RpcMessage;
  }

  private rewriteValue(v: unknown): unknown {
    if (typeof v === 'string') {
      const exact = this.values.get(v);
      if (exact !== undefined) return exact;
      if (this.recordedCwd && this.actualCwd && this.recordedCwd !== this.actualCwd && v.includes(this.recordedCwd)) {
        return v.split(this.recordedCwd).join(this.actualCwd);
      }
      return v;
    }
    if (Array.isArray(v)) return v.map((x) => this.rewriteValue(x));
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = k === 'jsonrpc' ? x : this.rewriteValue(x);
      return out;
    }
    return v;
  }
}
