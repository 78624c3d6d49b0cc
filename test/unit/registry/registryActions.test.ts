// The registry's failure notifications as VS Code shows them (a fake `vscode`): the buttons each
// offers and what they do (Retry runs again, Open Settings opens tandem.registry.url, Show Log
// shows the log), and an update said by the agent's name, never its registry id.
import './fakeVscodeCommands';
import { state, vscodeFake } from '../security/fakeVscode';
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLogger } from '../../../src/common/logger';
import type { Catalog } from '../../../src/registry/browse';
import { ArchiveRefusedError } from '../../../src/registry/archiveRefusal';
import { RegistryLoadError } from '../../../src/registry/catalog';
import { npmFailure } from '../../../src/registry/npm';
import type { RegistryService } from '../../../src/registry/service';
import { RegistryActions } from '../../../src/vscode/registry/registryActions';
import { until } from '../../support/until';

/** Each error notification: its text and the buttons it offers. */
const errors: { text: string; buttons: string[] }[] = [];
const settingsOpened: unknown[] = [];
const progressTitles: string[] = [];

beforeEach(() => {
  errors.length = 0;
  settingsOpened.length = 0;
  progressTitles.length = 0;
  state.commands = [];
  state.answers = [];
  const window = vscodeFake.window as Record<string, unknown>;
  window.showErrorMessage = async (text: string, ...buttons: string[]) => {
    errors.push({ text, buttons });
    return state.answers.shift();
  };
  const progress = window.withProgress as (o: unknown, task: unknown) => Promise<unknown>;
  if (!('recording' in progress))
    window.withProgress = Object.assign(
      (o: { title: string }, task: unknown) => {
        progressTitles.push(o.title);
        return progress(o, task);
      },
      { recording: true },
    );
  const commands = vscodeFake.commands as Record<string, unknown>;
  commands.executeCommand = async (id: string, ...args: unknown[]) => {
    state.commands.push(id);
    if (id === 'workbench.action.openSettings') settingsOpened.push(args[0]);
  };
});

function actions(service: Partial<RegistryService>, logger = new MemoryLogger()) {
  const runner = {
    agent: { state: 'none' },
    start: async () => undefined,
    isRunning: () => false,
    stopAgent: async () => undefined,
  };
  return new RegistryActions(service as RegistryService, {
    context: {} as never,
    logger,
    runner,
    signIn: async () => undefined,
    showView: () => undefined,
  });
}

const installed = [
  { id: 'claude-code-acp', version: '0.16.2', kind: 'npx' as const, agentName: 'Claude Code', installedAt: 0 },
];
const catalog = {
  rows: [{ id: 'claude-code-acp', name: 'Claude Code (registry)', version: '0.17.0' }],
} as unknown as Catalog;

test('a failed update says the agent’s name and that its version stays; Show Log shows the log', async () => {
  const logger = new MemoryLogger();
  const npmLines = [
    'npm error code ETARGET',
    'npm error A complete log of this run can be found in: /root/.npm/_logs/x.log',
  ];
  const a = actions(
    {
      installed: async () => installed,
      update: async () => {
        throw npmFailure(npmLines, 1, '@zed-industries/claude-code-acp', '0.17.0');
      },
    },
    logger,
  );
  state.answers = ['Show Log'];
  assert.deepEqual(await a.updateAll(['claude-code-acp'], catalog), []);
  await until(() => state.commands.includes('tandem.showLog'), 2000, 'Show Log ran tandem.showLog');
  assert.equal(errors.length, 1);
  assert.equal(
    errors[0].text,
    'Tandem could not update Claude Code to 0.17.0: npm install failed: the npm registry has no version 0.17.0 of ' +
      "@zed-industries/claude-code-acp. npm's full output is in the log. Claude Code 0.16.2 stays installed.",
  );
  assert.doesNotMatch(errors[0].text, /update claude-code-acp|_logs/, 'not the registry id, not npm’s log path');
  assert.deepEqual(progressTitles, ['Updating Claude Code']);
  assert.deepEqual(errors[0].buttons, ['Show Log']);
  assert.ok(
    logger.records.some((r) => r.level === 'error' && /ETARGET/.test(r.message)),
    'the log keeps npm’s code',
  );
});

test('a registry that cannot load offers Retry and Open Settings (tandem.registry.url)', async () => {
  const a = actions({});
  const err = new RegistryLoadError(
    'https://cdn.example/registry.json',
    'the server refused the connection',
    'fetch failed (ECONNREFUSED)',
    false,
  );
  let retried = 0;
  state.answers = ['Retry'];
  a.showLoadError(err, () => retried++);
  await until(() => retried === 1, 2000, 'Retry ran again');
  assert.deepEqual(errors[0].buttons, ['Retry', 'Open Settings']);
  assert.match(
    errors[0].text,
    /^Tandem could not load the ACP Registry from cdn\.example: the server refused the connection\./,
  );
  assert.match(errors[0].text, /tandem\.registry\.url/);
  state.answers = ['Open Settings'];
  a.showLoadError(err, () => retried++);
  await until(() => settingsOpened.length === 1, 2000, 'Open Settings opened the settings');
  assert.deepEqual(settingsOpened, ['tandem.registry.url']);
  assert.equal(retried, 1);
});

test('an install by id (a command, no list shown) is said by the registry’s name for the agent', async () => {
  const asked: unknown[] = [];
  const a = actions({
    catalog: async (o) => {
      asked.push(o?.maxAgeMs);
      return { rows: [{ id: 'tiny-agent', name: 'Tiny Agent', version: '1.0.0' }] } as unknown as Catalog;
    },
    install: async () => {
      throw new ArchiveRefusedError('outside', '../evil', 'its path climbs out with ".."');
    },
  });
  assert.equal(await a.install('tiny-agent'), undefined);
  await until(() => errors.length === 1, 2000, 'the error is shown');
  assert.equal(
    errors[0].text,
    'Tandem did not install Tiny Agent: the archive was refused because it tried to write outside its folder ' +
      '(entry "../evil": its path climbs out with ".."). Nothing was installed.',
  );
  assert.deepEqual(asked, [Number.POSITIVE_INFINITY], 'the saved list names it: no fetch for a name');
});
