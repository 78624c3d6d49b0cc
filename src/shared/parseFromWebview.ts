// Validation of every webview → host message. The webview is ours, but its content renders
// agent output: never trust what it posts. Unknown types and fields, wrong types and oversized
// values are refused with a reason; the host logs it and acts on nothing.
import { MAX_LOAD_TURNS } from './turnOutline';
import { parseAttachment, parseElicitationContent, unexpectedField } from './parseContent';
import {
  MAX_SEARCH_QUERY,
  type Attachment,
  type ChangeAction,
  type FromWebview,
  type WebviewRequest,
} from './protocol';

export const MAX_ATTACHMENTS = 50;
/** Longest prompt accepted from the webview (a pasted file is fine; a runaway loop is not). */
export const MAX_PROMPT_CHARS = 1_000_000;

type Fields = Record<string, unknown>;

const isId = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;
const isTurn = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const CHANGE_ACTIONS: readonly ChangeAction[] = ['diff', 'keep', 'undo', 'review', 'reviewed', 'unreviewed'];

/** Checks a message from the webview. Returns the message, or a string saying what is wrong. */
export function parseFromWebview(msg: unknown): FromWebview | string {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'message is not an object';
  const m = msg as Fields;
  const extra = (allowed: string[]) => unexpectedField(m, 'type', allowed, String(m.type));
  switch (m.type) {
    case 'ready':
    case 'cancel':
    case 'newSession':
    case 'forkSession':
    case 'restartAgent':
    case 'selectAgent':
    case 'showLog':
    case 'openSession':
    case 'summarize':
    case 'signIn':
    case 'redoEdit':
      return extra([]) ?? { type: m.type };
    case 'request':
      return parseRequest(m);
    case 'prompt': {
      const bad = extra(['text', 'attachments']);
      const p = bad ?? parsePrompt(m, 'prompt');
      return typeof p === 'string' ? p : { type: 'prompt', ...p };
    }
    case 'resendPrompt': {
      const bad = extra(['sessionId', 'turn', 'text', 'attachments']);
      if (bad) return bad;
      if (!isId(m.sessionId, 1000)) return 'resendPrompt.sessionId must be a non-empty string';
      if (!isTurn(m.turn)) return 'resendPrompt.turn must be a turn index';
      const p = parsePrompt(m, 'resendPrompt');
      return typeof p === 'string' ? p : { type: 'resendPrompt', sessionId: m.sessionId, turn: m.turn, ...p };
    }
    case 'queue':
      return parseQueueOp(m);
    case 'openDiff': {
      const bad = extra(['toolCallId', 'index', 'requestId']);
      if (bad) return bad;
      if (typeof m.toolCallId !== 'string' || !m.toolCallId) return 'openDiff.toolCallId must be a non-empty string';
      if (!Number.isInteger(m.index) || (m.index as number) < 0) return 'openDiff.index must be a non-negative integer';
      if (m.requestId !== undefined && (typeof m.requestId !== 'string' || !m.requestId))
        return 'openDiff.requestId must be a non-empty string';
      const requestId = m.requestId ? { requestId: m.requestId } : {};
      return { type: 'openDiff', toolCallId: m.toolCallId, index: m.index as number, ...requestId };
    }
    case 'stopSubagent': {
      const bad = extra(['toolCallId']);
      if (bad) return bad;
      if (!isId(m.toolCallId, 1024)) return 'stopSubagent.toolCallId must be a non-empty string';
      return { type: 'stopSubagent', toolCallId: m.toolCallId };
    }
    case 'setMode': {
      const bad = extra(['modeId']);
      if (bad) return bad;
      if (typeof m.modeId !== 'string' || !m.modeId) return 'setMode.modeId must be a non-empty string';
      return { type: 'setMode', modeId: m.modeId };
    }
    case 'setConfigOption': {
      const bad = extra(['configId', 'value']);
      if (bad) return bad;
      if (typeof m.configId !== 'string' || !m.configId) return 'setConfigOption.configId must be a non-empty string';
      if (typeof m.value !== 'string' && typeof m.value !== 'boolean')
        return 'setConfigOption.value must be a string or a boolean';
      return { type: 'setConfigOption', configId: m.configId, value: m.value };
    }
    case 'copyText': {
      const bad = extra(['text']);
      if (bad) return bad;
      if (typeof m.text !== 'string' || m.text.length > MAX_PROMPT_CHARS * 4)
        return 'copyText.text must be a string of reasonable size';
      return { type: 'copyText', text: m.text };
    }
    case 'openExternal': {
      const bad = extra(['url']);
      if (bad) return bad;
      if (typeof m.url !== 'string' || !/^(https?:\/\/|mailto:)/i.test(m.url) || m.url.length > 8192)
        return 'openExternal.url must be an http(s) or mailto URL';
      return { type: 'openExternal', url: m.url };
    }
    case 'permissionAnswer': {
      const bad = extra(['requestId', 'optionId']);
      if (bad) return bad;
      if (!isId(m.requestId, 200)) return 'permissionAnswer.requestId must be a non-empty string';
      if (!isId(m.optionId, 1000)) return 'permissionAnswer.optionId must be a non-empty string';
      return { type: 'permissionAnswer', requestId: m.requestId, optionId: m.optionId };
    }
    case 'elicitationAnswer': {
      const bad = extra(['requestId', 'action', 'content']);
      if (bad) return bad;
      if (!isId(m.requestId, 200)) return 'elicitationAnswer.requestId must be a non-empty string';
      if (m.action !== 'accept' && m.action !== 'decline' && m.action !== 'cancel')
        return 'elicitationAnswer.action must be accept, decline or cancel';
      if (m.content === undefined) return { type: 'elicitationAnswer', requestId: m.requestId, action: m.action };
      if (m.action !== 'accept') return `elicitationAnswer.content goes only with accept, not ${m.action}`;
      const content = parseElicitationContent(m.content);
      if (typeof content === 'string') return `elicitationAnswer.content: ${content}`;
      return { type: 'elicitationAnswer', requestId: m.requestId, action: 'accept', content };
    }
    case 'switchSession':
    case 'closeSession': {
      const bad = extra(['sessionId', 'agentName']);
      if (bad) return bad;
      if (!isId(m.sessionId, 500)) return `${m.type}.sessionId must be a non-empty string`;
      if (m.agentName === undefined) return { type: m.type, sessionId: m.sessionId };
      if (!isId(m.agentName, 500)) return `${m.type}.agentName must be a non-empty string`;
      return { type: m.type, sessionId: m.sessionId, agentName: m.agentName };
    }
    case 'openLocation': {
      const bad = extra(['path', 'line']);
      if (bad) return bad;
      if (typeof m.path !== 'string' || !m.path) return 'openLocation.path must be a non-empty string';
      if (m.line !== undefined && (!Number.isInteger(m.line) || (m.line as number) < 1))
        return 'openLocation.line must be a positive integer';
      return m.line === undefined
        ? { type: 'openLocation', path: m.path }
        : { type: 'openLocation', path: m.path, line: m.line as number };
    }
    case 'restoreTo':
    case 'editPrompt': {
      const bad = extra(['turn']);
      if (bad) return bad;
      return isTurn(m.turn) ? { type: m.type, turn: m.turn } : `${m.type}.turn must be a turn index`;
    }
    case 'changeAction': {
      const bad = extra(['turn', 'action', 'path']);
      if (bad) return bad;
      if (!isTurn(m.turn)) return 'changeAction.turn must be a turn index';
      if (!CHANGE_ACTIONS.includes(m.action as ChangeAction))
        return `changeAction.action must be one of ${CHANGE_ACTIONS.join(', ')}`;
      if (m.path !== undefined && !isId(m.path, 4096)) return 'changeAction.path must be a non-empty string';
      const action = m.action as ChangeAction;
      return m.path === undefined
        ? { type: 'changeAction', turn: m.turn, action }
        : { type: 'changeAction', turn: m.turn, action, path: m.path as string };
    }
    default:
      return `unknown message type ${JSON.stringify(m.type)}`;
  }
}

