// The compat tests' common parts: where the pinned agents are installed, a throwaway workspace,
// and Tandem's real AgentClient with the real fs and terminal features on node-backed ports.
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import { AgentClient } from '../../src/client/agentClient';
import type { ClientFeature } from '../../src/client/feature';
import { ChangeTracker } from '../../src/client/changeTracker';
import { FileSystemFeature } from '../../src/client/fileSystem';
import { TerminalsFeature } from '../../src/client/terminals';
import { CLIENT_METHODS } from '../../src/acp/methods';
import { MemoryLogger } from '../../src/common/logger';
import type { PermissionPort } from '../../src/client/permissionPort';
import type { FakeServer } from './fakeModels';
import { FakeDocs, FakeEdits, FakePermission, fakeWorkspace, nodeFs } from '../unit/client/fakePorts';

export const CACHE = process.env.TANDEM_COMPAT_CACHE || join(homedir(), '.cache', 'tandem-compat');
export const CLAUDE_CODE_ACP = join(CACHE, 'claude-code-acp-0.16.2', 'node_modules', '@zed-industries', 'claude-code-acp', 'dist', 'index.js');
export const GEMINI_CLI = join(CACHE, 'gemini-cli-0.61.0', 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
/** codex-acp's launcher script (it starts the native binary of @zed-industries/codex-acp-<platform>). */
export const CODEX_ACP = join(CACHE, 'codex-acp-0.16.0', 'node_modules', '@zed-industries', 'codex-acp', 'bin', 'codex-acp.js');

/** Answers session/request_permission with the first allow_once option (issue 5 owns the real prompt). */
export const autoAllow: ClientFeature = {
  capabilities() { /* nothing to advertise */ },
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

export function client(name: string, command: string, args: string[], env: Record<string, string>, ws: string,
  perms?: (logger: MemoryLogger) => { feature: ClientFeature; broker: PermissionPort }) {
  const logger = new MemoryLogger();
  const tracker = new ChangeTracker();
  const docs = new FakeDocs();
  const traffic: { dir: 'in' | 'out'; msg: { method?: string; params?: unknown } }[] = [];
  const p = perms?.(logger);
  let c!: AgentClient;
  const fsFeature = new FileSystemFeature({
    documents: docs, fs: nodeFs, edits: new FakeEdits(docs), workspace: fakeWorkspace(ws), permission: p?.broker ?? new FakePermission('reject_once'),
    tracker, agentInfoName: () => c.initializeResult?.agentInfo?.name,
  });
  c = new AgentClient({
    agent: { name, command, args, env, cwd: ws }, cwd: ws, logger,
    features: [fsFeature, new TerminalsFeature(), p?.feature ?? autoAllow],
    traffic: (dir, msg) => traffic.push({ dir, msg: msg as { method?: string } }),
    clientInfo: { name: 'tandem-compat', version: '0' },
  });
  return { c, logger, tracker, traffic };
}

export function methods(traffic: { dir: string; msg: { method?: string } }[]): string[] {
  return traffic.filter((t) => t.dir === 'in' && t.msg.method).map((t) => t.msg.method!);
}

export function logTail(logger: MemoryLogger): string {
  return logger.records.slice(-40).map((r) => `${r.level}: ${r.message}`).join('\n');
}

/** Codex keeps state and helper binaries in CODEX_HOME, and refuses a home under /tmp. */
export function codexHome(): string {
  mkdirSync(CACHE, { recursive: true });
  const home = mkdtempSync(join(CACHE, 'codex-home-'));
  mkdirSync(join(home, '.codex'));
  return home;
}

export function codexArgs(model: FakeServer): string[] {
  return [CODEX_ACP,
    '-c', `model_providers.fake={name="fake",base_url="${model.url}/v1",wire_api="responses",env_key="OPENAI_API_KEY"}`,
    '-c', 'model_provider="fake"', '-c', 'model="gpt-5.5"'];
}

export const codexEnv = (home: string) => ({ HOME: home, CODEX_HOME: join(home, '.codex'), OPENAI_API_KEY: 'dummy', RUST_LOG: 'error' });
