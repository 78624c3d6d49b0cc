/**
 * Script format of the scripted ACP agent (src/demo/scriptedAgent.ts, CLI
 * test/fixtures/agents/scripted-agent.ts). A script is data: JSON, JSONL or a TS object.
 * The built-in demo agent is one such script (demoScript.ts).
 *
 * ```jsonc
 * {
 *   "name": "fake",                                  // used in stderr lines
 *   "vars": {"greeting": "hi"},                      // initial variables (`${greeting}`)
 *   "files": {"demo": "tandem-demo.md"},             // named files in the session cwd: `files.demo.*`
 *   "startup": [ {"stderr": "booting"} ],            // steps run at process start, before any input
 *   "initialize": {                                  // answer to `initialize`
 *     "agentCapabilities": {"loadSession": true},    // default {}
 *     "authMethods": [],                             // default []
 *     "agentInfo": {"name": "fake", "version": "1"}, // optional
 *     "protocolVersion": 1,                          // default 1
 *     "steps": [ {"exit": 3} ],                      // run BEFORE answering (fault during initialize)
 *     "after": [ ... ],                              // run after answering
 *     "error": {"code": -32603, "message": "no"}     // answer with an error instead
 *   },
 *   "newSession": {                                  // answer to `session/new` (also used for session/load)
 *     "sessionId": "sess-${n}",                      // default "sess-<n>", n = 1, 2, …
 *     "modes": { "currentModeId": "ask", "availableModes": [ ... ] },
 *     "configOptions": [ ... ], "models": { ... },   // copied into the result when present
 *     "steps": [ ... ], "after": [ {"update": {"sessionUpdate": "available_commands_update", ...}} ],
 *     "error": {"code": -32000, "message": "Authentication required"}
 *   },
 *   "prompts": [                                     // one entry per `session/prompt`
 *     { "match": "bash",                             // optional: chosen when the prompt text contains it
 *       "steps": [ ... ], "stopReason": "end_turn",  // default end_turn
 *       "onCancel": [ ... ] }                        // run on session/cancel before answering `cancelled`
 *   ],
 *   "defaultPrompt": { "steps": [ ... ] },           // when no entry is left; default: answer end_turn at once
 *   "handlers": { "session/set_mode": {"result": {}, "steps": [ ... ]} }  // any other request; overrides built-ins
 * }
 * ```
 *
 * Prompt selection: the first entry whose `match` (case-insensitive substring) or `regex`
 * matches the prompt text, each entry used once; otherwise the next unused entry without
 * `match`/`regex`, in order; otherwise `defaultPrompt` (reusable).
 *
 * Steps (one key picks the kind):
 * - `{"update": {<SessionUpdate>}, "sessionId"?}`   session/update notification for the current session
 * - `{"notify": "method", "params": {...}}`          any notification, verbatim
 * - `{"request": "method", "params": {...}, "as": "name", "wait": true, "timeoutMs"?}`
 *      agent→client request. Waits for the answer unless `wait: false`; stores the result (or
 *      `{"error": {...}}`) under `name`. `{"await": "name"}` waits for a `wait: false` request.
 * - `{"branch": "name.path", "cases": {"allow": [...], "reject": [...]}, "else": [...]}`
 *      runs the steps of the case equal to String(value at path).
 * - `{"if": "path" | "!path" | ["a", "!b"], "then": [...], "else": [...]}`
 *      `path` holds when the value there is truthy (an ACP capability `{}` counts), `!path`
 *      when it is missing or falsy; a list holds when all of its conditions hold.
 * - `{"set": {"name": value}}`                        sets variables (values substituted); a
 *      prompt's variables are the session's, so they last across its turns
 * - `{"terminal": {"command", "args"?, "env"?, "cwd"?, "outputByteLimit"?}, "toolCallId"?, "as"?}`
 *      runs a command in a client terminal: terminal/create, then (with `toolCallId`) a
 *      tool_call_update with `{"type": "terminal", terminalId}` content so the client shows the
 *      output live, terminal/wait_for_exit, terminal/output, terminal/release. Stores
 *      `{terminalId, exitCode, signal, output, truncated}` or `{error}`. On session/cancel the
 *      terminal is released before the turn answers `cancelled` (never killed).
 * - `{"mcpTools": "server", "as": "name", "timeoutMs"?}`
 *      lists the tools of an MCP server from session/new `mcpServers` (connected on first use,
 *      kept for the session: http with its headers, or stdio). Stores `{names, has: {Tool: true}}`
 *      or `{error: {message}}`.
 * - `{"mcpCall": {"server", "tool", "arguments"?}, "as"?: "name", "timeoutMs"?}`   (default 30 s)
 *      calls an MCP tool (aborted on session/cancel). Stores `{content, isError, text}` (`text`:
 *      the text content joined) or `{error: {message}}`. Report it yourself as a tool call.
 * - `{"sleep": 100}`                                  milliseconds (scaled by timeScale)
 * - `{"stream": "text", "chunk": 12, "delayMs": 10, "kind": "agent_message_chunk"}`
 *      text as many chunks (kind: agent_message_chunk | agent_thought_chunk | user_message_chunk)
 * - `{"stop": "max_tokens"}`                          end the turn now with this stop reason
 * - `{"fail": {"code": -32603, "message": "boom"}}`   answer the current request with an error now
 * - `{"stderr": "text"}`                               a line on stderr
 * - `{"crash": 1}` / `{"crash": {"signal": "SIGKILL"}}`  die at once (no flush)
 * - `{"exit": 0}`                                      flush stdout, then exit with the code
 * - `{"hang": true}`                                   never continue; session/cancel still answers
 *                                                      `cancelled`. `"ignore-cancel"`: not even that.
 * - `{"garbage": "invalid-json" | "not-jsonrpc" | "binary" | "huge-line", "bytes"?: 1048576}`
 *      (garbage and flood: test fixture agent only, test/fixtures/agents/faults.ts; the shipped
 *      demo agent has no fault injection)
 *      huge-line: a valid agent_message_chunk notification whose line is about `bytes` long
 * - `{"raw": "text"}`                                  written to stdout verbatim (no newline added)
 * - `{"flood": {"toolCalls": 100, "chunks": 1000, "lag": 4, "kind": "execute"}}`
 *      N tool_call (in_progress) each completed `lag` calls later, interleaved with M message
 *      chunks, written as fast as the pipe takes them.
 *
 * Substitution: every string in a step (and in handler results / newSession) may contain
 * `${path}`; a string that is exactly `${path}` is replaced by the raw value (object, null, …).
 * Unknown paths are left as written. Variables: `sessionId`, `cwd`, `n` (session number),
 * `turn` (prompt number, 1-based), `prompt` (prompt text), `promptLine` (first line, ≤ 120
 * chars), `client` (the initialize params: `client.clientCapabilities.fs.readTextFile`, …),
 * `params` (the current request's params), answers stored with `as`, the script's `vars`, and:
 * - `workspace.{file,path,exists,head,oldText}`: a real file in cwd (README.md first, else the
 *   first text file), relative and absolute path, whether it exists, its first lines (`head`)
 *   and `oldText` (= head, or null when no file was found);
 * - `files.<key>.{file,path,exists,text}`: the files named in `files`, read from disk at each use
 *   (`text` null when missing);
 * - `mcp.<name>`: the `mcpServers` entry of session/new with that name (e.g. `mcp.tandem`);
 * - `runtime.{node,nodeEnv,platform,timeScale,pid}`: a Node command for client terminals (`node` on
 *   PATH, else this process's executable, which needs `nodeEnv` = ELECTRON_RUN_AS_NODE=1 in VS Code).
 *
 * JSONL scripts: every line is a step of one prompt entry, except an optional first line
 * `{"$script": {...}}` that gives the rest of the script.
 */
