// Client tool calls in the session's tool-call tree. Most agents (claude-code-acp, gemini-cli,
// codex-acp) report an MCP tool call as their own tool_call before calling it. When such a call is
// open in the session (it names the tool and `tandem`, or its rawInput equals the arguments),
// Tandem annotates that call (`_meta.tandem.group`) instead of adding a second row; otherwise it
// adds a synthetic call `tandem-tool-<n>` titled "IDE · OpenFile src/a.ts" and completes it with
// the result. Pure: no vscode.
import type { ToolCallContent, ToolKind } from '@agentclientprotocol/sdk';
import type { FeatureContext } from '../client/connection/feature';
import type { SessionStore } from '../session/store';
import { clientToolTitleText } from '../shared/clientToolTitle';
import type { CallObserver } from './invoke';
import type { ToolResult } from './types';

/** How long a client call waits for the agent's own tool_call before Tandem adds a synthetic row. */
const ROW_GRACE_MS = 150;

export class CallUpdates {
  /** Client call id → the tool-call row that shows it (the agent's own, or a synthetic one). */
  private readonly rowId = new Map<string, string>();
  private readonly pendingRows = new Map<string, { create(): void; timer: ReturnType<typeof setTimeout> }>();
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
        this.rowId.delete(callId);
        const store = this.ctx.session(sessionId);
        if (!id || !store || !id.startsWith('tandem-tool-')) return; // the agent completes its own row
        store.dispatch({
          type: 'update',
          at: now(),
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: id,
            status: result.isError ? 'failed' : 'completed',
            content: toAcpContent(result),
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
