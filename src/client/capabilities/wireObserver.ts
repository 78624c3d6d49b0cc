// What one agent connection actually did on the wire, seen from the traffic hook (every JSON-RPC
// message in and out, incoming ones before validation): the client methods the agent called,
// its notifications and session/update kinds, the `_meta` keys it sent anywhere, and for each
// tool call whether a session/request_permission for it came before it ran. Declared
// capabilities say what an agent may do; this says what it did, which is what decides where
// Tandem's checkpoints and command output come from (capabilityReport.ts). Counts only, each
// table capped: a flooding or hostile agent cannot grow it without bound.
import type { IDisposable } from '../../common/disposable';
import { PermissionOrder, type ToolCallCounts } from './permissionOrder';

export type { ToolCallCounts } from './permissionOrder';

/** One name (a method, an update kind, a content type) and how often it was seen. */
export interface Tally {
  name: string;
  count: number;
  /** Requests only: how many were answered with an error. */
  errors?: number;
}

export interface MetaKeySeen {
  /** `claudeCode.toolName`, `terminal_output`, `_claude/model`: a key of a `_meta` and, for an object value, its keys. */
  path: string;
  count: number;
  /** Where it was seen: `tool_call_update`, `initialize answer › agentCapabilities`, … (a few). */
  where: string[];
}

export interface WireSnapshot {
  fromAgent: number;
  toAgent: number;
  /** The initialize request Tandem sent (what it advertised) and the agent's answer, as on the wire. */
  initialize: { params?: Record<string, unknown>; result?: Record<string, unknown>; error?: string };
  /** Requests the agent sent (client methods: fs/*, terminal/*, session/request_permission, …). */
  agentRequests: Tally[];
  /** Notifications the agent sent (session/update, _auth/status_update, …). */
  notifications: Tally[];
  /** `sessionUpdate` kinds of its session/update notifications. */
  updates: Tally[];
  /** Requests Tandem sent, and how many the agent answered with an error. */
  tandemRequests: Tally[];
  meta: MetaKeySeen[];
  /** `_meta` keys not kept (past the cap). */
  metaDropped: number;
  toolCalls: ToolCallCounts;
  /** Content types in the agent's tool calls (`diff`, `terminal`, `content`): updates that carried each. */
  toolContent: Tally[];
  /** Top-level fields of the agent's answers to session/new, load, resume and fork (modes, configOptions, …). */
  sessionAnswers: Tally[];
}

/** Caps: distinct names per table, `_meta` paths, places per path, pending request ids, tool calls. */
export const WIRE_LIMITS = { names: 64, metaPaths: 200, places: 4, pending: 1024, calls: 4096, walk: 400 };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown, max = 80): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined);
const idKey = (id: unknown): string | undefined =>
  typeof id === 'number' || typeof id === 'string' ? `${typeof id}:${id}` : undefined;
const SESSION_ANSWERS = new Set(['session/new', 'session/load', 'session/resume', 'session/fork']);

export class WireObserver {
  private fromAgent = 0;
  private toAgent = 0;
  private readonly init: WireSnapshot['initialize'] = {};
  private readonly agentRequests = new Map<string, { count: number; errors: number }>();
  private readonly notifications = new Map<string, number>();
  private readonly updates = new Map<string, number>();
  private readonly tandemRequests = new Map<string, { count: number; errors: number }>();
  private readonly meta = new Map<string, { count: number; where: Set<string> }>();
  private metaDropped = 0;
  private readonly toolContent = new Map<string, number>();
  private readonly sessionAnswers = new Map<string, number>();
  /** Request ids waiting for their answer, per direction, to name the method an answer belongs to. */
  private readonly pendingFromAgent = new Map<string, string>();
  private readonly pendingFromTandem = new Map<string, string>();
  private readonly toolCalls = new PermissionOrder(WIRE_LIMITS.calls);
  private readonly watchers = new Set<() => void>();
  /** Objects the current `_meta` walk may still visit. */
  private budget = 0;

  /** For the traffic hook: `in` is agent → Tandem. Never throws. */
  observe(direction: 'in' | 'out', message: unknown): void {
    if (!isObj(message)) return;
    try {
      if (direction === 'in') this.fromAgentMessage(message);
      else this.fromTandemMessage(message);
    } catch {
      // Observing must never break the connection; an odd message is simply not counted.
    }
    if (this.watchers.size) for (const w of this.watchers) w();
  }

  /** Called after each observed message (a report open on this agent refreshes). */
  watch(onMessage: () => void): IDisposable {
    this.watchers.add(onMessage);
    return { dispose: () => this.watchers.delete(onMessage) };
  }

  private fromAgentMessage(m: Obj): void {
    this.fromAgent++;
    const method = str(m.method);
    if (method !== undefined && 'id' in m) {
      called(this.agentRequests, method);
      remember(this.pendingFromAgent, idKey(m.id), method);
      const p = isObj(m.params) ? m.params : {};
      if (method === 'session/request_permission' && isObj(p.toolCall))
        this.toolCalls.asked(p.sessionId, p.toolCall.toolCallId, p.toolCall.kind);
      this.scanMeta(m.params, method);
    } else if (method !== undefined) {
      count(this.notifications, method);
      if (method === 'session/update' && isObj(m.params)) this.sessionUpdate(m.params);
      else this.scanMeta(m.params, method);
    } else {
      const answered = take(this.pendingFromTandem, idKey(m.id));
      if (answered === undefined) return;
      if (m.error !== undefined) failed(this.tandemRequests, answered);
      if (answered === 'initialize') {
        if (isObj(m.result)) this.init.result = m.result;
        else this.init.error = str((m.error as Obj | undefined)?.message, 300) ?? 'an error';
      }
      if (SESSION_ANSWERS.has(answered) && isObj(m.result))
        for (const k of Object.keys(m.result).slice(0, 20)) count(this.sessionAnswers, k.slice(0, 80));
      this.scanMeta(m.result, `${answered} answer`);
    }
  }

