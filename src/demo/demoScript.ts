// The built-in demo agent's behaviour, as data for the scripted-agent engine (see scriptTypes.ts).
// Every prompt gets the same tour of what Tandem shows, with no API key:
//   streamed markdown · a thought · a plan updated in place · a `read` tool call (fs/read_text_file)
//   · a "Write" creating tandem-demo.md (fs/write_text_file) · an `edit` of that file with a diff,
//   behind a permission prompt · an `execute` tool call running a real command in a client
//   terminal (live output, a progress bar) · a client-tool call: IDE · OpenFile over Tandem's MCP
//   server from session/new.
// The demo only ever writes tandem-demo.md (its own file). When the client offers no fs, no
// terminal or no `tandem` MCP server, that step is shown with simulated content instead.
import { DEMO_CONTENT, DEMO_FILE, DEMO_MARK, editStep, readStep, writeStep } from './demoFileSteps';
import { clientToolStep, execStep } from './demoRunSteps';
import type { AgentScript, Step } from './scriptTypes';

const DEMO_VERSION = '0.2.0';

const PLAN_STEPS = [
  'Read ${workspace.file}',
  `Create ${DEMO_FILE}`,
  `Edit ${DEMO_FILE} (asks permission)`,
  'Run a command in a terminal',
  `Show ${DEMO_FILE} in the editor (client tool)`,
];

/** The plan, with the first `done` entries completed and the next one in progress. */
const plan = (done: number): Step => ({
  update: {
    sessionUpdate: 'plan',
    entries: PLAN_STEPS.map((content, i) => ({
      content,
      priority: i < 2 ? 'high' : i < 4 ? 'medium' : 'low',
      status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending',
    })),
  },
});

const turn: Step[] = [
  {
    stream:
      "Hi! I'm the **Tandem demo agent**: a scripted agent that needs no API key. You wrote:\n\n" +
      '> ${promptLine}\n\n' +
      "I can't think about that for real, but I'll show you what an agent's work looks like in Tandem:\n\n" +
      `- a **plan** that updates as I go,\n- a file **read**, a new file \`${DEMO_FILE}\` and an **edit** that asks your permission,\n` +
      '- a real **command** in a terminal,\n- and a **client tool**: I ask VS Code to open a file.\n\n',
    chunk: 16,
    delayMs: 15,
  },
  {
    stream: `The user wants a tour. Plan it; read a file; create ${DEMO_FILE} and only ever touch that file; run something harmless; then open the file in their editor.`,
    chunk: 20,
    delayMs: 10,
    kind: 'agent_thought_chunk',
  },
  plan(0),
  { sleep: 150 },
  ...readStep,
  plan(1),
  { sleep: 150 },
  ...writeStep,
  plan(2),
  { sleep: 150 },
  ...editStep,
  plan(3),
  { sleep: 150 },
  ...execStep,
  plan(4),
  { sleep: 150 },
  ...clientToolStep,
  plan(5),
  {
    stream:
      `Done. \`${DEMO_FILE}\` is the only file I wrote: undo it or delete it as you like.\n\n` +
      'To work for real, choose Claude Code, Gemini CLI or any other ACP agent in Tandem ' +
      "and sign in with that agent's own login.\n",
    chunk: 16,
    delayMs: 15,
  },
];

export const demoScript: AgentScript = {
  name: 'tandem-demo',
  vars: { demoContent: DEMO_CONTENT, demoMark: DEMO_MARK },
  files: { demo: DEMO_FILE },
  initialize: {
    protocolVersion: 1,
    agentCapabilities: {
      loadSession: false,
      promptCapabilities: { embeddedContext: false, image: false, audio: false },
      mcpCapabilities: { http: true, sse: false },
    },
    authMethods: [],
    agentInfo: { name: 'tandem-demo', title: 'Tandem demo agent', version: DEMO_VERSION },
  },
  newSession: { sessionId: 'demo-${n}' },
  defaultPrompt: {
    steps: turn,
    stopReason: 'end_turn',
    onCancel: [{ stream: '\n\n_Stopped._\n', chunk: 64 }],
  },
};
