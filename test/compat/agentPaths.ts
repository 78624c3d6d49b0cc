// Where the pinned compat agents are installed (test/compat/run.mjs) and how Codex is
// started against a fake model server: shared by the node-level compat tests and the
// real-extension suite (test/integration/compat.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeServer } from './fakeModels';

/** Where test/compat/run.mjs installs the agents (it always passes this variable). */
export const CACHE =
  process.env.TANDEM_COMPAT_CACHE ||
  join(process.env.TANDEM_TEST_CACHE || join(homedir(), '.cache', 'tandem-test'), 'compat');
export const CLAUDE_CODE_ACP = join(
  CACHE,
  'claude-code-acp-0.16.2',
  'node_modules',
  '@zed-industries',
  'claude-code-acp',
  'dist',
  'index.js',
);
export const GEMINI_CLI = join(
  CACHE,
  'gemini-cli-0.61.0',
  'node_modules',
  '@google',
  'gemini-cli',
  'bundle',
  'gemini.js',
);
/** codex-acp's launcher script (it starts the native binary of @zed-industries/codex-acp-<platform>). */
export const CODEX_ACP = join(
  CACHE,
  'codex-acp-0.16.0',
  'node_modules',
  '@zed-industries',
  'codex-acp',
  'bin',
  'codex-acp.js',
);

/** claude-agent-acp (the successor of claude-code-acp; it brings Claude Code as a native binary). */
export const CLAUDE_AGENT_ACP = join(
  CACHE,
  'claude-agent-acp-0.100.0',
  'node_modules',
  '@agentclientprotocol',
  'claude-agent-acp',
  'dist',
  'index.js',
);
/** claude-agent-acp 0.101.0: the first with steering (`_session/steering`, advertised in initialize `_meta`). */
export const CLAUDE_AGENT_ACP_101 = join(
  CACHE,
  'claude-agent-acp-0.101.0',
  'node_modules',
  '@agentclientprotocol',
  'claude-agent-acp',
  'dist',
  'index.js',
);
/** claude-agent-acp needs Node ≥ 22: test/compat/run.mjs passes the Node 24 the VS Code harness installs. */
export const AGENT_NODE = process.env.TANDEM_AGENT_NODE ?? '';

/** claude-code-acp against a fake Anthropic server, with a throwaway HOME (docs/ACP-NOTES.md). */
export const claudeCodeEnv = (model: FakeServer, home: string): Record<string, string> => ({
  ANTHROPIC_BASE_URL: model.url,
  ANTHROPIC_API_KEY: 'dummy',
  HOME: home,
  IS_SANDBOX: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
});

/** claude-agent-acp against a fake Anthropic server (ENABLE_TOOL_SEARCH=false: MCP tools are
 *  declared to the model instead of hiding behind a search tool). */
export const claudeAgentEnv = (model: FakeServer, home: string) => ({
  ...claudeCodeEnv(model, home),
  ENABLE_TOOL_SEARCH: 'false',
});

/**
 * Codex keeps state and helper binaries in CODEX_HOME, and refuses a home under /tmp: its sandbox
 * (bubblewrap) mounts a fresh /tmp, so its own helper (codex-linux-sandbox) would vanish inside
 * it. A test cache under /tmp (CI's empty one, say) therefore keeps Codex homes elsewhere.
 */
export function codexHome(): string {
  mkdirSync(CACHE, { recursive: true });
  const underTmp = realpathSync(CACHE).startsWith(`${realpathSync(tmpdir())}/`);
  const base = underTmp ? join(homedir(), '.cache', 'tandem-test-codex-homes') : CACHE;
  mkdirSync(base, { recursive: true });
  const home = mkdtempSync(join(base, 'codex-home-'));
  mkdirSync(join(home, '.codex'));
  return home;
}

export function codexArgs(model: FakeServer): string[] {
  return [
    CODEX_ACP,
    '-c',
    `model_providers.fake={name="fake",base_url="${model.url}/v1",wire_api="responses",env_key="OPENAI_API_KEY"}`,
    '-c',
    'model_provider="fake"',
    '-c',
    'model="gpt-5.5"',
  ];
}

export const codexEnv = (home: string) => ({
  HOME: home,
  CODEX_HOME: join(home, '.codex'),
  OPENAI_API_KEY: 'dummy',
  RUST_LOG: 'error',
});

/** Why Codex's Linux sandbox (bubblewrap) cannot run here, or undefined when it can: without it
 *  every Codex command and patch fails, so the tests say this instead of a sandbox error. */
export function codexSandboxProblem(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const r = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
    encoding: 'utf8',
  });
  if (r.error)
    return 'Codex sandboxes with bubblewrap and there is no bwrap on PATH: apt-get install bubblewrap (test/harness/install.mjs installs it)';
  if (r.status !== 0)
    return `Codex sandboxes with bubblewrap, which cannot run here: ${r.stderr.trim() || `exit ${r.status}`}`;
  return undefined;
}