import type {
  SessionUpdate,
  AgentCapabilities,
  AuthMethod,
  SessionModeState,
  SessionConfigOption,
  StopReason,
  ToolKind,
} from '@agentclientprotocol/sdk' with { 'resolution-mode': 'import' };

export interface RpcErrorSpec {
  code: number;
  message: string;
  data?: unknown;
}

export interface HandlerScript {
  /** Steps run before answering. */
  steps?: Step[];
  /** Result to answer with (substituted). */
  result?: unknown;
  /** Answer with this error instead of a result. */
  error?: RpcErrorSpec;
  /** Steps run after answering. */
  after?: Step[];
}

export interface InitializeScript extends Omit<HandlerScript, 'result'> {
  protocolVersion?: number;
  agentCapabilities?: AgentCapabilities;
  authMethods?: AuthMethod[];
  agentInfo?: { name: string; title?: string; version: string };
  /** The answer's top-level `_meta` (extensions such as `steering: {supported: true}`). */
  _meta?: Record<string, unknown>;
}

export interface NewSessionScript extends Omit<HandlerScript, 'result'> {
  sessionId?: string;
  modes?: SessionModeState;
  configOptions?: SessionConfigOption[];
  models?: unknown;
}

export interface PromptScript {
  /** Case-insensitive substring of the prompt text. */
  match?: string;
  /** Regular expression (JS syntax, flag i) tested against the prompt text. */
  regex?: string;
  steps?: Step[];
  stopReason?: StopReason;
  onCancel?: Step[];
}

export interface AgentScript {
  name?: string;
  /** Initial variables. */
  vars?: Record<string, unknown>;
  /** Files of the session cwd by key (relative paths with `/`): the `files.<key>` variables. */
  files?: Record<string, string>;
  startup?: Step[];
  initialize?: InitializeScript;
  newSession?: NewSessionScript;
  prompts?: PromptScript[];
  defaultPrompt?: PromptScript;
  handlers?: Record<string, HandlerScript>;
}

export type StreamKind = 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk';
export type GarbageKind = 'invalid-json' | 'not-jsonrpc' | 'binary' | 'huge-line';

export type Step =
  | { update: SessionUpdate; sessionId?: string }
  | { notify: string; params?: unknown }
  | { request: string; params?: unknown; as?: string; wait?: boolean; timeoutMs?: number }
  | { await: string }
  | { branch: string; cases: Record<string, Step[]>; else?: Step[] }
  | { if: string | string[]; then?: Step[]; else?: Step[] }
  | { set: Record<string, unknown> }
  | { terminal: TerminalSpec; toolCallId?: string; as?: string }
  | { mcpTools: string; as: string; timeoutMs?: number }
  | { mcpCall: { server: string; tool: string; arguments?: Record<string, unknown> }; as?: string; timeoutMs?: number }
  | { sleep: number }
  | { stream: string; chunk?: number; delayMs?: number; kind?: StreamKind }
  | { stop: StopReason }
  | { fail: RpcErrorSpec }
  | { stderr: string }
  | { crash: number | { code?: number; signal?: NodeJS.Signals } }
  | { exit: number }
  | { hang: true | 'ignore-cancel' }
  | { garbage: GarbageKind; bytes?: number }
  | { raw: string }
  | { flood: FloodSpec };

export interface FloodSpec {
  toolCalls: number;
  chunks: number;
  /** A tool call is completed after this many later calls started. Default 4. */
  lag?: number;
  kind?: ToolKind;
}

/** terminal/create params (sessionId is added); strings may use `${…}`. */
export interface TerminalSpec {
  command: string;
  args?: string[] | string;
  env?: Array<{ name: string; value: string }> | string;
  cwd?: string;
  outputByteLimit?: number;
}
