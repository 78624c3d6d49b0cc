// What Tandem does with each part of an agent's `initialize` answer, with what it advertises, and
// with each client method and session/update kind: the tables the capability report reads.
// Each entry names the code that acts on it (`readBy`: a file under src/ and a piece of its code),
// and test/unit/client/capabilities/capabilityUses.test.ts checks those pieces are there and that
// every file reading the initialize answer is named here: the report cannot drift from the code.
// Where the code decides support with a function of its own (fork, steering, rewind), the report
// calls that same function.
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import { forkSupported } from '../connection/fork';
import { rewindCaps } from '../connection/rewind';
import { steeringSupported } from '../connection/steering';

export interface CapabilityUse {
  /** Where in the initialize answer: `agentCapabilities.loadSession`, `_meta.steering.supported`. */
  path: string;
  /** What Tandem does when the agent declares it. */
  uses: string;
  /** What Tandem does when it does not. */
  without: string;
  /** Whether the agent declared it, decided as the code that uses it decides (default: present, not false). */
  declared?(init: InitializeResponse): boolean;
  /** The code that reads it: [file under src/, a piece of that file]. */
  readBy: readonly (readonly [string, string])[];
}

const CONN = 'src/client/connection';

export const INITIALIZE_USES: readonly CapabilityUse[] = [
  {
    path: 'protocolVersion',
    uses: 'Tandem speaks ACP version 1 and stops an agent that answers another version.',
    without: '—',
    readBy: [[`${CONN}/agentClient.ts`, 'init.protocolVersion !== PROTOCOL_VERSION']],
  },
  {
    path: 'agentCapabilities.loadSession',
    uses: 'Reopens a past session with session/load: the agent replays its history into the tab.',
    without: 'session/resume where offered; otherwise a past session cannot be reopened, only started anew.',
    readBy: [
      [`${CONN}/agentClient.ts`, 'agentCapabilities?.loadSession'],
      [`${CONN}/sessionRequests.ts`, 'caps?.loadSession'],
    ],
  },
  {
    path: 'agentCapabilities.sessionCapabilities.resume',
    uses: 'Reopens a past session with session/resume (no replay) when session/load is not offered.',
    without: 'Only session/load, if offered, reopens past sessions.',
    readBy: [[`${CONN}/agentClient.ts`, 'agentCapabilities?.sessionCapabilities?.resume']],
  },
  {
    path: 'agentCapabilities.sessionCapabilities.list',
    uses: "Open Session… lists the agent's own past sessions; tab titles are refreshed from it after each turn.",
    without: "Open Session… shows Tandem's local history only.",
    readBy: [[`${CONN}/sessionRequests.ts`, 'sessionCapabilities?.list']],
  },
  {
    path: 'agentCapabilities.sessionCapabilities.close',
    uses: 'Closing a tab sends session/close.',
    without: 'A closed tab is closed in Tandem only.',
    readBy: [[`${CONN}/sessionRequests.ts`, 'sessionCapabilities?.close']],
  },
  {
    path: 'agentCapabilities.sessionCapabilities.delete',
    uses: 'Delete Session from History… deletes it in the agent too (session/delete).',
    without: "Delete Session from History… removes it from Tandem's history only.",
    readBy: [[`${CONN}/sessionRequests.ts`, 'sessionCapabilities?.delete']],
  },
  {
    path: 'agentCapabilities.sessionCapabilities.additionalDirectories',
    uses: 'The other folders of a multi-root workspace go with each session.',
    without: 'Only the first workspace folder is sent.',
    readBy: [[`${CONN}/sessionRequests.ts`, 'sessionCapabilities?.additionalDirectories']],
  },
  {
    path: 'agentCapabilities.sessionCapabilities.fork',
    uses: 'Fork Session, and Edit and resend by forking at a message (session/fork).',
    without: 'No Fork Session; Edit and resend rewinds where the agent can, else starts a new session.',
    declared: (init) => forkSupported(init.agentCapabilities),
    readBy: [
      [`${CONN}/fork.ts`, 'export function forkSupported'],
      [`${CONN}/sessionRequests.ts`, 'forkSupported(this.d.capabilities())'],
      ['src/vscode/agent/agentViewState.ts', 'forkSupported(agentCaps)'],
    ],
  },
  {
    path: 'agentCapabilities.promptCapabilities.image',
    uses: 'Images can be pasted into prompts.',
    without: 'Images are not offered as attachments.',
    readBy: [
      ['src/vscode/prompts/promptContent.ts', 'caps?.image'],
      ['src/vscode/prompts/promptSender.ts', 'agentCapabilities?.promptCapabilities'],
    ],
  },
  {
    path: 'agentCapabilities.promptCapabilities.embeddedContext',
    uses: 'Attached files and selections go with their text (embedded resources).',
    without: 'Attached files go as links (resource_link): the agent reads them itself.',
    readBy: [['src/vscode/prompts/promptContent.ts', 'caps?.embeddedContext']],
  },
  {
    path: 'agentCapabilities.promptCapabilities.audio',
    uses: 'Passed to the view; Tandem has no audio attachments.',
    without: '—',
    readBy: [['src/vscode/agent/agentViewState.ts', 'audio: !!caps.audio']],
  },
  {
    path: 'agentCapabilities.mcpCapabilities.http',
    uses: "Tandem's client tools reach the agent as an HTTP MCP server on 127.0.0.1; your http MCP servers are passed on.",
    without: 'Client tools go through a stdio bridge; http MCP servers are skipped.',
    readBy: [['src/tools/clientToolsFeature.ts', 'caps?.mcpCapabilities?.http']],
  },
  {
    path: 'agentCapabilities.mcpCapabilities.sse',
    uses: 'Your sse MCP servers are passed on.',
    without: 'sse MCP servers are skipped.',
    readBy: [['src/tools/clientToolsFeature.ts', 'caps?.mcpCapabilities?.sse']],
  },
  {
    path: '_meta.steering.supported',
    uses: 'Send now adds a queued prompt to the running turn (_session/steering).',
    without: 'Send now cancels the running turn and sends the prompt when it has ended.',
    declared: steeringSupported,
    readBy: [
      [`${CONN}/steering.ts`, 'export function steeringSupported'],
      ['src/vscode/prompts/queuedPrompts.ts', 'steeringSupported(client'],
    ],
  },
  {
    path: '_meta.jetbrains.air.capabilities',
    uses: 'Edit and resend rewinds the conversation in place (_session/rewind: "sessionRewind").',
    without: 'Edit and resend forks at the message where session/fork is offered, else starts a new session.',
    declared: (init) => rewindCaps(init).rewind,
    readBy: [
      [`${CONN}/rewind.ts`, 'export function rewindCaps'],
      ['src/vscode/rewind/editPrompts.ts', 'rewindCaps(client.initializeResult)'],
    ],
  },
  {
    path: 'authMethods',
    uses: 'Sign In to Agent offers these when the agent answers that it needs a sign-in.',
    without: "Tandem can only ask you to sign in with the agent's own tool.",
    declared: (init) => !!init.authMethods?.length,
    readBy: [
      [`${CONN}/agentClient.ts`, 'this.init?.authMethods'],
      ['src/vscode/agent/signIn.ts', 'client.authMethods'],
    ],
  },
  {
    path: 'agentInfo',
    uses: "Its name and version in the status bar and here; Gemini CLI's name makes a missing file read as empty (what it expects).",
    without: 'The configured name only.',
    readBy: [
      [`${CONN}/agentClient.ts`, 'init.agentInfo'],
      ['src/client/files/fileSystem.ts', 'initializeResult?.agentInfo?.name'],
    ],
  },
];