/** A prompt's text and attachments (of `prompt` and `resendPrompt`): not empty, bounded. */
function parsePrompt(m: Fields, name: string): { text: string; attachments?: Attachment[] } | string {
  if (typeof m.text !== 'string') return `${name}.text must be a string`;
  if (m.text.length > MAX_PROMPT_CHARS) return `${name}.text is longer than ${MAX_PROMPT_CHARS} characters`;
  if (m.attachments === undefined) return m.text.trim() ? { text: m.text } : `${name}.text is empty`;
  if (!Array.isArray(m.attachments)) return `${name}.attachments must be an array`;
  if (m.attachments.length > MAX_ATTACHMENTS) return `${name} has more than ${MAX_ATTACHMENTS} attachments`;
  const attachments: Attachment[] = [];
  for (const a of m.attachments) {
    const r = parseAttachment(a);
    if (typeof r === 'string') return `${name}.attachments: ${r}`;
    attachments.push(r);
  }
  if (!m.text.trim() && attachments.length === 0) return `${name}.text is empty`;
  return { text: m.text, attachments };
}

/** Longest queue a view can address by position. */
const MAX_QUEUE_POSITION = 10_000;

function parseQueueOp(m: Fields): FromWebview | string {
  const extra = (allowed: string[]) => unexpectedField(m, 'type', ['op', ...allowed], 'queue');
  if (m.op === 'resume') return extra([]) ?? { type: 'queue', op: 'resume' };
  if (!isId(m.id, 200)) return 'queue.id must be a non-empty string';
  switch (m.op) {
    case 'remove':
    case 'sendNow':
      return extra(['id']) ?? { type: 'queue', op: m.op, id: m.id };
    case 'move':
      if (!Number.isInteger(m.to) || (m.to as number) < 0 || (m.to as number) > MAX_QUEUE_POSITION)
        return 'queue.to must be a non-negative integer';
      return extra(['id', 'to']) ?? { type: 'queue', op: 'move', id: m.id, to: m.to as number };
    case 'edit':
      if (typeof m.text !== 'string' || !m.text.trim() || m.text.length > MAX_PROMPT_CHARS)
        return `queue.text must be non-empty text of at most ${MAX_PROMPT_CHARS} characters`;
      return extra(['id', 'text']) ?? { type: 'queue', op: 'edit', id: m.id, text: m.text };
    default:
      return `unknown queue op ${JSON.stringify(m.op)}`;
  }
}

