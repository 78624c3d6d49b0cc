// "Tandem: Add Agent from Registry…" in the real VS Code, clicked as a person would: the list of
// a registry served on 127.0.0.1 (registry format; icons; an agent for another platform, one that
// needs uv), installing the tiny binary agent from it (pick, Install, sign in right after), the
// update it then offers, and the list offline from its cache. Screenshots under test-results/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { agentReply, runCommand, sendPrompt } from '../harness/codeServer.mjs';

const require = createRequire(import.meta.url);
const REPO = join(import.meta.dirname, '..', '..');
const { serveRegistry, tinyAgentArchive } = require(join(REPO, 'out/test/support/registryServer.js'));
const { sha256 } = require(join(REPO, 'out/test/support/archives.js'));
const { platformKey } = require(join(REPO, 'out/src/registry/plan.js'));
const { PLATFORM_KEYS } = require(join(REPO, 'out/src/registry/types.js'));

const here = platformKey();
const elsewhere = PLATFORM_KEYS.find((p) => p !== here);
const srv = await serveRegistry();
const agentJs = readFileSync(join(REPO, 'out/test/fixtures/agents/auth-agent.js'));
const v1 = tinyAgentArchive('tar.gz', agentJs);
const v2 = tinyAgentArchive('tar.gz', Buffer.concat([agentJs, Buffer.from('\n// 1.1.0\n')]));
srv.set('/tiny-1.0.0.tar.gz', v1);
srv.set('/tiny-1.1.0.tar.gz', v2);
const icon = (shape) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">${shape}</svg>`;
srv.set('/icons/tiny.svg', icon('<circle cx="8" cy="8" r="6" fill="currentColor"/>'));
srv.set('/icons/claude.svg', icon('<path d="M8 1l2 5h5l-4 3 2 6-5-4-5 4 2-6-4-3h5z" fill="currentColor"/>'));
srv.set('/icons/cursor.svg', icon('<rect x="2" y="2" width="12" height="12" rx="2" fill="currentColor"/>'));

function publish(tinyVersion) {
  const tinyArchive = tinyVersion === '1.0.0' ? '/tiny-1.0.0.tar.gz' : '/tiny-1.1.0.tar.gz';
  srv.set('/registry.json', {
    version: '1.0.0',
    agents: [
      {
        id: 'claude-code-acp',
        name: 'Claude Code',
        version: '0.16.2',
        description: "ACP wrapper for Anthropic's Claude",
        repository: 'https://github.com/zed-industries/claude-code-acp',
        authors: ['Anthropic'],
        license: 'proprietary',
        icon: `${srv.url}/icons/claude.svg`,
        distribution: { npx: { package: '@zed-industries/claude-code-acp@0.16.2' } },
      },
      {
        id: 'cursor',
        name: 'Cursor',
        version: '2026.07.23',
        description: "Cursor's coding agent",
        authors: ['Cursor'],
        license: 'proprietary',
        icon: `${srv.url}/icons/cursor.svg`,
        distribution: {
          binary: {
            [elsewhere]: {
              archive: `${srv.url}/cursor.tar.gz`,
              cmd: './dist-package/cursor-agent',
              args: ['acp'],
              sha256: sha256(v1),
            },
          },
        },
      },
      {
        id: 'fast-agent',
        name: 'fast-agent',
        version: '0.6.12',
        description: 'Code and build agents with comprehensive multi-provider support $(zap)',
        authors: ['enquiries@fast-agent.ai'],
        license: 'Apache 2.0',
        distribution: { uvx: { package: 'fast-agent-acp==0.6.12', args: ['-x'] } },
      },
      {
        id: 'tiny-agent',
        name: 'Tiny Agent',
        version: tinyVersion,
        description: 'A tiny ACP agent that asks you to sign in',
        authors: ['Tandem tests'],
        license: 'MIT',
        icon: `${srv.url}/icons/tiny.svg`,
        distribution: {
          binary: {
            [here]: {
              archive: `${srv.url}${tinyArchive}`,
              cmd: './bin/agent',
              sha256: sha256(tinyVersion === '1.0.0' ? v1 : v2),
            },
          },
        },
      },
    ],
  });
}
publish('1.0.0');

const rows = (page) => page.locator('.quick-input-list .monaco-list-row');
const row = (page, label) => page.locator(`.quick-input-list .monaco-list-row[aria-label^="${label}"]`).first();

