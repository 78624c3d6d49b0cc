// The Code and Workspace client tool groups as the user sees them in the real VS Code: the
// scripted agent (test/fixtures/scripts/e2e-code-tools.json) calls Code · FindReferences and
// Workspace · RunTask over Tandem's MCP server; each call shows as a row titled by its group and
// function, RunTask waits in a permission card naming the task until the user allows it, and the
// answers (references from the TypeScript features, the task's exit code and output) come back.
import { join } from 'node:path';
import { agentIdle, agentReply, sendPrompt } from '../harness/codeServer.mjs';

const SCRIPT = 'test/fixtures/scripts/e2e-code-tools.json';

export default {
  userSettings: ({ repo, node }) => ({
    'tandem.agents': [
      {
        name: 'Scripted',
        command: node,
        args: [join(repo, 'out/test/fixtures/agents/scripted-agent.js'), join(repo, SCRIPT)],
      },
    ],
    'tandem.defaultAgent': 'Scripted',
  }),
  tests: [
    {
      name: 'Code · FindReferences and Workspace · RunTask show as titled rows; RunTask asks naming the task',
      timeoutMs: 120_000,
      async run({ openTandemView, view, screenshot, log }) {
        await openTandemView();
        await sendPrompt(view, 'navigate');
        const card = view.locator('[data-testid="permission-prompt"]').first();
        await card.waitFor({ timeout: 60_000 });
        const rows = async () =>
          (await view.locator('[data-testid="tool-call"]').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
        const before = await rows();
        log(`rows while asking: ${JSON.stringify(before)}`);
        if (!before.some((t) => t.includes('Code · FindReferences') && t.includes('src/math.ts:1')))
          throw new Error(`no Code · FindReferences row: ${JSON.stringify(before)}`);
        const cardText = (await card.innerText()).replace(/\s+/g, ' ');
        if (!/tandem: count lines/.test(cardText) && !before.some((t) => /RunTask tandem: count lines/.test(t)))
          throw new Error(`the prompt does not name the task: ${cardText}`);
        log(`screenshot: ${await screenshot('e2e-code-tools-permission')}`);
        await card.locator('[data-testid="permission-option"][data-kind="allow_once"]').click();
        await agentReply(view, 'Task:', { timeout: 60_000 });
        await agentIdle(view);
        const reply = await view.locator('[data-testid="message-agent"]').last().innerText();
        if (!/"path": "src\/math\.ts"/.test(reply) || !/"line": 7/.test(reply))
          throw new Error(`the references did not come back: ${reply.slice(0, 1500)}`);
        if (!/"exitCode": 3/.test(reply)) throw new Error(`the task result did not come back: ${reply.slice(-1500)}`);
        const after = await rows();
        log(`rows after: ${JSON.stringify(after)}`);
        if (!after.some((t) => /Workspace · RunTask/.test(t))) throw new Error('no Workspace · RunTask row');
        log(`screenshot: ${await screenshot('e2e-code-tools-done')}`);
      },
    },
  ],
};
