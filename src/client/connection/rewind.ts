// Going back in a conversation for Edit and resend (docs/ACP-NOTES.md, "Rewinding a
// conversation"). Two ways an agent may offer, neither in ACP v1:
// - `_session/rewind` (the JetBrains AIR session rewind extension): advertised in initialize as
//   `_meta.jetbrains.air.capabilities` containing "sessionRewind"; the request names the first
//   user message to drop (`beforeMessage`) and the last agent message to keep (`resumeAtMessage`,
//   absent when the first prompt is rewound), each by ACP message id (when known), the SHA-256 of
//   its text and the occurrence of that text for its role; the answer is `{rewound: true}`.
// - a fork at a message: `session/fork` with `_meta.jetbrains.air.fork {version: 1, messageId}`
//   (claude-agent-acp 0.101.0 reads it: the new session keeps the transcript up to that agent
//   message). It is not advertised on its own: Tandem uses it where session/fork is, and the agent
//   names its messages (session/rewind.ts, editWay).
import { createHash } from 'node:crypto';
import type { AgentCapabilities, InitializeResponse } from '@agentclientprotocol/sdk';
import { RequestType } from 'vscode-jsonrpc';
import type { AcpConnection } from '../../acp/connection';
import type { SessionState } from '../../session/reducer';
import type { RewindCaps } from '../../session/rewind';
import type { ItemView } from '../../shared/sessionModel';
import { forkSupported } from './fork';

/** Where a fork for Edit and resend starts: before turn `turn`, keeping the conversation up to the agent's message `messageId` (none: a new session). */
export interface ForkPoint {
  turn: number;
  messageId?: string;
}

/** The session/fork `_meta` that names the fork point (nothing for a fork of the whole session). */
export function forkPointMeta(at: ForkPoint | undefined): { _meta?: Record<string, unknown> } {
  return at?.messageId ? { _meta: { jetbrains: { air: { fork: { version: 1, messageId: at.messageId } } } } } : {};
}

/** A message as `_session/rewind` names it. */
export interface HistoryPoint {
  messageId?: string;
  messageFingerprint: string;
  messageOccurrence: number;
}

export interface RewindParams {
  sessionId: string;
  beforeMessage: HistoryPoint;
  resumeAtMessage?: HistoryPoint;
}

export const REWIND_METHOD = new RequestType<RewindParams, unknown, void>('_session/rewind');

/** What the agent said in `initialize` it can do to go back: `_session/rewind`, session/fork. */
export function rewindCaps(init: InitializeResponse | undefined, caps?: AgentCapabilities): RewindCaps {
  const air = (init?._meta as { jetbrains?: { air?: { capabilities?: unknown } } } | null | undefined)?.jetbrains?.air;
  const list = Array.isArray(air?.capabilities) ? (air.capabilities as unknown[]) : [];
  return { rewind: list.includes('sessionRewind'), fork: forkSupported(caps ?? init?.agentCapabilities) };
}

/**
 * The `_session/rewind` request that drops turn `turn` (its prompt) and every later turn still in
 * the agent's context; undefined when the turn has no prompt to name.
 */
export function rewindParams(state: SessionState, turn: number): RewindParams | undefined {
  const visible: ItemView[][] = [];
  state.turns.forEach((t, i) => {
    if (i <= turn && !t.header.rewound) visible.push(t.items.toArray());
  });
  const target = state.turns.get(turn);
  const prompt = target?.items.get(0);
  if (!target || target.header.rewound || prompt?.kind !== 'user') return undefined;
  const before = visible.length - 1;
  const beforeMessage = point(visible, before, 0);
  let resumeAtMessage: HistoryPoint | undefined;
  for (let t = before - 1; t >= 0 && !resumeAtMessage; t--)
    for (let i = visible[t].length - 1; i >= 0 && !resumeAtMessage; i--)
      if (visible[t][i].kind === 'agent') resumeAtMessage = point(visible, t, i);
  return { sessionId: state.meta.sessionId, beforeMessage, ...(resumeAtMessage ? { resumeAtMessage } : {}) };
}

/** Message `i` of turn `t`: its id, its text's SHA-256, and how often that text came from its role up to it (1-based). */
function point(turns: ItemView[][], t: number, i: number): HistoryPoint {
  const item = turns[t][i];
  const fingerprint = fingerprintOf(item);
  let occurrence = 0;
  turns.forEach((items, ti) =>
    items.forEach((it, ii) => {
      const upTo = ti < t || (ti === t && ii <= i);
      if (upTo && it.kind === item.kind && fingerprintOf(it) === fingerprint) occurrence++;
    }),
  );
  const id = 'messageId' in item && item.messageId ? { messageId: item.messageId } : {};
  return { ...id, messageFingerprint: fingerprint, messageOccurrence: occurrence };
}

function fingerprintOf(item: ItemView): string {
  const text = 'blocks' in item ? item.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('') : '';
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The agent's answer: only `{rewound: true}` means the conversation went back. */
export function parseRewindResult(result: unknown): void {
  if ((result as { rewound?: unknown } | null)?.rewound !== true)
    throw new Error(`the agent answered _session/rewind with ${JSON.stringify(result)?.slice(0, 200)}`);
}

/** Sends `_session/rewind` and checks the answer. */
export async function sendRewind(conn: AcpConnection, params: RewindParams): Promise<void> {
  parseRewindResult(await conn.sendRequest(REWIND_METHOD, params));
}
