// The demo's steps beyond files (see demoScript.ts): a real command in a client terminal, then a
// client tool (IDE · OpenFile over Tandem's MCP server). Each falls back to simulated content
// when the client offers no terminal or no `tandem` MCP server.
import { DEMO_FILE, text, toolCall, update } from './demoFileSteps';
import type { Step } from './scriptTypes';

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

const EXEC = 'demo-exec-${turn}';
const EXPAND = 'demo-ide-expand-${turn}';
const OPEN = 'demo-ide-open-${turn}';

export const execStep: Step[] = [
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

export const clientToolStep: Step[] = [
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
