// "Ask Several Agents…" in the real VS Code, as a user runs it: the palette command, three agents
// ticked in the multi-select, the prompt typed; each agent works in a worktree of its own and the
// comparison panel shows them side by side (status, branch, files with +/−, final message). Then
// "Run Tests" in two columns (the workspace's test task passes only where Alpha's file is), and
// "Apply This One" on Alpha: the mode pick, the modal about the others, Alpha's work in the tree.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerQuickInput as answer, runCommand } from '../harness/codeServer.mjs';
import { git, initRepo } from '../../out/test/support/gitRepo.js';
import { until } from '../../out/test/support/until.js';

const MATH_ALPHA = `export function add(a: number, b: number): number {
  return a + b;
}

export function mean(values: number[]): number {
  if (values.length === 0) throw new Error('mean of an empty list');
  return values.reduce(add, 0) / values.length;
}

export { median } from './median';
`;
const MEDIAN = `export function median(values: number[]): number {
  if (values.length === 0) throw new Error('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
`;
const MATH_BETA = `export function add(a: number, b: number): number {
  return a + b;
}

export function mean(values: number[]): number {
  if (values.length === 0) return NaN;
  return values.reduce(add, 0) / values.length;
}
`;

const dir = mkdtempSync(join(tmpdir(), 'tandem-e2e-ask-'));
const write = (path, content) => ({
  request: 'fs/write_text_file',
  params: { sessionId: '${sessionId}', path, content },
  as: path.replace(/\W/g, '_'),
});
function script(name, steps) {
  const file = join(dir, `${name}.json`);
  // Session ids unique across the agents, as real agents' are (the comparison tells sessions apart by id).
  const newSession = { sessionId: `${name}-\${runtime.pid}-\${n}` };
  writeFileSync(file, JSON.stringify({ name, newSession, prompts: [{ match: 'median', steps }] }));
  return file;
}
const ALPHA = script('alpha', [
  write('src/median.ts', MEDIAN),
  write('src/math.ts', MATH_ALPHA),
  {
    stream:
      'Added median() in src/median.ts and exported it from src/math.ts.\n\n' +
      "- sorts a copy, never the caller's array\n- throws on an empty list, like mean()\n\n" +
      'Tests: <none yet> — run the workspace test task to check.',
    chunk: 12,
  },
]);
const BETA = script('beta', [
  write('src/math.ts', MATH_BETA),
  {
    stream:
      'I changed mean() to return NaN for an empty list instead of throwing, so median() can build on it.\n' +
      'I did not add median() itself yet.',
    chunk: 12,
  },
]);
const GAMMA = script('gamma', [
  { stream: 'Looking at src/math.ts…', chunk: 8 },
  { fail: { code: -32603, message: 'Internal error: the model is overloaded, try again later' } },
]);

/** The comparison panel's page: the webview frame (outer iframe → #active-frame) that holds it. */
async function comparisonFrame(page) {
  let found;
  await until(
    async () => {
      for (const f of page.frames())
        if (
          await f
            .locator('[data-testid="comparison"]')
            .count()
            .catch(() => 0)
        ) {
          found = f;
          return true;
        }
      return false;
    },
    90_000,
    'the comparison panel',
    250,
  );
  return found;
}

const column = (frame, agent) =>
  frame.locator('[data-testid="column"]', { has: frame.locator('[data-testid="agent"]', { hasText: agent }) });