/** What each client capability Tandem advertises lets the agent do (keys: paths in clientCapabilities). */
export const ADVERTISED_USES: Readonly<Record<string, string>> = {
  'fs.readTextFile':
    "Read files through Tandem (fs/read_text_file): it gets the editor's text, unsaved edits included.",
  'fs.writeTextFile': 'Write files through Tandem (fs/write_text_file): each write is checkpointed exactly.',
  terminal: "Run commands in Tandem's terminals (terminal/*): live output, Open in terminal, kill.",
  'elicitation.form': 'Ask you questions as a form in the view (elicitation/create).',
  'elicitation.url': 'Ask you to open a URL (elicitation/create), told when it is done (elicitation/complete).',
  '_meta.terminal_output':
    'Stream the output of commands it runs itself in tool-call `_meta` (terminal_info, terminal_output, terminal_exit): Tandem shows it as a terminal.',
  '_meta.subagent-transcript':
    "Send a subagent's messages and thoughts, not only its tool calls: Tandem shows them under the Agent call that started it.",
  subagents:
    'Run subagents as child sessions (draft RFD): each shows as an Agent row of its session, its calls, messages and permission requests under it.',
  '_meta.terminal_output_delta':
    'The same output as `terminal_output_delta` chunks (JetBrains’ form; some agents stream live only with it): appended to that terminal.',
};

/** What Tandem does when the agent calls each client method. */
export const CLIENT_METHOD_USES: Readonly<Record<string, string>> = {
  'session/update': 'Everything the view shows of a session (kinds below).',
  'session/request_permission': 'Your rules and remembered answers first, else a permission card in the view.',
  'fs/read_text_file': "Reads the file, from the editor's buffer when it is open.",
  'fs/write_text_file': 'Writes through the editor; the file before the write is checkpointed.',
  'terminal/create': 'Starts the command in a terminal of Tandem; the output shows live in its tool call.',
  'terminal/output': 'The output so far (its tail past the byte limit).',
  'terminal/wait_for_exit': 'Answers when the command has exited.',
  'terminal/kill': 'Kills the command; the output stays.',
  'terminal/release': 'Kills the command if it still runs and frees the terminal; the output stays visible.',
  'elicitation/create': 'A form or URL card in the view.',
  'elicitation/complete': 'Closes the URL card it names.',
  '$/cancel_request': 'Cancels the pending request it names.',
};

/** How the view shows each session/update kind. */
export const UPDATE_USES: Readonly<Record<string, string>> = {
  user_message_chunk: 'Your prompts (history the agent replays).',
  agent_message_chunk: "The agent's answer.",
  agent_thought_chunk: 'Its thinking, folded.',
  tool_call: 'A tool-call row: title, kind, status, diffs, terminals, locations.',
  tool_call_update: 'Updates that row.',
  plan: 'The plan.',
  available_commands_update: 'The slash commands the composer offers.',
  current_mode_update: 'The mode picker.',
  config_option_update: 'The option pickers (model, …).',
  session_info_update: 'The tab title.',
  usage_update: 'The context meter and cost.',
  notice: 'A notice in the transcript.',
  compaction_update: 'A compaction row.',
  compaction_summary_chunk: "The compaction row's summary.",
};

/** What Tandem does with the fields of a session/new (load, resume, fork) answer. */
export const SESSION_ANSWER_USES: Readonly<Record<string, string>> = {
  sessionId: 'The tab.',
  modes: 'The mode picker and Switch Mode.',
  configOptions: 'The option pickers (model, …).',
};
