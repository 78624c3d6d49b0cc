// The host ↔ webview message protocol: string-tagged unions both ways. The host owns state;
// the webview gets a snapshot on `ready`, then patches. Every webview→host message is
// checked by parseIntent before the host acts on it.
import { MAX_LOAD_TURNS } from './turnOutline';
import type { Patch, SessionSnapshot } from './sessionModel';
import { MAX_ELICITATION_FIELDS, MAX_ELICITATION_STRING, type ElicitationContent } from './elicitation';

/** What the agent accepts in prompts beyond text and resource links (initialize's promptCapabilities). */
export interface PromptCaps {
  image?: boolean;
  audio?: boolean;
  embeddedContext?: boolean;
}

/** Something attached to a prompt in the composer; the host turns it into ACP content blocks. */
export type Attachment =
  /** A workspace file (@-mention), sent as a `resource_link`. */
  | { kind: 'file'; path: string }
  /** A range of an editor (1-based, inclusive lines), embedded as a `resource` when the agent supports it, else a link. */
  | { kind: 'selection'; path: string; startLine: number; endLine: number }
  /** A pasted image, base64 without the data: prefix. */
  | { kind: 'image'; mimeType: string; data: string };

/** A file offered by @-mention completion. */
export interface FileHit {
  path: string;
  label: string;
  description: string;
}

export type AgentState = 'none' | 'untrusted' | 'starting' | 'auth' | 'ready' | 'error' | 'exited';

export interface AgentView {
  /** The configured agent's display name ("Claude Code", "Demo", …). */
  name?: string;
  state: AgentState;
  /** Human text for error/exited/untrusted states, or what is happening while starting. */
  message?: string;
  /** From the agent's initialize answer. */
  info?: { name: string; title?: string; version?: string };
  /** From the agent's initialize answer: which prompt content it accepts. */
  promptCapabilities?: PromptCaps;
  /** state 'auth': the sign-in methods the agent offers. */
  authMethods?: { id: string; name: string; description?: string; terminal: boolean }[];
}

/** An open session, as the session switcher lists it. */
export interface SessionTab {
  sessionId: string;
  title?: string;
  status: string;
  turns: number;
}

export type HostMessage =
  | {
      type: 'snapshot';
      agent: AgentView;
      session: SessionSnapshot | null;
      workspaceRoots?: string[];
      sessions?: SessionTab[];
    }
  /** The open sessions changed (opened, closed, retitled, started or finished a turn). */
  | { type: 'sessions'; sessions: SessionTab[]; activeId?: string }
  /** Answer to `searchFiles`. */
  | { type: 'fileResults'; requestId: number; files: FileHit[] }
  /** The editor selection, after `attachSelection` (absent when there is none). */
  | { type: 'attachment'; attachment?: Extract<Attachment, { kind: 'selection' }>; preview?: string }
  | { type: 'patch'; sessionId: string; patches: Patch[] }
  | { type: 'agent'; agent: AgentView }
  | { type: 'error'; message: string };

export type Intent =
  | { type: 'ready' }
  | { type: 'prompt'; text: string; attachments?: Attachment[] }
  | { type: 'cancel' }
  | { type: 'newSession' }
  | { type: 'restartAgent' }
  | { type: 'selectAgent' }
  | { type: 'showLog' }
  | { type: 'openLocation'; path: string; line?: number }
  /** Open the diff content at `index` of a tool call in VS Code's diff editor. */
  | { type: 'openDiff'; toolCallId: string; index: number }
  | { type: 'searchFiles'; requestId: number; query: string }
  | { type: 'attachSelection' }
  | { type: 'setMode'; modeId: string }
  | { type: 'setConfigOption'; configId: string; value: string | boolean }
  | { type: 'copyText'; text: string }
  /** Open a URL the agent linked to (http/https/mailto only). */
  | { type: 'openExternal'; url: string }
  /** Answer to a pending permission prompt; the host accepts it only for a pending request and an option it offered. */
  | { type: 'permissionAnswer'; requestId: string; optionId: string }
  /**
   * Answer to a pending elicitation form: `content` only with accept, checked by the host against
   * the form's schema again. For a URL in progress, any action just dismisses its card.
   */
  | {
      type: 'elicitationAnswer';
      requestId: string;
      action: 'accept' | 'decline' | 'cancel';
      content?: ElicitationContent;
    }
  /** Show another open session. */
  | { type: 'switchSession'; sessionId: string }
  /** The user unfolded turns the snapshot sent as outlines: send their content. */
  | { type: 'loadTurns'; sessionId: string; turns: number[] }
  | { type: 'closeSession'; sessionId: string }
  /** Pick a past session to reopen (a QuickPick on the host). */
  | { type: 'openSession' }
  /** Sign in with one of the agent's auth methods (a QuickPick on the host). */
  | { type: 'signIn' };

/** Largest pasted image accepted (base64 characters). */
export const MAX_IMAGE_BASE64 = 8 * 1024 * 1024;
export const MAX_ATTACHMENTS = 50;
export { MAX_LOAD_TURNS };

