// The built-in demo agent's behaviour, as data for the scripted-agent engine (see scriptTypes.ts).
// Every prompt gets the same tour: a streamed markdown answer, a thought, a 3-entry plan updated
// in place, a read, an edit (diff only, nothing is written) and an execute tool call.
import type { AgentScript, Step } from './scriptTypes';

const DEMO_VERSION = '0.1.0';

const plan = (s1: string, s2: string, s3: string): Step => ({
  update: {
    sessionUpdate: 'plan',
    entries: [
      { content: 'Look at ${workspace.file}', priority: 'high', status: s1 as 'pending' },
      { content: 'Propose an edit to ${workspace.file}', priority: 'medium', status: s2 as 'pending' },
      { content: 'Run a command', priority: 'low', status: s3 as 'pending' },
    ],
  },
});

const turn: Step[] = [
  {
    stream:
      "Hi! I'm the **Tandem demo agent**: a scripted agent that needs no API key. You wrote:\n\n" +
      '> ${promptLine}\n\n' +
      "I can't really act on that, but I'll show you what a real agent's work looks like in Tandem: " +
      'a plan, a file read, a proposed edit and a command.\n\n',
    chunk: 16,
    delayMs: 15,
  },
  {
    stream: 'The user wants a tour. Plan it, then read a file, propose a diff and run something harmless.',
    chunk: 20,
    delayMs: 10,
    kind: 'agent_thought_chunk',
  },
  plan('in_progress', 'pending', 'pending'),
  { sleep: 150 },
  {
    update: {
      sessionUpdate: 'tool_call', toolCallId: 'demo-read-${turn}', title: 'Read ${workspace.file}', kind: 'read',
      status: 'in_progress', locations: [{ path: '${workspace.path}', line: 1 }], rawInput: { path: '${workspace.path}' },
    },
  },
  { sleep: 300 },
  {
    update: {
      sessionUpdate: 'tool_call_update', toolCallId: 'demo-read-${turn}', status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: '```\n${workspace.head}```' } }],
    },
  },
  plan('completed', 'in_progress', 'pending'),
  {
    update: {
      sessionUpdate: 'tool_call', toolCallId: 'demo-edit-${turn}', title: 'Edit ${workspace.file}', kind: 'edit',
      status: 'in_progress', locations: [{ path: '${workspace.path}', line: 1 }],
      content: [{
        type: 'diff', path: '${workspace.path}',
        oldText: '${workspace.oldText}',
        newText: '${workspace.head}\nThis line was proposed by the Tandem demo agent (nothing was written to disk).\n',
      }],
    },
  },
  { sleep: 300 },
  { update: { sessionUpdate: 'tool_call_update', toolCallId: 'demo-edit-${turn}', status: 'completed' } },
  plan('completed', 'completed', 'in_progress'),
  {
    update: {
      sessionUpdate: 'tool_call', toolCallId: 'demo-exec-${turn}', title: 'Run `ls`', kind: 'execute',
      status: 'in_progress', rawInput: { command: 'ls', cwd: '${cwd}' },
    },
  },
  { sleep: 400 },
  {
    update: {
      sessionUpdate: 'tool_call_update', toolCallId: 'demo-exec-${turn}', status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: '(simulated) the demo does not run commands; a real agent would show the output of `ls` here.' } }],
      rawOutput: { exitCode: 0, simulated: true },
    },
  },
  plan('completed', 'completed', 'completed'),
  {
    stream:
      'Done. To work for real, choose Claude Code, Gemini CLI or any other ACP agent in Tandem ' +
      'and sign in with that agent\'s own login.\n',
    chunk: 16,
    delayMs: 15,
  },
];

export const demoScript: AgentScript = {
  name: 'tandem-demo',
  initialize: {
    protocolVersion: 1,
    agentCapabilities: { loadSession: false, promptCapabilities: { embeddedContext: false, image: false, audio: false } },
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
