// A real agent session for the client-tool integration suites: the scripted test agent runs
// through the extension's Controller, so Tandem's own MCP server opens a slot bound to its
// session; a real MCP client (@modelcontextprotocol/sdk) connects to that slot as the agent
// would, and permission prompts go to the extension's broker, answered here as the user would.
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { activateTandem, configureScriptedAgent, type TestedTandem } from './helpers';

export interface ToolsSession {
  api: TestedTandem;
  client: Client;
  sessionId: string;
  /** Titles of the permission prompts answered so far. */
  asked: string[];
  /** What the next prompts are answered with. */
  answer: 'allow_once' | 'reject_once';
  text(r: Awaited<ReturnType<Client['callTool']>>): string;
  close(): Promise<void>;
}

export async function openToolsSession(agentName: string): Promise<ToolsSession> {
  const { api, extensionPath } = await activateTandem();
  // Its own session ids: the ChangeTracker is extension-wide and other suites' scripted agents
  // also start at sess-1.
  const slug = agentName.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase();
  await configureScriptedAgent(extensionPath, agentName, {
    name: agentName,
    newSession: { sessionId: `${slug}-\${n}` },
    prompts: [],
  });
  await api.controller.start(agentName);
  assert.equal(api.controller.agent.state, 'ready', api.controller.agent.message);
  const sessionId = api.controller.current!.session!.sessionId;
  const server = api.clientTools.feature.servers().find((s) => s.allSlots().some((x) => x.sessionId === sessionId));
  assert.ok(server, "Tandem's MCP server has a slot for the session");
  const slot = server.allSlots().find((x) => x.sessionId === sessionId)!;
  const s: ToolsSession = {
    api,
    client: new Client({ name: 'integration-agent', version: '1' }),
    sessionId,
    asked: [],
    answer: 'allow_once',
    text: (r) => (r.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n'),
    close: async () => {
      sub.dispose();
      await s.client.close();
      await api.controller.stop();
    },
  };
  const sub = api.permissions.broker.onDidChange((ch) => {
    if (ch.type !== 'added') return;
    const { view, requestId } = ch.pending;
    s.asked.push(view.toolCall.title ?? view.toolCallId);
    const o = view.options.find((x) => x.kind === s.answer);
    setTimeout(() => {
      if (o) api.permissions.broker.answer(requestId, o.optionId);
    }, 20);
  });
  await s.client.connect(
    new StreamableHTTPClientTransport(new URL(slot.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    }),
  );
  return s;
}
