// The built-in demo agent's behaviour, as data for the scripted-agent engine (see scriptTypes.ts).
// Every prompt gets the same tour of what Tandem shows, with no API key:
//   streamed markdown · a thought · a plan updated in place · a `read` tool call (fs/read_text_file)
//   · a "Write" creating tandem-demo.md (fs/write_text_file) · an `edit` of that file with a diff,
//   behind a permission prompt · an `execute` tool call running a real command in a client
//   terminal (live output, a progress bar) · a client-tool call: IDE · OpenFile over Tandem's MCP
//   server from session/new.
// The demo only ever writes tandem-demo.md (its own file). When the client offers no fs, no
// terminal or no `tandem` MCP server, that step is shown with simulated content instead.
import type { AgentScript, Step } from './scriptTypes';

const DEMO_VERSION = '0.2.0';

/** The file the demo creates and edits. */
export const DEMO_FILE = 'tandem-demo.md';
export const DEMO_CONTENT =
  '# Tandem demo\n\n' +
  'The Tandem demo agent created this file through `fs/write_text_file`, so VS Code can undo it.\n' +
  'It is the only file the demo writes; delete it whenever you like.\n';
export const DEMO_MARK = '<!-- Tandem demo was here -->\n';

const FS_READ = 'client.clientCapabilities.fs.readTextFile';
const FS_WRITE = 'client.clientCapabilities.fs.writeTextFile';
const TERMINAL = 'client.clientCapabilities.terminal';

/** A short real command: a few lines, a progress bar redrawn with \r, a coloured "Done". */
const PROGRESS_JS = [
  "const s = Number(String(process.argv[1] || '').replace(/x$/, '') || 1);",
  "const names = require('fs').readdirSync('.').filter((n) => !n.startsWith('.')).slice(0, 5);",
  "console.log('Hello from a real process: Node ' + process.version);",
  "console.log('First entries of ' + process.cwd() + ': ' + names.join(', '));",
  'let i = 0;',
  'const t = setInterval(() => {',
  '  i++;',
  "  process.stdout.write('\\r[' + '#'.repeat(i) + '.'.repeat(20 - i) + '] ' + i * 5 + '%');",
  "  if (i === 20) { clearInterval(t); process.stdout.write('\\n\\x1b[32mDone.\\x1b[0m\\n'); }",
  '}, 80 * s);',
].join('\n');

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

const text = (t: string) => [{ type: 'content', content: { type: 'text', text: t } }];
const update = (toolCallId: string, fields: Record<string, unknown>): Step => ({
  update: { sessionUpdate: 'tool_call_update', toolCallId, ...fields } as never,
});
const toolCall = (fields: Record<string, unknown>): Step => ({
  update: { sessionUpdate: 'tool_call', ...fields } as never,
});

const READ = 'demo-read-${turn}';
const WRITE = 'demo-write-${turn}';
const EDIT = 'demo-edit-${turn}';
const EXEC = 'demo-exec-${turn}';
const EXPAND = 'demo-ide-expand-${turn}';
const OPEN = 'demo-ide-open-${turn}';

const readStep: Step[] = [
  toolCall({
    toolCallId: READ,
    title: 'Read ${workspace.file}',
    kind: 'read',
    status: 'in_progress',
    locations: [{ path: '${workspace.path}', line: 1 }],
    rawInput: { path: '${workspace.path}', line: 1, limit: 5 },
  }),
  {
    if: '!workspace.exists',
    then: [
      { sleep: 200 },
      update(READ, { status: 'completed', content: text('This folder has no text file to read yet.') }),
    ],
    else: [
      {
        if: FS_READ,
        then: [
          {
            request: 'fs/read_text_file',
            params: { sessionId: '${sessionId}', path: '${workspace.path}', line: 1, limit: 5 },
            as: 'readme',
          },
          {
            if: 'readme.error',
            then: [
              update(READ, {
                status: 'failed',
                content: text('Could not read ${workspace.file}: ${readme.error.message}'),
              }),
            ],
            else: [update(READ, { status: 'completed', content: text('````\n${readme.content}\n````') })],
          },
        ],
        else: [
          { sleep: 300 },
          update(READ, {
            status: 'completed',
            content: text(
              '````\n${workspace.head}````\n(read from disk by the demo: this client does not offer `fs/read_text_file`)',
            ),
          }),
        ],
      },
    ],
  },
];

