// The host ↔ webview message protocol: string-tagged unions, named by direction. The host owns
// state: the webview gets a snapshot on `ready`, then patches. The webview tells the host what
// the user did (intents, no answer) and asks it things (requests, each answered by one reply
// with the request's seq: a result, or an error the view shows). Every message from the webview
// is checked by parseFromWebview (./parseFromWebview) before the host acts on it.
import type { Patch, SessionSnapshot } from './sessionModel';
import type { ElicitationContent } from './elicitation';

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
  /** From the agent's initialize answer: it offers session/fork (unstable), so a session can be forked. */
  canFork?: boolean;
  /** state 'auth': the sign-in methods the agent offers. */
  authMethods?: { id: string; name: string; description?: string; terminal: boolean }[];
  /** Who the agent says it works as (`_auth/status_update`), where it says so. */
  account?: AgentAccountView;
}

/**
 * The identity an agent reports it uses (claude-agent-acp's `_auth/status_update`): `kind` "none"
 * is a known signed-out state; "api_key", "account" (a subscription), "gateway" and "external"
 * (a cloud's own credentials) are signed in. `label` names it for people.
 */
export interface AgentAccountView {
  kind: string;
  label: string;
  detail?: string;
  email?: string;
  organization?: string;
  plan?: string;
}

/** An open session, as the session switcher lists it. */
export interface SessionTab {
  sessionId: string;
  /** The agent the session runs on (sessions of several agents run side by side). */
  agentName?: string;
  /** The session works in a git worktree of its own: its branch (`tandem/fix-login`). */
  place?: string;
  /** Forked from another session: that session's name then. */
  forkOf?: string;
  title?: string;
  status: string;
  turns: number;
}

/** The shown session's queued prompts (sent in this order when the running turn ends). */
export interface QueueView {
  sessionId: string;
  items: { id: string; text: string; attachments: number }[];
  /** After a cancel, a failure or a reload: waits for the user's "Send". */
  held: boolean;
  /** The agent can add a prompt to the running turn (else "Send now" cancels the turn first). */
  steer: boolean;
}

/** What the user does with a queued prompt (`to`: its new position; `resume`: the held queue goes on). */
export type QueueOp =
  | { op: 'edit'; id: string; text: string }
  | { op: 'remove' | 'sendNow'; id: string }
  | { op: 'move'; id: string; to: number }
  | { op: 'resume' };

/** Longest @-mention query a file search accepts. */
export const MAX_SEARCH_QUERY = 512;

/** What the webview can ask the host, with the params it sends and the result it gets back. */
export interface WebviewRequests {
  /** Workspace files matching what was typed after "@". */
  searchFiles: { params: { query: string }; result: FileHit[] };
  /** The active editor's selection (absent when there is none: the host says so in a notification). */
  attachSelection: {
    params: Record<string, never>;
    result: { attachment?: Extract<Attachment, { kind: 'selection' }>; preview?: string };
  };
  /**
   * The user unfolded turns the snapshot sent as outlines. Their content goes out as `fullTurn`
   * patches (the one patch stream keeps its order) before the reply, which lists the turns sent.
   */
  loadTurns: { params: { sessionId: string; turns: number[] }; result: { loaded: number[] } };
  /** The files the agent changed in a turn of the shown session (what the turn's changes list shows). */
  turnChanges: { params: { turn: number }; result: ChangedFile[] };
}

/** A file the agent changed in a turn: lines added / removed (absent for binary files), and its review state. */
export interface ChangedFile {
  path: string;
  /** Relative to the workspace. */
  label: string;
  kind: 'created' | 'deleted' | 'modified';
  added?: number;
  removed?: number;
  /** Too large for the line diff (src/shared/lineDiff.ts): added / removed are upper bounds. */
  tooLarge?: true;
  state: 'pending' | 'kept' | 'reverted';
  /** The user marked the file as reviewed since the agent last changed it. */
  reviewed?: true;
  /** The symbols the change touched, from the language's document symbols: "parseRules changed, matchScope added". */
  symbols?: string;
}

/** What the user can do with a turn's changes from the view (`path` absent: the whole turn). */
export type ChangeAction = 'diff' | 'keep' | 'undo' | 'review' | 'reviewed' | 'unreviewed';
export type RequestMethod = keyof WebviewRequests;
export type RequestParams<M extends RequestMethod> = WebviewRequests[M]['params'];
export type RequestResult<M extends RequestMethod> = WebviewRequests[M]['result'];

