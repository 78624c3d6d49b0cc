// A session in a worktree of its own, in the real VS Code, as a user runs it: "New Session in
// Worktree…" from the palette with the Demo agent, a turn whose edit lands in the worktree and
// not in the user's tree, the branch in the header and in the Sessions view, the worktree's
// changes in the multi-file diff, "Apply Worktree to My Workspace…" bringing them back, a window
// reload that brings the session back in its worktree, and a merge that meets the user's own
// version of the file opening in the merge editor.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerQuickInput as answer, runCommand } from '../harness/codeServer.mjs';
import { git, initRepo } from '../../out/test/support/gitRepo.js';
import { until } from '../../out/test/support/until.js';

export default {
  userSettings: () => ({}),
  tests: [
    {
      name: 'a Demo session in its own worktree: edits stay there until Apply brings them back',
      timeoutMs: 180_000,
      async run({ openTandemView, view, page, screenshot, log, workspace }) {
        initRepo(workspace);
        await openTandemView();
        await view.locator('[data-testid="empty-session"]').waitFor({ timeout: 45_000 });

        await runCommand(page, 'Tandem: New Session in Worktree…');
        await answer(page, 'Demo', { pick: 'Demo' });
        await answer(page, 'polish the demo');
        // The new session shows its branch beside its title.
        const place = view.locator('[data-testid="session-place"]');
        await place.waitFor({ timeout: 45_000 });
        const branch = (await place.innerText()).trim();
        if (branch !== 'tandem/polish-the-demo') throw new Error(`the header shows ${JSON.stringify(branch)}`);

        await view.locator('[data-testid="example-prompt"]', { hasText: 'Show me what you can do' }).click();
        const allow = view.locator(
          '[data-testid="permission-prompt"] [data-testid="permission-option"][data-kind="allow_once"]',
        );
        await allow.first().waitFor({ timeout: 60_000 });
        await allow.first().click();
        await view.locator('[data-testid="cancel"]').waitFor({ state: 'detached', timeout: 60_000 });
        const worktree = git(workspace, 'worktree', 'list', '--porcelain')
          .split('\n')
          .filter((l) => l.startsWith('worktree '))
          .map((l) => l.slice('worktree '.length))
          .find((p) => p.endsWith('polish-the-demo'));
        if (!worktree) throw new Error('no worktree for the session');
        log(`worktree: ${worktree}`);
        if (!readFileSync(join(worktree, 'tandem-demo.md'), 'utf8').includes('Tandem demo was here'))
          throw new Error("the demo's edit is not in the worktree");
        if (existsSync(join(workspace, 'tandem-demo.md'))) throw new Error("the demo's edit reached the user's tree");
        log(`screenshot: ${await screenshot('e2e-worktree-session')}`);

        // The Sessions view names the branch.
        const header = page.locator('.pane-header[aria-label^="Sessions"]').first();
        if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
        const pane = page.locator('.pane', { has: header });
        await pane
          .locator('.monaco-list-row', { hasText: 'Demo in tandem/polish-the-demo' })
          .waitFor({ timeout: 10_000 });
        log(`screenshot: ${await screenshot('e2e-worktree-overview')}`);

        await runCommand(page, 'Tandem: Review Worktree Changes');
        await page.locator('.tab', { hasText: 'tandem/polish-the-demo' }).first().waitFor({ timeout: 20_000 });
        log(`screenshot: ${await screenshot('e2e-worktree-review')}`);

        await runCommand(page, 'Tandem: Apply Worktree to My Workspace…');
        await answer(page, 'As uncommitted', { pick: 'As uncommitted changes' });
        await until(() => existsSync(join(workspace, 'tandem-demo.md')), 20_000, 'Apply bringing tandem-demo.md back');
        if (!readFileSync(join(workspace, 'tandem-demo.md'), 'utf8').includes('Tandem demo was here'))
          throw new Error('the applied file lacks the demo edit');
        log(`screenshot: ${await screenshot('e2e-worktree-applied')}`);

        // After a window reload the worktree comes back as a session tab on its branch (the Demo
        // cannot reopen a session: a new one works on in the same worktree).
        await page.reload({ waitUntil: 'domcontentloaded' });
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        await openTandemView();
        const tab = view.locator('[data-testid="session-tab"][title*="in its worktree on tandem/polish-the-demo"]');
        await tab.waitFor({ timeout: 45_000 });
        await tab.click();
        await view
          .locator('[data-testid="session-place"]', { hasText: 'tandem/polish-the-demo' })
          .waitFor({ timeout: 10_000 });
        log(`screenshot: ${await screenshot('e2e-worktree-after-reload')}`);

        // The user makes the file their own and commits it; merging the session's branch now
        // meets two versions of one new file: the conflict opens in VS Code's merge editor.
        writeFileSync(join(workspace, 'tandem-demo.md'), '# My own notes\n\nNothing of the demo here.\n');
        git(workspace, 'add', '-A');
        git(workspace, 'commit', '-q', '-m', 'my own notes');
        await runCommand(page, 'Tandem: Apply Worktree to My Workspace…');
        await answer(page, 'Merge', { pick: 'Merge' });
        await page
          // The merge editor's own tab: the worktree's tandem-demo.md may be open in a tab already.
          .locator('.tab', { hasText: 'Merging: tandem-demo.md' })
          .first()
          .waitFor({ timeout: 30_000 });
        // A merge is in progress (git's record, not the file's markers: with auto save on, VS Code
        // may save the merge editor's unresolved result over the file as soon as it opens).
        if (!existsSync(join(workspace, '.git', 'MERGE_HEAD'))) throw new Error('no merge in progress after the apply');
        // The merge editor fills its panes a moment after the tab appears: both sides shown.
        for (const side of ['My own notes', 'Tandem demo'])
          await page.locator('.monaco-editor .view-lines', { hasText: side }).first().waitFor({ timeout: 20_000 });
        log(`screenshot: ${await screenshot('e2e-worktree-merge')}`);
        git(workspace, 'merge', '--abort');
      },
    },
  ],
};
