// Client tool calls in the session's tool-call tree. Most agents (claude-code-acp, gemini-cli,
// codex-acp) report an MCP tool call as their own tool_call before calling it. When such a call is
// open in the session (it names the tool and `tandem`, or its rawInput equals the arguments),
// Tandem annotates that call (`_meta.tandem.group`) instead of adding a second row; otherwise it
// adds a synthetic call `tandem-tool-<n>` titled "IDE · OpenFile src/a.ts" and completes it with
// the result: the result's `row` when it has one (lines to read and places to open, where the
// agent gets JSON), else its content. The agent completes its own row with what the agent got;
// Tandem adds the places (`locations`) and the readable text (`_meta.tandem.rowText`). Pure: no vscode.
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { FeatureContext } from '../client/connection/feature';
import type { SessionStore } from '../session/store';
import { clientToolTitleText } from '../shared/clientToolTitle';
import type { CallObserver } from './invoke';
import type { ResultRow, ToolResult } from './types';

/** How long a client call waits for the agent's own tool_call before Tandem adds a synthetic row. */
const ROW_GRACE_MS = 150;
/**
 * The most places a row carries: they are its links, and follow-along opens the last one. A row
 * of 200 references links its first 20; its text lists every one the agent got.
 */
export const MAX_ROW_LOCATIONS = 20;

export class CallUpdates {
  /** Client call id → the tool-call row that shows it (the agent's own, or a synthetic one). */
  private readonly rowId = new Map<string, string>();
  private readonly pendingRows = new Map<string, { create(): void; timer: ReturnType<typeof setTimeout> }>();
  /** Client call id → its `_meta.tandem`, for the update that finishes an agent's own row. */
  private readonly rowMeta = new Map<string, Record<string, unknown>>();
  /** Calls whose agent's own row the user had allowed in the agent's prompt when Tandem found it. */
  private readonly allowedRows = new Set<string>();
  private synthetic = 0;

  constructor(
    private readonly ctx: Pick<FeatureContext, 'session'>,
    private readonly clock?: () => number,
  ) {}

  /** Adds the call's row now if it is still waiting for the agent's own; returns its id. */
  showNow(callId: string): string | undefined {
    const p = this.pendingRows.get(callId);
    if (p) {
      clearTimeout(p.timer);
      p.create();
    }
    return this.rowId.get(callId);
  }

  /** The user allowed this call in the agent's own prompt (the agent asked before calling Tandem). */
  allowedByUser(callId: string): boolean {
    return this.allowedRows.has(callId);
  }

  /** Follows the calls of one ACP session into its tool-call tree. */
  observer(sessionId: string | undefined): CallObserver | undefined {
    if (!sessionId) return undefined;
    const now = () => (this.clock ?? Date.now)();
    const pending = this.pendingRows;
    return {
      started: (call) => {
        const store = this.ctx.session(sessionId);
        if (!store) return;
        // What the view titles the row by ("IDE · OpenFile src/a.ts:3"), whichever row shows the call.
        const meta = {
          tandem: { group: call.group, tool: call.tool, kind: call.kind, args: call.args, clientTool: true },
        };
        // The agent's own row, when it is there: annotate it rather than add a second one.
        const adopt = (st: SessionStore) => {
          const own = findAgentCall(st.state.toolCalls, call);
          if (!own) return false;
          this.rowId.set(call.callId, own);
          this.rowMeta.set(call.callId, meta.tandem);
          // Read before Tandem asks anything: a decision on the row now is the agent's prompt's,
          // and it was about this call only if the row's input is what the call got.
          const row = st.state.toolCalls.get(own);
          const asked = row?.permission;
          const allowed = asked?.outcome === 'selected' && asked.by === 'user' && asked.optionKind?.startsWith('allow');
          if (allowed && sameInput(row?.rawInput, call)) this.allowedRows.add(call.callId);
          st.dispatch({
            type: 'update',
            at: now(),
            update: { sessionUpdate: 'tool_call_update', toolCallId: own, _meta: meta },
          });
          return true;
        };
        if (adopt(store)) return;
        // The agent's own tool_call (ACP over stdout) may arrive after the MCP call (HTTP): wait a
        // moment for it before adding a synthetic row.
        const create = () => {
          pending.delete(call.callId);
          const st = this.ctx.session(sessionId);
          if (!st) return;
          if (adopt(st)) return;
          const id = `tandem-tool-${++this.synthetic}`;
          this.rowId.set(call.callId, id);
          const kind: ToolKind = call.kind === 'tool' ? kindOf(call.tool) : 'other';
          const title = clientToolTitleText(call);
          st.dispatch({
            type: 'update',
            at: now(),
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: id,
              title,
              kind,
              status: 'in_progress',
              rawInput: call.args,
              _meta: meta,
            },
          });
        };
        pending.set(call.callId, { create, timer: setTimeout(create, ROW_GRACE_MS) });
      },
      finished: (callId, result) => {
        const id = this.showNow(callId);
        const meta = this.rowMeta.get(callId);
        this.rowId.delete(callId);
        this.rowMeta.delete(callId);
        this.allowedRows.delete(callId);
        const store = this.ctx.session(sessionId);
        if (!id || !store) return;
        const row = result.row;
        const locations = row?.locations?.length ? { locations: rowLocations(row) } : {};
        if (!id.startsWith('tandem-tool-')) {
          // The agent completes its own row (with the JSON it got): Tandem adds what the user reads.
          if (row && meta)
            store.dispatch({
              type: 'update',
              at: now(),
              update: {
                sessionUpdate: 'tool_call_update',
                toolCallId: id,
                ...locations,
                _meta: { tandem: { ...meta, rowText: row.text } },
              },
            });
          return;
        }
        store.dispatch({
          type: 'update',
          at: now(),
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: id,
            status: result.isError ? 'failed' : 'completed',
            content: row ? [{ type: 'content', content: { type: 'text', text: row.text } }] : toAcpContent(result),
            ...locations,
          },
        });
      },
    };
  }
}

