// Client tools: groups of tools the agent calls and the client (VS Code) executes. Pure types,
// no vscode, no transport: the registry and invocation know nothing of MCP, so MCP-over-ACP
// (draft) or another transport can replace src/tools/mcp/mcpServer.ts later.
import type { PermissionPort } from '../client/permissions/permissionPort';
import type { SessionPlace } from '../client/connection/sessionPlace';
import type { DisconnectionStrategy } from './disconnection';

/** A JSON Schema (draft-07 / 2019-09 subset ajv understands) for a tool's arguments object. */
export type JsonSchema = Record<string, unknown>;

/** One piece of a tool result. `json` is sent as text (pretty JSON) plus structured content. */
export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'json'; json: unknown }
  /** Base64 image data (MCP image content). */
  | { type: 'image'; data: string; mimeType: string }
  /** Other binary data, base64 (MCP embedded blob resource). */
  | { type: 'binary'; data: string; mimeType: string; filename?: string };

/** A context item a handler adds to the agent's state (augmentation). */
export interface ContextItem {
  key: string;
  value: string;
}

/** Changes a handler asks for after its call; the agent's tool list follows (list_changed). */
export interface Augmentation {
  /** Add groups (validated like registered groups) to this session only. */
  injectGroups?: ToolGroup[];
  /** Remove groups (registered or injected) from this session. */
  removeGroups?: string[];
  expandGroups?: string[];
  collapseGroups?: string[];
  hideTools?: string[];
  showTools?: string[];
  /** Appended to this call's result and kept in the session's context list. */
  addContext?: ContextItem[];
}

export interface ToolResult {
  content: ToolContent[];
  isError?: boolean;
  augmentation?: Augmentation;
  /** What the call's row shows the user instead of `content` (the agent gets `content` only). */
  row?: ResultRow;
}

/** A result as the user reads it in the call's row: lines of text and places to open. */
export interface ResultRow {
  /** Shown as it is (monospace, lines kept), in place of the JSON the agent reads. */
  text: string;
  /** Places the result names, absolute paths and 1-based lines: clickable in the row, and followed by follow-along. */
  locations?: Array<{ path: string; line?: number }>;
}

/**
 * A question a tool asks about its call once it knows what the call will do (Rename: which
 * edits in which files): in words (`code` spans in backticks), with the files it would touch.
 */
export interface ToolQuestion {
  text: string;
  /** Absolute paths the call would change. */
  paths?: string[];
}

export interface ToolCallContext {
  /** ACP session the call belongs to (undefined before the session is known). */
  sessionId?: string;
  group: string;
  tool: string;
  /** Aborted when the call ends early (timeout, cancel, disconnection): handlers doing long work should stop. */
  signal: AbortSignal;
  /**
   * Tandem's own questions during the call (a file outside the workspace), in the call's session:
   * withdrawn when the call ends, and the wait for the answer does not count toward the timeout.
   * Missing when nobody can be asked (no session, no prompt): treat that as a no.
   */
  permission?: PermissionPort;
  /**
   * The session works in a folder of its own (a worktree): tools resolve and show paths against
   * it instead of the window's workspace folders, and judge "inside" by it (workspacePaths.foldersOf).
   */
  place?: SessionPlace;
  /**
   * Asks the user about this call the way `requiresPermission` does (in the call's row, Allow or
   * Deny, permission rules by tool name), in the tool's own words, once it knows what it will
   * do; resolves 'allow' when it may go on. Missing when nobody can be asked: treat that as a no.
   */
  confirm?(question: ToolQuestion): Promise<'allow' | 'deny' | 'cancelled'>;
}

/** A string is a text result; a ToolResult is used as is. Throwing gives an error result. */
export type ToolHandler = (
  args: Record<string, unknown>,
  ctx: ToolCallContext,
) => Promise<ToolResult | string> | ToolResult | string;

/** A tool as the agent sees it. */
export interface ToolDefinition {
  /** Unique across all groups; `^[A-Za-z0-9_-]{1,64}$` (what model APIs accept). */
  name: string;
  description: string;
  parametersSchema: JsonSchema;
  /**
   * Ask the user (Tandem's permission flow and auto-allow rules) before each call; a function
   * decides per call from its arguments (e.g. listing quick fixes is free, applying one asks).
   */
  requiresPermission?: boolean | ((args: Record<string, unknown>) => boolean);
  /**
   * How long a call may take when that is longer than tandem.clientTools.timeoutSeconds (a task
   * that builds for minutes); a function decides from the call's arguments.
   */
  timeoutMs?: number | ((args: Record<string, unknown>) => number);
  /**
   * Acts on the window's workspace as a whole (its tasks), which a session working in its own
   * folder does not edit: such a session's call is refused before anything is asked.
   */
  workspaceOnly?: boolean;
}

export interface Tool extends ToolDefinition {
  handler: ToolHandler;
}

export interface SkillDefinition {
  /** Free text ("Complete Checkout"); its tool name is the name with other characters as `_`. */
  name: string;
  description: string;
  /** Appended once to the activation result. */
  functionResult?: string;
  /** Standing instructions while the skill is active. */
  systemPrompt?: string;
  /** Names of tools of the same group; activating the skill exposes exactly these. */
  references: string[];
}

export interface GroupDefinition<T extends ToolDefinition = ToolDefinition> {
  /** Also the container tool's name: `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  /** Shown while collapsed. */
  description?: string;
  tools: T[];
  skills?: SkillDefinition[];
  /** Appended once to the generated expansion result. */
  functionResult?: string;
  /** Standing instructions while the group is expanded. */
  systemPrompt?: string;
  /** Default true: the group starts behind one container tool. */
  startCollapsed?: boolean;
}

export type ToolGroup = GroupDefinition<Tool>;

/** Settings that shape every session's tool list. */
export interface ToolsConfig {
  /** false disables collapsing everywhere (every group starts expanded). */
  collapse: boolean;
  /** Groups that start expanded. */
  expandedGroups: readonly string[];
  timeoutMs: number;
  /** `{0}` (or `{tool}`) is replaced by the tool name. */
  disconnectedMessage: string;
  /** What a call gets when VS Code cannot run it (src/tools/disconnection.ts). */
  disconnection: DisconnectionStrategy;
  /** retryWithBackoff: how many times to check again before giving up. */
  maxRetries: number;
  /**
   * Instructions for every client tool (tandem.clientTools.instructions): the first part of the
   * MCP server instructions, which agents put in their system prompt (README "Client tools").
   */
  instructions?: string;
}

/** Claude Code hides a server named `ide`; Tandem's is `tandem` (tools: mcp__tandem__OpenFile). */
export const MCP_SERVER_NAME = 'tandem';

export const DEFAULT_TOOLS_CONFIG: ToolsConfig = {
  collapse: true,
  expandedGroups: [],
  timeoutMs: 30_000,
  disconnectedMessage: "Client disconnected. Tool '{0}' unavailable.",
  disconnection: 'fallbackMessage',
  maxRetries: 3,
};

/** What the agent's tool list shows: a tool of a group, a group's container, or a skill. */
export type ListedTool =
  | { kind: 'tool'; name: string; description: string; inputSchema: JsonSchema; group: string; tool: Tool }
  | { kind: 'container'; name: string; description: string; inputSchema: JsonSchema; group: string }
  | {
      kind: 'skill';
      name: string;
      description: string;
      inputSchema: JsonSchema;
      group: string;
      skill: SkillDefinition;
    };

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function textResult(text: string, isError = false): ToolResult {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}
