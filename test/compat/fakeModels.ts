// Fake model servers on 127.0.0.1 for the compatibility tests: scripted replies in the wire
// formats of the Anthropic Messages API (claude-code-acp), the Gemini API (gemini-cli) and the
// OpenAI Responses API (codex-acp).
// Facts: docs/ACP-NOTES.md, "Running real agents offline".
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A reply: text or a tool call; `delayMs` holds it back that long (a turn that is still running). */
export type Step = ({ text: string } | { tool: string; input: Record<string, unknown> }) & { delayMs?: number };

export interface FakeServer {
  url: string;
  /** Every main-loop request body (with tools), in order. */
  requests: unknown[];
  /** Paths requested that the fake did not know. */
  unknown: string[];
  close(): Promise<void>;
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((r) => {
      server.closeAllConnections?.();
      server.close(() => r());
    });
}

// ---- Anthropic (claude-code-acp) ------------------------------------------------------------

function sse(res: ServerResponse, events: [string, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

let toolSeq = 0;

function anthropicEvents(step: Step): [string, unknown][] {
  const usage = { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const ev: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: {
          id: `msg_${++toolSeq}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    ],
    ['ping', { type: 'ping' }],
  ];
  if ('text' in step) {
    ev.push([
      'content_block_start',
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    ]);
    ev.push([
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: step.text } },
    ]);
  } else {
    ev.push([
      'content_block_start',
      {
        type: 'content_block_start',
        index: 0,
        content_block: {
          type: 'tool_use',
          id: `toolu_${String(++toolSeq).padStart(6, '0')}`,
          name: step.tool,
          input: {},
        },
      },
    ]);
    ev.push([
      'content_block_delta',
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) },
      },
    ]);
  }
  ev.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
  ev.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: 'text' in step ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: 5 },
    },
  ]);
  ev.push(['message_stop', { type: 'message_stop' }]);
  return ev;
}

/**
 * A conversation of its own (a Claude Code subagent) inside one fake: requests whose first
 * message matches `when` follow `script`, and are kept in `requests` apart from the main loop's.
 */
export interface Lane {
  when: RegExp;
  script: Step[];
  requests: unknown[];
}

/** POST /v1/messages: the reply is picked by the number of assistant messages already sent. */
export async function fakeAnthropic(script: Step[], lanes: Lane[] = []): Promise<FakeServer> {
  const requests: unknown[] = [];
  const unknown: string[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/messages') {
      let json: { tools?: unknown[]; messages?: { role: string }[] } = {};
      try {
        json = JSON.parse(body);
      } catch {
        /* keep empty */
      }
      if (!json.tools?.length) {
        sse(res, anthropicEvents({ text: 'Title' }));
        return;
      } // side call
      const lane = lanes.find((l) => l.when.test(JSON.stringify(json.messages?.[0] ?? '')));
      (lane?.requests ?? requests).push(json);
      const n = (json.messages ?? []).filter((m) => m.role === 'assistant').length;
      const step = (lane?.script ?? script)[n] ?? { text: 'Done.' };
      if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
      // The agent went away meanwhile (a window reload stopped it): nobody to answer.
      if (res.destroyed || req.socket.destroyed) return;
      sse(res, anthropicEvents(step));
      return;
    }
    unknown.push(`${req.method} ${req.url}`);
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not here' } }));
  });
  const url = await listen(server);
  return { url, requests, unknown, close: closer(server) };
}

// ---- Gemini (gemini-cli --acp) --------------------------------------------------------------

/** streamGenerateContent (SSE) follows the script by the number of model turns in the request;
 *  generateContent (side calls: JSON mode, model router) gets an object fitting its schema. */
export async function fakeGemini(script: Step[]): Promise<FakeServer> {
  const requests: unknown[] = [];
  const unknown: string[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = req.url ?? '';
    let json: {
      contents?: { role?: string }[];
      generationConfig?: { responseSchema?: unknown; responseJsonSchema?: unknown };
    } = {};
    try {
      json = JSON.parse(body);
    } catch {
      /* keep empty */
    }
    const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
    if (req.method === 'POST' && url.includes(':streamGenerateContent')) {
      requests.push(json);
      const n = (json.contents ?? []).filter((c) => c.role === 'model').length;
      const step = script[n] ?? { text: 'Done.' };
      const part =
        'text' in step
          ? { text: step.text }
          : { functionCall: { id: `call_${++toolSeq}`, name: step.tool, args: step.input } };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: 'gemini-2.5-pro' })}\n\n`,
      );
      res.end();
      return;
    }
    if (req.method === 'POST' && url.includes(':generateContent')) {
      const schema = json.generationConfig?.responseJsonSchema ?? json.generationConfig?.responseSchema;
      const obj = fillSchema(schema);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          candidates: [
            { content: { role: 'model', parts: [{ text: JSON.stringify(obj) }] }, finishReason: 'STOP', index: 0 },
          ],
          usageMetadata,
        }),
      );
      return;
    }
    if (req.method === 'POST' && url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    unknown.push(`${req.method} ${url}`);
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { code: 404, message: 'not here', status: 'NOT_FOUND' } }));
  });
  const url = await listen(server);
  return { url, requests, unknown, close: closer(server) };
}