const isSeq = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * The seq of something that claims to be a request, even when the rest of it is wrong: the host
 * answers a refused request with an error reply, so the view does not wait for its timeout.
 */
export function requestSeq(msg: unknown): number | undefined {
  const m = msg as Fields | null;
  return typeof m === 'object' && m !== null && m.type === 'request' && isSeq(m.seq) ? m.seq : undefined;
}

function parseRequest(m: Fields): WebviewRequest | string {
  const bad = unexpectedField(m, 'type', ['seq', 'method', 'params'], 'request');
  if (bad) return bad;
  if (!isSeq(m.seq)) return 'request.seq must be a non-negative integer';
  const p = m.params;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return `${String(m.method)}.params must be an object`;
  const params = p as Fields;
  const extra = (allowed: string[]) => unexpectedField(params, '', allowed, `${String(m.method)}.params`);
  switch (m.method) {
    case 'searchFiles': {
      const e = extra(['query']);
      if (e) return e;
      if (typeof params.query !== 'string' || params.query.length > MAX_SEARCH_QUERY)
        return `searchFiles.query must be a string of at most ${MAX_SEARCH_QUERY} characters`;
      return { type: 'request', seq: m.seq, method: 'searchFiles', params: { query: params.query } };
    }
    case 'attachSelection':
      return extra([]) ?? { type: 'request', seq: m.seq, method: 'attachSelection', params: {} };
    case 'loadTurns': {
      const e = extra(['sessionId', 'turns']);
      if (e) return e;
      const { sessionId, turns } = params;
      if (!isId(sessionId, 500)) return 'loadTurns.sessionId must be a non-empty string';
      if (!Array.isArray(turns) || turns.length > MAX_LOAD_TURNS)
        return `loadTurns.turns must be an array of at most ${MAX_LOAD_TURNS} turn indexes`;
      if (!turns.every((t) => Number.isInteger(t) && t >= 0)) return 'loadTurns.turns must hold non-negative integers';
      return { type: 'request', seq: m.seq, method: 'loadTurns', params: { sessionId, turns: turns as number[] } };
    }
    case 'turnChanges': {
      const e = extra(['turn']);
      if (e) return e;
      if (!isTurn(params.turn)) return 'turnChanges.turn must be a turn index';
      return { type: 'request', seq: m.seq, method: 'turnChanges', params: { turn: params.turn } };
    }
    default:
      return `unknown request method ${JSON.stringify(m.method)}`;
  }
}