/**
 * An open agent tool call that is this MCP call: names `tandem` and the tool, or has the same
 * input; a call proxied through its container (`{function, arguments}`) names the container.
 */
function findAgentCall(
  calls: {
    forEach(
      fn: (
        v: {
          toolCallId: string;
          title: string;
          name?: string;
          status: string;
          rawInput?: unknown;
          meta?: Record<string, unknown>;
        },
        k: string,
      ) => void,
    ): void;
  },
  call: { tool: string; args: Record<string, unknown>; via?: string },
): string | undefined {
  const { tool, args, via } = call;
  let found: string | undefined;
  const argsJson = Object.keys(args).length ? stableJson(args) : undefined;
  calls.forEach((c) => {
    if (
      c.toolCallId.startsWith('tandem-tool-') ||
      (c.status !== 'pending' && c.status !== 'in_progress') ||
      c.meta?.tandem
    )
      return;
    const text = `${c.title} ${c.name ?? ''}`;
    const input = mcpInput(c.rawInput);
    const named = text.includes(tool) && /tandem/i.test(text);
    const sameInput = argsJson !== undefined && input && stableJson(input) === argsJson;
    const proxied = via !== undefined && input?.function === tool && text.includes(via) && /tandem/i.test(text);
    if (named || proxied || (sameInput && text.includes(tool))) found = c.toolCallId;
  });
  return found;
}

/** The agent's row asked for this call: its input is the call's arguments, or `{function, arguments}` through the container. */
function sameInput(raw: unknown, call: { tool: string; args: Record<string, unknown>; via?: string }): boolean {
  const input = mcpInput(raw);
  const args = call.via === undefined ? input : input?.function === call.tool ? input.arguments : undefined;
  return stableJson(args ?? {}) === stableJson(call.args);
}

/** The arguments an agent's tool call passes to the MCP tool: codex-acp wraps them as
 *  `{server, tool, arguments}`; Claude Code and gemini-cli pass them as they are. */
function mcpInput(raw: unknown): Record<string, unknown> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const wrapped =
    typeof r.server === 'string' &&
    typeof r.tool === 'string' &&
    r.arguments &&
    typeof r.arguments === 'object' &&
    !Array.isArray(r.arguments);
  return wrapped ? (r.arguments as Record<string, unknown>) : r;
}

function stableJson(v: unknown): string {
  if (!v || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

function kindOf(tool: string): ToolKind {
  if (/^(Get|Read|List|Find)/.test(tool)) return 'read';
  if (/^(Open|Show|Reveal)/.test(tool)) return 'other';
  return 'other';
}

function rowLocations(row: ResultRow): ToolCallLocation[] {
  return (row.locations ?? [])
    .slice(0, MAX_ROW_LOCATIONS)
    .map((l) => (l.line !== undefined ? { path: l.path, line: l.line } : { path: l.path }));
}

function toAcpContent(r: ToolResult): ToolCallContent[] {
  return r.content.map((c): ToolCallContent => {
    switch (c.type) {
      case 'text':
        return { type: 'content', content: { type: 'text', text: c.text } };
      case 'json':
        return { type: 'content', content: { type: 'text', text: JSON.stringify(c.json, null, 2) } };
      case 'image':
        return { type: 'content', content: { type: 'image', data: c.data, mimeType: c.mimeType } };
      case 'binary':
        return {
          type: 'content',
          content: { type: 'text', text: `(${c.mimeType} data${c.filename ? `: ${c.filename}` : ''})` },
        };
    }
  });
}