// ---- OpenAI Responses (codex-acp) ----------------------------------------------------------

/** Arguments computed from the request, for a call that names what an earlier call returned. */
type InputOf = (request: { input?: unknown[] }) => Record<string, unknown>;

/** A Responses step: text, a function call, or a freeform custom tool call (Codex's apply_patch). */
export type ResponsesStep =
  | Step
  | { customTool: string; input: string }
  | { tool: string; namespace: string; input: Record<string, unknown> | InputOf };

/** A Codex child thread (a subagent) inside one fake: requests whose user messages match `when`. */
export interface ResponsesLane {
  when: RegExp;
  script: ResponsesStep[];
  requests: unknown[];
}

/** POST /v1/responses (always `stream: true`): the reply is picked by the number of tool outputs
 *  already in the request's input; SSE `event: <type>` + `data: {type, …}`. */
export async function fakeResponses(script: ResponsesStep[], lanes: ResponsesLane[] = []): Promise<FakeServer> {
  const requests: unknown[] = [];
  const unknown: string[] = [];
  let seq = 0;
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/responses') {
      unknown.push(`${req.method} ${req.url}`);
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error' } }));
      return;
    }
    let json: { input?: { type?: string; role?: string }[] } = {};
    try {
      json = JSON.parse(body);
    } catch {
      /* keep empty */
    }
    const asked = JSON.stringify((json.input ?? []).filter((i) => i.role === 'user'));
    const lane = lanes.find((l) => l.when.test(asked));
    (lane?.requests ?? requests).push(json);
    const n = (json.input ?? []).filter(
      (i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output',
    ).length;
    const step = (lane?.script ?? script)[n] ?? { text: 'Done.' };
    if ('delayMs' in step && step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
    // The agent went away or gave up meanwhile (a stopped child thread): nobody to answer.
    if (res.destroyed || req.socket.destroyed) return;
    const id = `resp_${++seq}`;
    const ev: { type: string; [k: string]: unknown }[] = [{ type: 'response.created', response: { id } }];
    let item: Record<string, unknown>;
    if ('text' in step) {
      item = {
        type: 'message',
        role: 'assistant',
        id: `msg_${seq}`,
        status: 'completed',
        content: [{ type: 'output_text', text: step.text, annotations: [] }],
      };
      ev.push({ type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } });
      ev.push({
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: step.text,
      });
    } else if ('customTool' in step) {
      item = {
        type: 'custom_tool_call',
        id: `ctc_${seq}`,
        call_id: `call_${seq}`,
        name: step.customTool,
        input: step.input,
        status: 'completed',
      };
      ev.push({ type: 'response.output_item.added', output_index: 0, item });
    } else {
      item = {
        type: 'function_call',
        id: `fc_${seq}`,
        call_id: `call_${seq}`,
        name: step.tool,
        ...('namespace' in step ? { namespace: step.namespace } : {}),
        arguments: JSON.stringify(typeof step.input === 'function' ? step.input(json) : step.input),
        status: 'completed',
      };
      ev.push({ type: 'response.output_item.added', output_index: 0, item });
    }
    ev.push({ type: 'response.output_item.done', output_index: 0, item });
    ev.push({
      type: 'response.completed',
      response: {
        id,
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 10,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 110,
        },
      },
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const e of ev) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
    res.end();
  });
  const url = await listen(server);
  return { url, requests, unknown, close: closer(server) };
}

/** A value matching a (Gemini / JSON) schema; numbers ≥ 1 (the router wants complexity_score ≥ 1). */
function fillSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as {
    type?: string | string[];
    properties?: Record<string, unknown>;
    items?: unknown;
    enum?: unknown[];
  };
  const type = (Array.isArray(s.type) ? s.type[0] : (s.type ?? 'object')).toString().toLowerCase();
  if (s.enum?.length) return s.enum[0];
  switch (type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) o[k] = fillSchema(v);
      return o;
    }
    case 'array':
      return [];
    case 'string':
      return 'simple';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