/** Longest prompt accepted from the webview (a pasted file is fine; a runaway loop is not). */
export const MAX_PROMPT_CHARS = 1_000_000;

/**
 * Validates a message from the webview. Returns the intent, or a string saying what is wrong.
 * The webview is ours, but its content renders agent output: never trust what it posts.
 */
export function parseIntent(msg: unknown): Intent | string {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return 'message is not an object';
  const m = msg as Record<string, unknown>;
  const extra = (allowed: string[]) => Object.keys(m).find((k) => k !== 'type' && !allowed.includes(k));
  switch (m.type) {
    case 'ready':
    case 'cancel':
    case 'newSession':
    case 'restartAgent':
    case 'selectAgent':
    case 'showLog':
    case 'attachSelection':
    case 'openSession':
    case 'signIn': {
      const bad = extra([]);
      return bad ? `unexpected field "${bad}" in ${m.type}` : { type: m.type };
    }
    case 'prompt': {
      const bad = extra(['text', 'attachments']);
      if (bad) return `unexpected field "${bad}" in prompt`;
      if (typeof m.text !== 'string') return 'prompt.text must be a string';
      if (m.text.length > MAX_PROMPT_CHARS) return `prompt.text is longer than ${MAX_PROMPT_CHARS} characters`;
      if (m.attachments === undefined) {
        if (!m.text.trim()) return 'prompt.text is empty';
        return { type: 'prompt', text: m.text };
      }
      if (!Array.isArray(m.attachments)) return 'prompt.attachments must be an array';
      if (m.attachments.length > MAX_ATTACHMENTS) return `prompt has more than ${MAX_ATTACHMENTS} attachments`;
      const attachments: Attachment[] = [];
      for (const a of m.attachments) {
        const r = parseAttachment(a);
        if (typeof r === 'string') return `prompt.attachments: ${r}`;
        attachments.push(r);
      }
      if (!m.text.trim() && attachments.length === 0) return 'prompt.text is empty';
      return { type: 'prompt', text: m.text, attachments };
    }
    case 'openDiff': {
      const bad = extra(['toolCallId', 'index']);
      if (bad) return `unexpected field "${bad}" in openDiff`;
      if (typeof m.toolCallId !== 'string' || !m.toolCallId) return 'openDiff.toolCallId must be a non-empty string';
      if (!Number.isInteger(m.index) || (m.index as number) < 0) return 'openDiff.index must be a non-negative integer';
      return { type: 'openDiff', toolCallId: m.toolCallId, index: m.index as number };
    }
    case 'searchFiles': {
      const bad = extra(['requestId', 'query']);
      if (bad) return `unexpected field "${bad}" in searchFiles`;
      if (!Number.isInteger(m.requestId)) return 'searchFiles.requestId must be an integer';
      if (typeof m.query !== 'string' || m.query.length > 512)
        return 'searchFiles.query must be a string of at most 512 characters';
      return { type: 'searchFiles', requestId: m.requestId as number, query: m.query };
    }
    case 'setMode': {
      const bad = extra(['modeId']);
      if (bad) return `unexpected field "${bad}" in setMode`;
      if (typeof m.modeId !== 'string' || !m.modeId) return 'setMode.modeId must be a non-empty string';
      return { type: 'setMode', modeId: m.modeId };
    }
    case 'setConfigOption': {
      const bad = extra(['configId', 'value']);
      if (bad) return `unexpected field "${bad}" in setConfigOption`;
      if (typeof m.configId !== 'string' || !m.configId) return 'setConfigOption.configId must be a non-empty string';
      if (typeof m.value !== 'string' && typeof m.value !== 'boolean')
        return 'setConfigOption.value must be a string or a boolean';
      return { type: 'setConfigOption', configId: m.configId, value: m.value };
    }
    case 'copyText': {
      const bad = extra(['text']);
      if (bad) return `unexpected field "${bad}" in copyText`;
      if (typeof m.text !== 'string' || m.text.length > MAX_PROMPT_CHARS * 4)
        return 'copyText.text must be a string of reasonable size';
      return { type: 'copyText', text: m.text };
    }
    case 'openExternal': {
      const bad = extra(['url']);
      if (bad) return `unexpected field "${bad}" in openExternal`;
      if (typeof m.url !== 'string' || !/^(https?:\/\/|mailto:)/i.test(m.url) || m.url.length > 8192)
        return 'openExternal.url must be an http(s) or mailto URL';
      return { type: 'openExternal', url: m.url };
    }
    case 'permissionAnswer': {
      const bad = extra(['requestId', 'optionId']);
      if (bad) return `unexpected field "${bad}" in permissionAnswer`;
      if (typeof m.requestId !== 'string' || !m.requestId || m.requestId.length > 200)
        return 'permissionAnswer.requestId must be a non-empty string';
      if (typeof m.optionId !== 'string' || !m.optionId || m.optionId.length > 1000)
        return 'permissionAnswer.optionId must be a non-empty string';
      return { type: 'permissionAnswer', requestId: m.requestId, optionId: m.optionId };
    }
    case 'elicitationAnswer': {
      const bad = extra(['requestId', 'action', 'content']);
      if (bad) return `unexpected field "${bad}" in elicitationAnswer`;
      if (typeof m.requestId !== 'string' || !m.requestId || m.requestId.length > 200)
        return 'elicitationAnswer.requestId must be a non-empty string';
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
      const bad = extra(['sessionId']);
      if (bad) return `unexpected field "${bad}" in ${m.type}`;
      if (typeof m.sessionId !== 'string' || !m.sessionId || m.sessionId.length > 500)
        return `${m.type}.sessionId must be a non-empty string`;
      return { type: m.type, sessionId: m.sessionId };
    }
    case 'loadTurns': {
      const bad = extra(['sessionId', 'turns']);
      if (bad) return `unexpected field "${bad}" in loadTurns`;
      if (typeof m.sessionId !== 'string' || !m.sessionId || m.sessionId.length > 500)
        return 'loadTurns.sessionId must be a non-empty string';
      if (!Array.isArray(m.turns) || m.turns.length > MAX_LOAD_TURNS)
        return `loadTurns.turns must be an array of at most ${MAX_LOAD_TURNS} turn indexes`;
      if (!m.turns.every((t) => Number.isInteger(t) && t >= 0))
        return 'loadTurns.turns must hold non-negative integers';
      return { type: 'loadTurns', sessionId: m.sessionId, turns: m.turns as number[] };
    }
    case 'openLocation': {
      const bad = extra(['path', 'line']);
      if (bad) return `unexpected field "${bad}" in openLocation`;
      if (typeof m.path !== 'string' || !m.path) return 'openLocation.path must be a non-empty string';
      if (m.line !== undefined && (!Number.isInteger(m.line) || (m.line as number) < 1))
        return 'openLocation.line must be a positive integer';
      return m.line === undefined
        ? { type: 'openLocation', path: m.path }
        : { type: 'openLocation', path: m.path, line: m.line as number };
    }
    default:
      return `unknown message type ${JSON.stringify(m.type)}`;
  }
}