const writeStep: Step[] = [
  toolCall({
    toolCallId: WRITE,
    title: `Write ${DEMO_FILE}`,
    kind: 'edit',
    status: 'in_progress',
    locations: [{ path: '${files.demo.path}', line: 1 }],
    content: [{ type: 'diff', path: '${files.demo.path}', oldText: '${files.demo.text}', newText: '${demoContent}' }],
    rawInput: { path: '${files.demo.path}', content: '${demoContent}' },
  }),
  {
    if: FS_WRITE,
    then: [
      {
        request: 'fs/write_text_file',
        params: { sessionId: '${sessionId}', path: '${files.demo.path}', content: '${demoContent}' },
        as: 'created',
      },
      {
        if: 'created.error',
        then: [
          update(WRITE, { status: 'failed', content: text(`Could not write ${DEMO_FILE}: \${created.error.message}`) }),
        ],
        else: [update(WRITE, { status: 'completed' })],
      },
    ],
    else: [
      { sleep: 300 },
      update(WRITE, {
        status: 'completed',
        content: text('(simulated) this client does not offer `fs/write_text_file`: nothing was written.'),
      }),
    ],
  },
];

const editDiff = [
  { type: 'diff', path: '${files.demo.path}', oldText: '${demoContent}', newText: '${demoContent}${demoMark}' },
];