/** A request from the webview: `seq` is the webview's own counter, echoed by the reply. */
export type WebviewRequest = {
  [M in RequestMethod]: { type: 'request'; seq: number; method: M; params: RequestParams<M> };
}[RequestMethod];

/** The host's one answer to a request: its result, or why it failed (a message for the user). */
export type WebviewReply =
  { type: 'reply'; seq: number; result: unknown } | { type: 'reply'; seq: number; error: string };

/**
 * How Edit and resend goes back before the edited prompt (the composer's banner says it): in
 * place (`_session/rewind`), in a fork at the agent's message before it, in a new session (the
 * first prompt), or the agent can do none of these and the user is asked before anything is sent.
 */
export type EditWayView = 'rewind' | 'fork' | 'new' | 'ask';

/** Host → webview. */
export type ToWebview =
  | {
      type: 'snapshot';
      agent: AgentView;
      session: SessionSnapshot | null;
      workspaceRoots?: string[];
      sessions?: SessionTab[];
      queue?: QueueView;
    }
  /** The open sessions changed (opened, closed, retitled, started or finished a turn). */
  | { type: 'sessions'; sessions: SessionTab[]; activeId?: string }
  | { type: 'patch'; sessionId: string; patches: Patch[] }
  | { type: 'agent'; agent: AgentView }
  | { type: 'queue'; queue: QueueView }
  /** The agent's changes or their review state changed: a changes list asks for its turn again. */
  | { type: 'changes' }
  /** Edit and resend: a prompt for the composer to edit (the turn's, or the edited one back after a send that did not go out). */
  | {
      type: 'editing';
      sessionId: string;
      turn: number;
      text: string;
      attachments?: Attachment[];
      way: EditWayView;
      /** The agent's name, for the banner's "… cannot rewind" (way `ask`). */
      agent?: string;
    }
  | WebviewReply;

/** Webview → host: what the user did. The host acts on it and answers nothing. */
export type WebviewIntent =
  /** The page is listening: the host sends a snapshot, then patches (it drops patches before this). */
  | { type: 'ready' }
  | { type: 'prompt'; text: string; attachments?: Attachment[] }
  /** Edit, remove, reorder or send a queued prompt of the shown session. */
  | ({ type: 'queue' } & QueueOp)
  | { type: 'cancel' }
  | { type: 'newSession' }
  /** Fork the shown session: a new session tab that continues its conversation (where the agent can). */
  | { type: 'forkSession' }
  | { type: 'restartAgent' }
  | { type: 'selectAgent' }
  | { type: 'showLog' }
  | { type: 'openLocation'; path: string; line?: number }
  /**
   * Open the diff content at `index` of a tool call in VS Code's diff editor; with `requestId`, the
   * content of that pending permission request's tool call (what the prompt asks about).
   */
  | { type: 'openDiff'; toolCallId: string; index: number; requestId?: string }
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
  /** `agentName`: ACP session ids are unique per agent only; two agents may use the same one. */
  | { type: 'switchSession'; sessionId: string; agentName?: string }
  | { type: 'closeSession'; sessionId: string; agentName?: string }
  /** Pick a past session to reopen (a QuickPick on the host). */
  | { type: 'openSession' }
  /** Ask the Agent to Summarize: the shown session's agent says what it changed. */
  | { type: 'summarize' }
  /** Sign in with one of the agent's auth methods (a QuickPick on the host). */
  | { type: 'signIn' }
  /** "Restore to here" on the prompt of turn `turn` of the shown session (the host lists the files first). */
  | { type: 'restoreTo'; turn: number }
  /** "Edit and resend" on the prompt of turn `turn` of the shown session: the host answers with `editing`. */
  | { type: 'editPrompt'; turn: number }
  /** The edited prompt of turn `turn`: files back to before it, the conversation back before it, then sent. */
  | { type: 'resendPrompt'; sessionId: string; turn: number; text: string; attachments?: Attachment[] }
  /** Redo of the shown session's last Edit and resend: the files as before it, the rewound turns back in view. */
  | { type: 'redoEdit' }
  /** Stop a subagent's work from its row (the shown session's; where the agent lets the client). */
  | { type: 'stopSubagent'; toolCallId: string }
  /** Diff, keep, undo or review a file the agent changed in a turn of the shown session, or all of them. */
  | { type: 'changeAction'; turn: number; action: ChangeAction; path?: string };

/** Webview → host. */
export type FromWebview = WebviewIntent | WebviewRequest;
