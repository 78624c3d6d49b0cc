// Running one client tool call: resolve the name against the session's tool list, validate the
// arguments, ask permission when the tool requires it, run the handler under a timeout, apply
// its augmentation. Every path ends in exactly one ToolResult: the agent always gets an answer
// (an error result, never a thrown error), and a late handler never answers twice. The timeout
// never counts the user's time (callClock.ts); a call that ends early (timeout, the agent's
// cancel, disconnection) withdraws the prompts it still has open.
import type { PermissionPort } from '../client/permissions/permissionPort';
import type { SessionPlace } from '../client/connection/sessionPlace';
import { ajvMessage } from './ajvMessage';
import { CallClock } from './callClock';
import type { ListedTool, Tool, ToolContent, ToolQuestion, ToolResult, ToolsConfig } from './types';
import { textResult } from './types';
import { awaitConnection, disconnectedAnswer } from './disconnection';
import type { ToolState } from './toolState';

export type PermissionDecision = 'allow' | 'deny' | 'cancelled';

/** Lets the UI show a client tool call (the tool-call tree) while it runs. */
export interface CallObserver {
  /** `via`: the container a proxied call came through (the agent's own row names it, not the tool). */
  started(call: {
    callId: string;
    group: string;
    tool: string;
    args: Record<string, unknown>;
    kind: ListedTool['kind'];
    via?: string;
  }): void;
  finished(callId: string, result: ToolResult): void;
}

/** A call the user is asked about: `signal` aborts when the call ends (the prompt is withdrawn). */
export interface PermissionCall {
  callId: string;
  group: string;
  tool: Tool;
  args: Record<string, unknown>;
  signal: AbortSignal;
  /** The handler's own question (ToolCallContext.confirm); without it, the tool's requiresPermission one. */
  question?: ToolQuestion;
}

export interface InvokeEnv {
  state: ToolState;
  config: ToolsConfig;
  sessionId?: string;
  /** The session's own folder (a worktree), when it has one: ToolCallContext.place. */
  place?: SessionPlace;
  /** Asks before a requiresPermission tool runs, or when its handler asks. Missing: such tools are refused. */
  requestPermission?(call: PermissionCall): Promise<PermissionDecision>;
  /** The prompt for questions handlers ask (ToolCallContext.permission). */
  permission?: PermissionPort;
  /** Aborts when the agent cancels the call (MCP notifications/cancelled) or its connection closes. */
  signal?: AbortSignal;
  observer?: CallObserver;
  /** Fires (resolves) when VS Code can no longer run calls: pending calls get the fallback result. */
  disconnected?: Promise<void>;
  /** True when VS Code cannot run calls now (window closing, session gone). */
  isDisconnected?(): boolean;
  /** Logs handler errors and late results. */
  log?(message: string): void;
}

let callCounter = 0;

export function unknownToolText(name: string, state: ToolState): string {
  return `Unknown tool "${name}". Available tools: ${
    state
      .list()
      .map((l) => l.name)
      .join(', ') || '(none)'
  }`;
}

function normalize(r: unknown): ToolResult {
  if (typeof r === 'string') return textResult(r);
  if (r && typeof r === 'object' && Array.isArray((r as ToolResult).content)) return r as ToolResult;
  if (r === undefined || r === null) return textResult('Done.');
  return { content: [{ type: 'json', json: r }] };
}

/**
 * Runs one call. Never rejects, except with ClientDisconnectedError when VS Code cannot run the
 * call and the disconnection strategy is failFast.
 */