/** Opens the registry list and waits until it has loaded (and its icons had a moment). */
async function openList(page) {
  await runCommand(page, 'Tandem: Add Agent from Registry…');
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: 'ACP Registry' })
    .waitFor({ timeout: 20_000 });
  await row(page, 'Tiny Agent').waitFor({ timeout: 10_000 });
  await page.mouse.move(700, 700); // no hover tooltip over the list in the screenshots
  // Icons arrive after the list: wait for one drawn from the registry's SVGs (kept under Tandem's storage).
  await page
    .locator('.quick-input-list .quick-input-list-icon[style*="registry%2Ficons"]')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => {
      throw new Error('no registry icon was drawn in the list');
    });
}

async function listText(page) {
  return (await rows(page).allInnerTexts()).join('\n');
}

export default {
  userSettings: () => ({ 'tandem.registry.url': `${srv.url}/registry.json` }),
  env: () => ({ TANDEM_REGISTRY_ALLOW_LOOPBACK_HTTP: '1' }),
  tests: [
    {
      name: 'the list shows every agent with icon, version, vendor, license and what it is on this machine',
      timeoutMs: 60_000,
      async run({ page, screenshot, log }) {
        await openList(page);
        const text = await listText(page);
        for (const want of [
          'Claude Code',
          'v0.16.2 · Anthropic · proprietary',
          'installs via npm @zed-industries/claude-code-acp@0.16.2',
          'Tiny Agent',
          `installs via ${here} download, SHA-256 checked`,
          `not available: no build for ${here} (builds: ${elsewhere})`,
          'uv is not on PATH',
        ])
          if (!text.includes(want)) throw new Error(`the list lacks "${want}":\n${text}`);
        if (!text.includes('$\u200b(zap)')) throw new Error(`registry text with $(…) must show as text:\n${text}`);
        const title = await page.locator('.quick-input-widget .quick-input-title').innerText();
        if (/offline/.test(title)) throw new Error(`online list marked offline: ${title}`);
        log(`screenshot: ${await screenshot('e2e-registry-browse')}`);
      },
    },
    {
      name: 'picking an agent and Install installs it, then its sign-in follows and it answers',
      timeoutMs: 90_000,
      async run({ page, view, screenshot, log }) {
        await row(page, 'Tiny Agent').click();
        const install = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Install Tiny Agent 1.0.0' });
        await install.waitFor({ timeout: 10_000 });
        log(`screenshot: ${await screenshot('e2e-registry-actions')}`);
        await install.click();
        // The agent answers "authentication required": the sign-in methods follow at once.
        const signIn = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Sign in with the browser' });
        await signIn.waitFor({ timeout: 30_000 });
        log(`screenshot: ${await screenshot('e2e-registry-sign-in')}`);
        await signIn.click();
        await sendPrompt(view, 'who am I?');
        await agentReply(view, 'Signed in (browser).');
      },
    },
    {
      name: 'a newer version in the registry shows as an update',
      timeoutMs: 60_000,
      async run({ page, screenshot, log }) {
        publish('1.1.0');
        await openList(page);
        const text = await listText(page);
        if (!text.includes('update 1.0.0 → 1.1.0')) throw new Error(`no update shown:\n${text}`);
        log(`screenshot: ${await screenshot('e2e-registry-update')}`);
        await page.keyboard.press('Escape');
      },
    },
    {
      name: 'offline, the cached list shows with "offline, list from <date>"',
      timeoutMs: 60_000,
      async run({ page, screenshot, log }) {
        await srv.close();
        await openList(page);
        const title = await page.locator('.quick-input-widget .quick-input-title').innerText();
        if (!/offline, list from \d{4}-\d\d-\d\d \d\d:\d\d/.test(title)) throw new Error(`title: ${title}`);
        const text = await listText(page);
        if (!/offline, list from .*Could not reach 127\.0\.0\.1:\d+.*Pick this line to try again/s.test(text))
          throw new Error(`no offline line in the list:\n${text}`);
        if (!text.includes('update 1.0.0 → 1.1.0')) throw new Error(`the cached list lost its rows:\n${text}`);
        log(`screenshot: ${await screenshot('e2e-registry-offline')}`);
        await page.keyboard.press('Escape');
      },
    },
  ],
};
