// The compat tests' common parts: where the pinned agents are installed, a throwaway workspace,
// and Tandem's real AgentClient with the real fs and terminal features on node-backed ports.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { AgentClient } from '../../src/client/connection/agentClient';
import type { ClientFeature } from '../../src/client/connection/feature';
import { ChangeTracker } from '../../src/client/changes/changeTracker';
import { FileSystemFeature } from '../../src/client/files/fileSystem';
import { TerminalsFeature } from '../../src/client/terminals/terminals';
import { CLIENT_METHODS } from '../../src/acp/methods';
import { MemoryLogger } from '../../src/common/logger';
import type { PermissionPort } from '../../src/client/permissions/permissionPort';
import { FakeDocs, FakeEdits, FakePermission, fakeWorkspace, nodeFs } from '../unit/client/fakePorts';
import { AGENT_NODE, CLAUDE_AGENT_ACP_101, claudeAgentEnv } from './agentPaths';
import type { FakeServer } from './fakeModels';

export {
  AGENT_NODE,
  CACHE,
  CLAUDE_AGENT_ACP,
  CLAUDE_CODE_ACP,
  claudeAgentEnv,
  CODEX_ACP,
  GEMINI_CLI,
  codexArgs,
  codexEnv,
  codexHome,
} from './agentPaths';

/** Answers session/request_permission with the first allow_once option (issue 5 owns the real prompt). */
export const autoAllow: ClientFeature = {
  capabilities() {
    /* nothing to advertise */
  },
  attach(ctx) {
    return ctx.connection.onRequest(CLIENT_METHODS.session_request_permission, (p: RequestPermissionRequest) => {
      const o = p.options.find((x) => x.kind === 'allow_once') ?? p.options.find((x) => x.kind.startsWith('allow'))!;
      return { outcome: { outcome: 'selected' as const, optionId: o.optionId } };
    });
  },
};

export function workspace(): { ws: string; home: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-')));
  const ws = join(root, 'project');
  const home = join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  return { ws, home };
}

export function client(
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  ws: string,
  perms?: (logger: MemoryLogger) => { feature: ClientFeature; broker: PermissionPort },
) {
  const logger = new MemoryLogger();
  const tracker = new ChangeTracker();
  const docs = new FakeDocs();
  const traffic: { dir: 'in' | 'out'; msg: { method?: string; params?: unknown } }[] = [];
  const p = perms?.(logger);
  const fsFeature = new FileSystemFeature({
    documents: docs,
    fs: nodeFs,
    edits: new FakeEdits(docs),
    workspace: fakeWorkspace(ws),
    permission: p?.broker ?? new FakePermission('reject_once'),
    tracker,
    agentInfoName: () => c.initializeResult?.agentInfo?.name,
  });
  // fsFeature's agentInfoName reads c later, once the connection is up.
  const c: AgentClient = new AgentClient({
    agent: { name, command, args, env, cwd: ws },
    cwd: ws,
    logger,
    features: [fsFeature, new TerminalsFeature(), p?.feature ?? autoAllow],
    traffic: (dir, msg) => traffic.push({ dir, msg: msg as { method?: string } }),
    clientInfo: { name: 'tandem-compat', version: '0' },
  });
  return { c, logger, tracker, traffic };
}

/** client(), started: fails with the log's tail (the agent shut down) unless the agent is ready. */
export async function startedClient(...args: Parameters<typeof client>) {
  const r = client(...args);
  try {
    await r.c.start();
    assert.equal(r.c.agent.state, 'ready', `${r.c.agent.message}\n${logTail(r.logger)}`);
  } catch (err) {
    await r.c.shutdown();
    throw err;
  }
  return r;
}

/** claude-agent-acp 0.101.0 (on the Node it needs) against the fake `model`, started. */
export function startedClaudeAgent(model: FakeServer, home: string, ws: string) {
  return startedClient('Claude Agent', AGENT_NODE, [CLAUDE_AGENT_ACP_101], claudeAgentEnv(model, home), ws);
}

export function methods(traffic: { dir: string; msg: { method?: string } }[]): string[] {
  return traffic.filter((t) => t.dir === 'in' && t.msg.method).map((t) => t.msg.method!);
}

export function logTail(logger: MemoryLogger): string {
  return logger.records
    .slice(-40)
    .map((r) => `${r.level}: ${r.message}`)
    .join('\n');
}

/** Sends a prompt and returns the session once the turn ended normally (else fails with the log). */
export async function endedTurn(c: AgentClient, logger: MemoryLogger, text: string) {
  await c.prompt(text);
  const snap = c.session!.snapshot();
  const turn = snap.turns[snap.turns.length - 1];
  assert.equal(turn.error, undefined, `turn failed: ${turn.error}\n${logTail(logger)}`);
  assert.equal(turn.stopReason, 'end_turn');
  return { snap, turn };
}

/** Agents that write the disk and run commands themselves never call the client's fs or terminals. */
export function assertRunsToolsItself(traffic: { dir: string; msg: { method?: string } }[]): void {
  const m = methods(traffic);
  assert.ok(
    !m.includes('fs/write_text_file') && !m.includes('terminal/create'),
    `it runs its tools itself (saw ${[...new Set(m)].join(', ')})`,
  );
}
