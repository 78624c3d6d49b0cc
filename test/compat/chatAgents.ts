// The compat agents that talk to an OpenAI-compatible Chat Completions server (opencode, Qwen Code,
// Kilo Code CLI): where test/compat/run.mjs installs them, and how each is started in ACP mode
// against the fake of test/compat/fakeChat.ts with a throwaway HOME (its config files there;
// telemetry, update checks and sharing off; asking before it edits a file or runs a command).
// Quirks and the reasons for each setting: docs/ACP-NOTES.md, "opencode, Qwen Code and Kilo".
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_NODE, CACHE } from './agentPaths';
import type { ChatServer } from './fakeChat';

/** How an agent is started: what `tandem.agents` (or the compat AgentClient) gets. */
export interface AgentLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

const PLATFORM = { linux: 'linux', darwin: 'darwin', win32: 'windows' }[process.platform as string] ?? process.platform;
const EXE = process.platform === 'win32' ? '.exe' : '';

/** CPUs without AVX2 need opencode's `-baseline` build (what its postinstall would pick). */
function hasAvx2(): boolean {
  try {
    return process.platform !== 'linux' || /(^|\s)avx2(\s|$)/.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
}

/**
 * opencode's native binary, from its platform package. The npm launcher (`bin/opencode.exe`) is
 * put in place by a postinstall script, which the compat install skips (`--ignore-scripts`).
 */
export function opencodeBinary(): string {
  const pkg = join(CACHE, 'opencode-1.18.33', 'node_modules', `opencode-${PLATFORM}-${process.arch}`);
  const plain = join(pkg, 'bin', `opencode${EXE}`);
  const baseline = join(`${pkg}-baseline`, 'bin', `opencode${EXE}`);
  return !hasAvx2() && existsSync(baseline) ? baseline : plain;
}
export const OPENCODE = opencodeBinary();

/** Qwen Code's entry script (plain JS; Node ≥ 22). */
export const QWEN_CODE = join(CACHE, 'qwen-code-0.24.4', 'node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js');

/** Kilo's native binary, from its platform package (its `bin/kilo` is a Node launcher that finds it). */
export const KILO = join(
  CACHE,
  'kilo-cli-7.7.7',
  'node_modules',
  '@kilocode',
  `cli-${PLATFORM}-${process.arch}`,
  'bin',
  `kilo${EXE}`,
);

/** The provider entry opencode and Kilo share (both bundle `@ai-sdk/openai-compatible`). */
function fakeProvider(model: ChatServer) {
  return {
    fake: {
      npm: '@ai-sdk/openai-compatible',
      name: 'Fake',
      options: { baseURL: `${model.url}/v1`, apiKey: 'dummy' },
      models: Object.fromEntries(model.models.map((id) => [id, { name: id, tool_call: true }])),
    },
  };
}

/** XDG folders inside the throwaway HOME, whatever the outer environment says. */
const xdg = (home: string) => ({
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_CACHE_HOME: join(home, '.cache'),
  XDG_STATE_HOME: join(home, '.local', 'state'),
});

function writeJson(path: string, value: unknown): string {
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

/** opencode's config file (Kilo, its fork, reads the same): the fake provider, asking before edits and commands. */
function opencodeConfig(model: ChatServer, schema: string): Record<string, unknown> {
  return {
    $schema: schema,
    autoupdate: false,
    share: 'disabled',
    provider: fakeProvider(model),
    model: `fake/${model.models[0]}`,
    small_model: `fake/${model.models[0]}`,
    permission: { edit: 'ask', bash: 'ask' },
  };
}

/**
 * `opencode acp`. Its default permissions allow every edit and command: `permission` set to `ask`
 * makes it send session/request_permission before each (what Tandem is tested with).
 */
export function opencodeLaunch(model: ChatServer, home: string): AgentLaunch {
  const config = writeJson(join(home, 'opencode.json'), opencodeConfig(model, 'https://opencode.ai/config.json'));
  return {
    command: OPENCODE,
    args: ['acp'],
    env: {
      ...xdg(home),
      OPENCODE_CONFIG: config,
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    },
  };
}

/** `kilo acp`: opencode's fork, configured the same way, plus its own telemetry and daemon switches. */
export function kiloLaunch(model: ChatServer, home: string): AgentLaunch {
  const config = writeJson(join(home, 'kilo.json'), opencodeConfig(model, 'https://app.kilo.ai/config.json'));
  return {
    command: KILO,
    args: ['acp'],
    env: {
      ...xdg(home),
      KILO_CONFIG: config,
      KILO_TELEMETRY_LEVEL: 'off',
      KILO_NO_DAEMON: '1',
      KILO_DISABLE_AUTOUPDATE: '1',
      KILO_DISABLE_MODELS_FETCH: '1',
      KILO_DISABLE_LSP_DOWNLOAD: '1',
      KILO_DISABLE_SHARE: '1',
      KILO_DISABLE_SESSION_INGEST: '1',
      KILO_DISABLE_DEFAULT_PLUGINS: '1',
    },
  };
}

/**
 * `qwen --acp --approval-mode default` on `node` (≥ 22): "default" asks before edits and commands;
 * "auto" would let its LLM classifier approve them. The OpenAI auth type with a key in the env
 * needs no sign-in. Its managed auto-memory and follow-up suggestions are off: after each turn
 * they ask the model again (with tools), requests the tests' scripts do not plan for.
 */
export function qwenLaunch(model: ChatServer, home: string, node = AGENT_NODE || process.execPath): AgentLaunch {
  mkdirSync(join(home, '.qwen'), { recursive: true });
  writeJson(join(home, '.qwen', 'settings.json'), {
    security: { auth: { selectedType: 'openai' } },
    model: { name: model.models[0] },
    modelProviders: {
      openai: model.models.map((id) => ({ id, name: id, baseUrl: `${model.url}/v1`, envKey: 'OPENAI_API_KEY' })),
    },
    memory: { enableManagedAutoMemory: false },
    ui: { enableFollowupSuggestions: false },
    general: { enableAutoUpdate: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  });
  return {
    command: node,
    args: [QWEN_CODE, '--acp', '--approval-mode', 'default'],
    env: { HOME: home, OPENAI_API_KEY: 'dummy' },
  };
}