  private fromTandemMessage(m: Obj): void {
    this.toAgent++;
    const method = str(m.method);
    if (method !== undefined && 'id' in m) {
      called(this.tandemRequests, method);
      remember(this.pendingFromTandem, idKey(m.id), method);
      if (method === 'initialize' && isObj(m.params)) this.init.params = m.params;
    } else if (method === undefined) {
      const asked = take(this.pendingFromAgent, idKey(m.id));
      if (asked !== undefined && m.error !== undefined) failed(this.agentRequests, asked);
    }
  }

  private sessionUpdate(params: Obj): void {
    const u = params.update;
    if (!isObj(u)) return;
    const kind = str(u.sessionUpdate) ?? '(none)';
    count(this.updates, kind);
    if (isObj(params._meta)) this.metaSeen(params._meta, 'session/update');
    this.scanMeta(u, kind);
    if (kind !== 'tool_call' && kind !== 'tool_call_update') return;
    if (Array.isArray(u.content)) {
      const types = new Set(u.content.slice(0, 50).map((c) => (isObj(c) ? (str(c.type) ?? '?') : '?')));
      for (const t of types) count(this.toolContent, t);
    }
    this.toolCalls.update(params.sessionId, u.toolCallId, u.kind, u.status);
  }

  /** Records the keys of every `_meta` under `root` (a bounded walk: at most WIRE_LIMITS.walk objects). */
  private scanMeta(root: unknown, label: string): void {
    if (!root || typeof root !== 'object') return;
    this.budget = WIRE_LIMITS.walk;
    this.walk(root, label, [], 0);
  }

  // On the hot path (every session/update): no allocation but the key stack until a `_meta` is found.
  private walk(v: object, label: string, path: string[], depth: number): void {
    if (this.budget-- <= 0 || depth > 8) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < Math.min(v.length, 50); i++) {
        const item: unknown = v[i];
        if (!item || typeof item !== 'object') continue;
        path.push('[]');
        this.walk(item, label, path, depth + 1);
        path.pop();
      }
      return;
    }
    for (const k in v) {
      const child = (v as Obj)[k];
      if (!child || typeof child !== 'object') continue;
      if (k === '_meta' && !Array.isArray(child))
        this.metaSeen(child as Obj, path.length ? `${label} › ${path.join('.').replace(/\.\[\]/g, '[]')}` : label);
      else {
        path.push(k);
        this.walk(child, label, path, depth + 1);
        path.pop();
      }
    }
  }

  private metaSeen(meta: Obj, where: string): void {
    for (const [k, v] of Object.entries(meta).slice(0, 40)) {
      const key = k.slice(0, 80);
      const subs = isObj(v) ? Object.keys(v).slice(0, 20) : [];
      if (!subs.length) this.metaPath(key, where);
      for (const s of subs) this.metaPath(`${key}.${s.slice(0, 80)}`, where);
    }
  }

  private metaPath(path: string, where: string): void {
    let m = this.meta.get(path);
    if (!m) {
      if (this.meta.size >= WIRE_LIMITS.metaPaths) {
        this.metaDropped++;
        return;
      }
      this.meta.set(path, (m = { count: 0, where: new Set() }));
    }
    m.count++;
    if (m.where.size < WIRE_LIMITS.places) m.where.add(where.slice(0, 120));
  }

  snapshot(): WireSnapshot {
    return {
      fromAgent: this.fromAgent,
      toAgent: this.toAgent,
      initialize: { ...this.init },
      agentRequests: requestTallies(this.agentRequests),
      notifications: tallies(this.notifications),
      updates: tallies(this.updates),
      tandemRequests: requestTallies(this.tandemRequests),
      meta: [...this.meta].map(([path, m]) => ({ path, count: m.count, where: [...m.where] })),
      metaDropped: this.metaDropped,
      toolCalls: this.toolCalls.snapshot(),
      toolContent: tallies(this.toolContent),
      sessionAnswers: tallies(this.sessionAnswers),
    };
  }
}

function count(map: Map<string, number>, name: string): void {
  const n = map.get(name);
  if (n !== undefined) map.set(name, n + 1);
  else if (map.size < WIRE_LIMITS.names) map.set(name, 1);
}

type Requests = Map<string, { count: number; errors: number }>;

function request(map: Requests, name: string): { count: number; errors: number } | undefined {
  let r = map.get(name);
  if (!r && map.size < WIRE_LIMITS.names) map.set(name, (r = { count: 0, errors: 0 }));
  return r;
}
function called(map: Requests, name: string): void {
  const r = request(map, name);
  if (r) r.count++;
}
/** The answer to a request of `name` was an error. */
function failed(map: Requests, name: string): void {
  const r = request(map, name);
  if (r) r.errors++;
}

function remember(pending: Map<string, string>, key: string | undefined, method: string): void {
  if (key === undefined) return;
  pending.set(key, method);
  if (pending.size > WIRE_LIMITS.pending) pending.delete(pending.keys().next().value!);
}

function take(pending: Map<string, string>, key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  const method = pending.get(key);
  pending.delete(key);
  return method;
}

const byCount = (a: Tally, b: Tally) => b.count - a.count || a.name.localeCompare(b.name);
const tallies = (map: Map<string, number>): Tally[] => [...map].map(([name, count]) => ({ name, count })).sort(byCount);
const requestTallies = (map: Map<string, { count: number; errors: number }>): Tally[] =>
  [...map].map(([name, r]) => ({ name, ...r })).sort(byCount);
