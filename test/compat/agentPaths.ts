// Where the pinned compat agents are installed (test/compat/run.mjs) and how Codex is
// started against a fake model server: shared by the node-level compat tests and the
// real-extension suite (test/integration/compat.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
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
/** codex-acp (one JS bundle; it starts the Codex app server, the native binary of @openai/codex). */
export const CODEX_ACP = join(
  CACHE,
  'codex-acp-2.6.0',
  'node_modules',
  '@agentclientprotocol',
  'codex-acp',
  'dist',
  'index.js',
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
 * The fake model as Codex's model catalog describes it. A model the catalog does not know gets
 * fallback tools (no apply_patch); a known one (gpt-5.5) hides MCP tools behind `tool_search`.
 * This one declares apply_patch (freeform) and MCP tools directly, as codex-acp 0.16.0 did.
 */
const FAKE_CODEX_MODEL = {
  slug: 'tandem-fake',
  display_name: 'Tandem fake',
  description: "The compat tests' fake model",
  base_instructions: 'You are Codex, a coding agent.',
  apply_patch_tool_type: 'freeform',
  supports_search_tool: false,
  shell_type: 'shell_command',
  visibility: 'list',
  supported_in_api: true,
  priority: 1,
  supported_reasoning_levels: [],
  default_reasoning_level: null,
  context_window: 272000,
  truncation_policy: { mode: 'tokens', limit: 10000 },
  supports_parallel_tool_calls: false,
  experimental_supported_tools: [],
  input_modalities: ['text'],
  support_verbosity: false,
};

/**
 * Codex keeps state and helper binaries in CODEX_HOME, and refuses a home under /tmp: its sandbox
 * (bubblewrap) mounts a fresh /tmp, so its own helper (codex-linux-sandbox) would vanish inside
 * it. A test cache under /tmp (CI's empty one, say) therefore keeps Codex homes elsewhere.
 * Its config.toml picks the fake model from a catalog of that one model (read by the app server,
 * which CODEX_CONFIG does not reach).
 */
export function codexHome(): string {
  mkdirSync(CACHE, { recursive: true });
  const underTmp = realpathSync(CACHE).startsWith(`${realpathSync(tmpdir())}/`);
  const base = underTmp ? join(homedir(), '.cache', 'tandem-test-codex-homes') : CACHE;
  mkdirSync(base, { recursive: true });
  const home = mkdtempSync(join(base, 'codex-home-'));
  const codexDir = join(home, '.codex');
  mkdirSync(codexDir);
  const catalog = join(codexDir, 'tandem-fake-model.json');
  writeFileSync(catalog, JSON.stringify({ models: [FAKE_CODEX_MODEL] }));
  writeFileSync(
    join(codexDir, 'config.toml'),
    `model = "${FAKE_CODEX_MODEL.slug}"\nmodel_catalog_json = ${JSON.stringify(catalog)}\n`,
  );
  return home;
}

export function codexArgs(): string[] {
  return [CODEX_ACP];
}

/**
 * codex-acp reads no command-line options: the fake model provider goes in CODEX_CONFIG (passed to
 * the app server as `-c` overrides; a provider with an `env_key` needs no sign-in). A new session
 * starts in Read Only, as with codex-acp 0.16.0: its own default, "agent" (Auto review), has the
 * model judge each risky action in side requests the fake server is not scripted for.
 */
export const codexEnv = (home: string, model: FakeServer) => ({
  HOME: home,
  CODEX_HOME: join(home, '.codex'),
  OPENAI_API_KEY: 'dummy',
  RUST_LOG: 'error',
  INITIAL_AGENT_MODE: 'read-only',
  CODEX_CONFIG: JSON.stringify({
    model_provider: 'fake',
    model_providers: {
      fake: { name: 'fake', base_url: `${model.url}/v1`, wire_api: 'responses', env_key: 'OPENAI_API_KEY' },
    },
  }),
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