export default {
  userSettings: ({ repo, node }) => ({
    'tandem.agents': [
      { name: 'Alpha', command: node, args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), ALPHA] },
      { name: 'Beta', command: node, args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), BETA] },
      { name: 'Gamma', command: node, args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), GAMMA] },
    ],
    'tandem.defaultAgent': 'Alpha',
  }),
  tests: [
    {
      name: 'three agents, one prompt, a worktree each: compared side by side, tests run, one applied',
      timeoutMs: 240_000,
      async run({ openTandemView, view, page, screenshot, log, workspace, node }) {
        // The workspace's test task: passes where Alpha's median.ts exists.
        const tasksJson = join(workspace, '.vscode', 'tasks.json');
        const tasks = JSON.parse(readFileSync(tasksJson, 'utf8'));
        tasks.tasks.push({
          label: 'unit tests',
          type: 'process',
          command: node,
          args: ['-e', "process.exit(require('fs').existsSync('src/median.ts') ? 0 : 1)"],
          group: { kind: 'test', isDefault: true },
          problemMatcher: [],
          presentation: { reveal: 'never', panel: 'dedicated' },
        });
        writeFileSync(tasksJson, JSON.stringify(tasks, null, 2));
        initRepo(workspace);
        await openTandemView();
        await view.locator('[data-testid="composer-input"]').waitFor({ timeout: 45_000 });

        await runCommand(page, 'Tandem: Ask Several Agents…');
        const input = page.locator('.quick-input-widget input').first();
        await input.waitFor({ state: 'visible', timeout: 10_000 });
        for (const name of ['Alpha', 'Beta', 'Gamma'])
          await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
        log(`screenshot: ${await screenshot('e2e-ask-several-pick')}`);
        await input.press('Enter');
        await answer(page, 'Add a median() next to mean() in src/math.ts');

        const frame = await comparisonFrame(page);
        const status = (agent, state) => column(frame, agent).locator(`[data-testid="status"][data-status="${state}"]`);
        await status('Alpha', 'done').waitFor({ timeout: 90_000 });
        await status('Beta', 'done').waitFor({ timeout: 90_000 });
        await status('Gamma', 'failed').waitFor({ timeout: 90_000 });
        // The changes are read when a turn ends: wait for Alpha's two files.
        await column(frame, 'Alpha').locator('.file').nth(1).waitFor({ timeout: 20_000 });
        const alphaText = await column(frame, 'Alpha').innerText();
        for (const want of ['src/median.ts', 'src/math.ts', 'tandem/add-a-median-next-to-alpha', '<none yet>'])
          if (!alphaText.includes(want)) throw new Error(`Alpha's column lacks ${want}: ${alphaText}`);
        const gammaText = await column(frame, 'Gamma').innerText();
        if (!gammaText.includes('the model is overloaded')) throw new Error(`Gamma's column: ${gammaText}`);
        // Escaped text, not HTML: the "<none yet>" of the message is no element.
        if ((await frame.locator('none').count()) !== 0) throw new Error('the message was rendered as HTML');
        log(`screenshot: ${await screenshot('e2e-ask-several-compare')}`);

        await column(frame, 'Alpha').locator('[data-testid="runTests"]').click();
        await column(frame, 'Beta').locator('[data-testid="runTests"]').click();
        await column(frame, 'Alpha').locator('[data-testid="tests"][data-state="passed"]').waitFor({ timeout: 30_000 });
        await column(frame, 'Beta').locator('[data-testid="tests"][data-state="failed"]').waitFor({ timeout: 30_000 });
        log(`screenshot: ${await screenshot('e2e-ask-several-tests')}`);

        await column(frame, 'Alpha').locator('[data-testid="apply"]').click();
        await answer(page, 'As uncommitted', { pick: 'As uncommitted changes' });
        const dialog = page.locator('.monaco-dialog-box');
        await dialog.waitFor({ timeout: 20_000 });
        const question = await dialog.innerText();
        if (!question.includes('Discard the other 2 worktrees?')) throw new Error(`the dialog says: ${question}`);
        log(`screenshot: ${await screenshot('e2e-ask-several-discard-question')}`);
        await dialog.locator('.monaco-button', { hasText: 'Discard Them' }).click();
        await until(() => existsSync(join(workspace, 'src', 'median.ts')), 20_000, "Alpha's median.ts applied");
        if (!readFileSync(join(workspace, 'src', 'math.ts'), 'utf8').includes("export { median } from './median';"))
          throw new Error("Alpha's math.ts was not applied");
        await status('Beta', 'discarded').waitFor({ timeout: 30_000 });
        await status('Gamma', 'discarded').waitFor({ timeout: 30_000 });
        await column(frame, 'Alpha').locator('[data-testid="applied"]').waitFor({ timeout: 10_000 });
        const left = git(workspace, 'worktree', 'list', '--porcelain')
          .split('\n')
          .filter((l) => l.startsWith('worktree '));
        if (left.length !== 2) throw new Error(`expected the main tree and Alpha's worktree, got ${left.join(', ')}`);
        log(`screenshot: ${await screenshot('e2e-ask-several-applied')}`);

        // The comparison outlives a reload: VS Code keeps the tab, Tandem's serializer refills it.
        await runCommand(page, 'Developer: Reload Window');
        await until(() => frame.isDetached(), 30_000, 'the old page to go', 100);
        const again = await comparisonFrame(page);
        await column(again, 'Alpha').locator('[data-testid="applied"]').waitFor({ timeout: 60_000 });
        await column(again, 'Alpha').locator('.file').nth(1).waitFor({ timeout: 30_000 });
        // The codicon font of the new page loads after its first paint.
        await again.evaluate(() => document.fonts.ready.then(() => undefined));
        log(`screenshot: ${await screenshot('e2e-ask-several-after-reload')}`);
      },
    },
  ],
};