export async function invokeTool(name: string, rawArgs: unknown, env: InvokeEnv, via?: string): Promise<ToolResult> {
  const { state, config } = env;
  const callId = `tandem-tool-${++callCounter}`;
  const fallback = () => disconnectedAnswer(config, name);
  if (env.isDisconnected) {
    const c = await awaitConnection(config, env.isDisconnected);
    if (!c.connected) return disconnectedAnswer(config, name, c.retries);
  }

  const listed = state.resolve(name);
  if (!listed) return textResult(unknownToolText(name, state), true);
  const args = (rawArgs && typeof rawArgs === 'object' && !Array.isArray(rawArgs) ? rawArgs : {}) as Record<
    string,
    unknown
  >;

  if (listed.kind === 'container' && typeof args.function === 'string') {
    // Proxy: run a function of the group through its container (agents with a stale tool list).
    state.expand(listed.group);
    const target = state.resolve(args.function);
    if (!target || target.kind !== 'tool' || target.group !== listed.group) {
      return textResult(
        `${listed.group} has no function "${args.function}". Available functions: ${state
          .list()
          .filter((l) => l.kind === 'tool' && l.group === listed.group)
          .map((l) => l.name)
          .join(', ')}`,
        true,
      );
    }
    return invokeTool(args.function, args.arguments ?? {}, env, listed.name);
  }
  if (listed.kind === 'container') {
    env.observer?.started({ callId, group: listed.group, tool: listed.name, args, kind: 'container' });
    const text = state.expand(listed.group) ?? unknownToolText(name, state);
    const r = textResult(text);
    env.observer?.finished(callId, r);
    return r;
  }
  if (listed.kind === 'skill') {
    env.observer?.started({ callId, group: listed.group, tool: listed.name, args, kind: 'skill' });
    const text = state.activateSkill(listed.group, listed.name) ?? unknownToolText(name, state);
    const r = textResult(text);
    env.observer?.finished(callId, r);
    return r;
  }

  const tool = listed.tool;
  const validate = state.group(listed.group)?.validators.get(tool.name);
  if (validate && !validate(args)) {
    return textResult(`Invalid arguments for tool ${tool.name}: ${ajvMessage(validate)}`, true);
  }

  env.observer?.started({ callId, group: listed.group, tool: tool.name, args, kind: 'tool', ...(via ? { via } : {}) });
  let answered = false;
  const finish = (r: ToolResult): ToolResult => {
    answered = true;
    env.observer?.finished(callId, r);
    return r;
  };

  const abort = new AbortController();
  let timedOut: (r: ToolResult) => void = () => undefined;
  const timeout = new Promise<ToolResult>((resolve) => (timedOut = resolve));
  const own = typeof tool.timeoutMs === 'function' ? tool.timeoutMs(args) : tool.timeoutMs;
  const timeoutMs = Math.max(config.timeoutMs, Number.isFinite(own) ? (own as number) : 0);
  const clock = new CallClock(timeoutMs, () => {
    abort.abort(new Error('timeout'));
    timedOut(
      textResult(
        `Tool ${tool.name} timed out after ${formatSeconds(timeoutMs)} (the IDE did not answer in time).`,
        true,
      ),
    );
  });
  // Ends that need no timer: the call is answered at once and its open prompts are withdrawn.
  const ends: Promise<ToolResult>[] = [];
  // A call whose handler started is not run again (see disconnection.ts): it ends here.
  if (env.disconnected)
    ends.push(
      env.disconnected.then(() => {
        abort.abort(new Error('disconnected'));
        return fallback();
      }),
    );
  if (env.signal)
    ends.push(
      aborted(env.signal).then(() => {
        abort.abort(new Error('cancelled'));
        return textResult(`The call to ${tool.name} was cancelled by the agent.`, true);
      }),
    );
  const sessionId = env.sessionId;
  const port = env.permission;
  const permission: PermissionPort | undefined =
    port && sessionId !== undefined
      ? {
          // Bound to this call's session and lifetime; the user's time is not the IDE's.
          request: async (_sid, toolCall, options) => {
            clock.pause();
            try {
              return await port.request(sessionId, toolCall, options, abort.signal);
            } finally {
              clock.resume();
            }
          },
        }
      : undefined;
  // The handler's own question (ToolCallContext.confirm): asked as requiresPermission asks, in its words.
  const ask = env.requestPermission;
  const confirm =
    ask &&
    ((question: ToolQuestion) => {
      clock.pause();
      const asked = ask({ callId, group: listed.group, tool, args, signal: abort.signal, question });
      return asked.finally(() => clock.resume());
    });

  const handle = async (): Promise<ToolResult> => {
    try {
      const r = normalize(
        await tool.handler(args, {
          sessionId,
          group: listed.group,
          tool: tool.name,
          signal: abort.signal,
          ...(permission ? { permission } : {}),
          ...(confirm ? { confirm } : {}),
          ...(env.place ? { place: env.place } : {}),
        }),
      );
      if (answered) {
        env.log?.(`Client tool ${tool.name} finished after its call was answered; result dropped.`);
        return r;
      }
      if (!r.augmentation) return r;
      const { problems, context } = state.augment(r.augmentation);
      const extra: ToolContent[] = [];
      if (context.length)
        extra.push({ type: 'text', text: `Context:\n${context.map((c) => `- ${c.key}: ${c.value}`).join('\n')}` });
      if (problems.length)
        extra.push({
          type: 'text',
          text: `Tandem could not apply part of this tool's changes: ${problems.join('; ')}`,
        });
      return { content: [...r.content, ...extra], isError: r.isError, ...(r.row ? { row: r.row } : {}) };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (!answered)
        env.log?.(`Client tool ${tool.name} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
      return textResult(`Tool ${tool.name} failed: ${message}`, true);
    }
  };

  const run = async (): Promise<ToolResult> => {
    if (tool.workspaceOnly && env.place) return textResult(notInPlace(tool.name, env.place), true);
    const asks =
      typeof tool.requiresPermission === 'function' ? tool.requiresPermission(args) : tool.requiresPermission;
    if (asks) {
      if (!env.requestPermission)
        return textResult(
          `Tool ${tool.name} requires the user's permission, and no permission prompt is available.`,
          true,
        );
      const d = await env.requestPermission({ callId, group: listed.group, tool, args, signal: abort.signal });
      if (d !== 'allow')
        return textResult(
          d === 'deny'
            ? `The user denied permission to run ${tool.name}.`
            : `The permission request for ${tool.name} was cancelled.`,
          true,
        );
      if (abort.signal.aborted) return textResult('aborted', true);
    }
    // The timeout starts now: waiting for the user's answer above never counts.
    clock.start();
    return Promise.race([handle(), timeout]);
  };

  try {
    const r = await Promise.race([run(), ...ends]);
    return finish(stripAugmentation(r));
  } catch (err) {
    // failFast: the row shows the failure; the transport answers the call with the error.
    if (!answered) finish(textResult(err instanceof Error ? err.message : String(err), true));
    throw err;
  } finally {
    clock.stop();
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function stripAugmentation(r: ToolResult): ToolResult {
  if (!r.augmentation) return r;
  const { augmentation: _a, ...rest } = r;
  return rest;
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number(s.toFixed(3))} s`;
}

/** Why a workspace-only tool (Tool.workspaceOnly) does not run in a session with a place of its own. */
function notInPlace(tool: string, place: SessionPlace): string {
  return `${tool} acts on the workspace VS Code has open, not on this session's worktree (${place.label}); run the command in a terminal instead.`;
}