const editStep: Step[] = [
  toolCall({
    toolCallId: EDIT,
    title: `Edit ${DEMO_FILE}`,
    kind: 'edit',
    status: 'pending',
    locations: [{ path: '${files.demo.path}', line: 5 }],
    content: editDiff,
    rawInput: { path: '${files.demo.path}', append: '${demoMark}' },
  }),
  {
    if: 'editAlwaysAllowed',
    then: [{ set: { editAllowed: true } }],
    else: [
      {
        request: 'session/request_permission',
        as: 'perm',
        params: {
          sessionId: '${sessionId}',
          toolCall: {
            toolCallId: EDIT,
            title: `Edit ${DEMO_FILE}`,
            kind: 'edit',
            status: 'pending',
            locations: [{ path: '${files.demo.path}', line: 5 }],
            content: editDiff,
          },
          options: [
            { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
            { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
            { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
          ],
        },
      },
      {
        branch: 'perm.outcome.optionId',
        cases: {
          allow_always: [{ set: { editAllowed: true, editAlwaysAllowed: true } }],
          allow: [{ set: { editAllowed: true } }],
        },
        else: [{ set: { editAllowed: false } }],
      },
    ],
  },
  {
    if: 'editAllowed',
    then: [
      update(EDIT, { status: 'in_progress' }),
      {
        if: FS_WRITE,
        then: [
          {
            request: 'fs/write_text_file',
            params: { sessionId: '${sessionId}', path: '${files.demo.path}', content: '${demoContent}${demoMark}' },
            as: 'edited',
          },
          {
            if: 'edited.error',
            then: [
              update(EDIT, {
                status: 'failed',
                content: text(`Could not write ${DEMO_FILE}: \${edited.error.message}`),
              }),
            ],
            else: [update(EDIT, { status: 'completed' })],
          },
        ],
        else: [
          { sleep: 300 },
          update(EDIT, { status: 'completed', content: [...editDiff, ...text('(simulated: nothing was written)')] }),
        ],
      },
    ],
    else: [update(EDIT, { status: 'failed', content: text('You rejected the edit: nothing was changed.') })],
  },
];

const execStep: Step[] = [
  toolCall({
    toolCallId: EXEC,
    title: 'Run a short demo command',
    kind: 'execute',
    status: 'in_progress',
    rawInput: { command: 'node -e "<progress bar script>"', cwd: '${cwd}' },
  }),
  {
    if: TERMINAL,
    then: [
      {
        // ACP terminal args are strings: the scale goes as text like "1x" (a bare `${…}` keeps its
        // number type; a leading "--" would be read by node itself).
        terminal: {
          command: '${runtime.node}',
          args: ['-e', PROGRESS_JS, '${runtime.timeScale}x'],
          env: '${runtime.nodeEnv}',
          cwd: '${cwd}',
          outputByteLimit: 32000,
        },
        toolCallId: EXEC,
        as: 'run',
      },
      {
        if: 'run.error',
        then: [update(EXEC, { status: 'failed', content: text('Could not run the command: ${run.error.message}') })],
        else: [
          update(EXEC, { status: 'completed', rawOutput: { exitCode: '${run.exitCode}', signal: '${run.signal}' } }),
        ],
      },
    ],
    else: [
      { sleep: 400 },
      update(EXEC, {
        status: 'completed',
        rawOutput: { exitCode: 0, simulated: true },
        content: text(
          '(simulated) this client offers no terminals. A real run prints:\n```\nHello from a real process: Node v20\n[####################] 100%\nDone.\n```',
        ),
      }),
    ],
  },
];

const openArgs = { path: '${files.demo.path}', line: 1 };

const clientToolStep: Step[] = [
  {
    if: 'mcp.tandem',
    then: [
      { mcpTools: 'tandem', as: 'tandemTools' },
      {
        if: 'tandemTools.error',
        then: [
          toolCall({
            toolCallId: OPEN,
            title: `IDE · OpenFile ${DEMO_FILE}:1`,
            kind: 'other',
            status: 'failed',
            rawInput: openArgs,
            content: text('Could not reach the tandem MCP server: ${tandemTools.error.message}'),
          }),
        ],
        else: [
          {
            // The IDE group starts collapsed behind one container tool: calling it expands the group.
            if: ['!tandemTools.has.OpenFile', 'tandemTools.has.IDE'],
            then: [
              toolCall({
                toolCallId: EXPAND,
                title: 'IDE · expand the tandem tool group',
                kind: 'other',
                status: 'in_progress',
                rawInput: {},
              }),
              { sleep: 150 },
              { mcpCall: { server: 'tandem', tool: 'IDE', arguments: {} }, as: 'expanded' },
              {
                if: 'expanded.error',
                then: [update(EXPAND, { status: 'failed', content: text('${expanded.error.message}') })],
                else: [update(EXPAND, { status: 'completed', content: text('${expanded.text}') })],
              },
            ],
          },
          toolCall({
            toolCallId: OPEN,
            title: `IDE · OpenFile ${DEMO_FILE}:1`,
            kind: 'other',
            status: 'in_progress',
            rawInput: openArgs,
            locations: [{ path: '${files.demo.path}', line: 1 }],
          }),
          { sleep: 150 },
          { mcpCall: { server: 'tandem', tool: 'OpenFile', arguments: openArgs }, as: 'opened' },
          {
            if: 'opened.error',
            then: [update(OPEN, { status: 'failed', content: text('${opened.error.message}') })],
            else: [
              {
                if: 'opened.isError',
                then: [update(OPEN, { status: 'failed', content: text('${opened.text}') })],
                else: [update(OPEN, { status: 'completed', content: text('${opened.text}') })],
              },
            ],
          },
        ],
      },
    ],
    else: [
      toolCall({
        toolCallId: OPEN,
        title: `IDE · OpenFile ${DEMO_FILE}:1 (simulated)`,
        kind: 'other',
        status: 'in_progress',
        rawInput: openArgs,
      }),
      { sleep: 300 },
      update(OPEN, {
        status: 'completed',
        content: text(
          '(simulated) this client passed no `tandem` MCP server in `session/new`. In Tandem the demo calls the IDE tools over MCP, and VS Code opens the file.',
        ),
      }),
    ],
  },
];

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