/** The shape of an elicitation answer (what the schema asks of it is the host's check, not this one's). */
function parseElicitationContent(c: unknown): ElicitationContent | string {
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return 'must be an object';
  const entries = Object.entries(c as Record<string, unknown>);
  if (entries.length > MAX_ELICITATION_FIELDS) return `has more than ${MAX_ELICITATION_FIELDS} fields`;
  const out: ElicitationContent = {};
  for (const [k, v] of entries) {
    if (!k || k.length > 200 || k === '__proto__') return `field name ${JSON.stringify(k.slice(0, 40))} is not allowed`;
    const ok =
      (typeof v === 'string' && v.length <= MAX_ELICITATION_STRING) ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      typeof v === 'boolean' ||
      (Array.isArray(v) && v.length <= 1000 && v.every((x) => typeof x === 'string' && x.length <= 10_000));
    if (!ok) return `"${k}" must be text, a number, true/false or a list of choices`;
    out[k] = v as ElicitationContent[string];
  }
  return out;
}

function parseAttachment(a: unknown): Attachment | string {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return 'attachment is not an object';
  const o = a as Record<string, unknown>;
  const only = (allowed: string[]) => Object.keys(o).find((k) => k !== 'kind' && !allowed.includes(k));
  const path = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 4096;
  switch (o.kind) {
    case 'file': {
      const bad = only(['path']);
      if (bad) return `unexpected field "${bad}" in file attachment`;
      if (!path(o.path)) return 'file.path must be a non-empty string';
      return { kind: 'file', path: o.path as string };
    }
    case 'selection': {
      const bad = only(['path', 'startLine', 'endLine']);
      if (bad) return `unexpected field "${bad}" in selection attachment`;
      if (!path(o.path)) return 'selection.path must be a non-empty string';
      const s = o.startLine,
        e = o.endLine;
      if (!Number.isInteger(s) || !Number.isInteger(e) || (s as number) < 1 || (e as number) < (s as number))
        return 'selection lines must be integers with 1 ≤ startLine ≤ endLine';
      return { kind: 'selection', path: o.path as string, startLine: s as number, endLine: e as number };
    }
    case 'image': {
      const bad = only(['mimeType', 'data']);
      if (bad) return `unexpected field "${bad}" in image attachment`;
      if (typeof o.mimeType !== 'string' || !/^image\/(png|jpeg|gif|webp)$/.test(o.mimeType))
        return 'image.mimeType must be image/png, jpeg, gif or webp';
      if (
        typeof o.data !== 'string' ||
        !o.data ||
        o.data.length > MAX_IMAGE_BASE64 ||
        !/^[A-Za-z0-9+/]+={0,2}$/.test(o.data)
      )
        return 'image.data must be base64 of at most 8 MiB';
      return { kind: 'image', mimeType: o.mimeType, data: o.data };
    }
    default:
      return `unknown attachment kind ${JSON.stringify(o.kind)}`;
  }
}
