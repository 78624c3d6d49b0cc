// A fake OpenAI-compatible Chat Completions server on 127.0.0.1 for the compatibility tests of the
// agents that speak it (opencode, Qwen Code, Kilo Code CLI): scripted replies, streamed as SSE
// `chat.completion.chunk`s, text in several deltas, tool calls with their arguments.
// Facts: docs/ACP-NOTES.md, "Running real agents offline".
import { createServer, type ServerResponse } from 'node:http';
import { closer, listen, readBody, type FakeServer } from './fakeModels';

/**
 * A reply of the main loop: text (streamed a few words per delta) or one tool call. `hold` keeps a
 * text reply's stream open after its text until the agent goes away (a turn to cancel).
 */
export type ChatStep = { text: string; hold?: boolean } | { tool: string; input: Record<string, unknown> };

export interface ChatServer extends FakeServer {
  /** The model ids the fake lists (any id is answered): the agents are configured with both, the first chosen. */
  models: [string, string];
  /** Requests without tools (titles, summaries, classifiers), in order. */
  sideRequests: unknown[];
}

interface ChatRequest {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: { role: string; content?: unknown }[];
  response_format?: { json_schema?: { schema?: unknown } };
}

let seq = 0;

/** The words of a text in pieces of about three, spaces kept: several deltas per reply. */
function pieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 3) out.push(words.slice(i, i + 3).join(''));
  return out.length ? out : [''];
}

function streamReply(res: ServerResponse, model: string, step: ChatStep): void {
  const id = `chatcmpl-${++seq}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
    );
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
  if ('text' in step) {
    chunk({ role: 'assistant', content: '' }, null);
    for (const p of pieces(step.text)) chunk({ content: p }, null);
    if (step.hold) return; // the stream stays open until the agent cancels (closes the connection)
    chunk({}, 'stop', { usage });
  } else {
    const call = { index: 0, id: `call_${++seq}`, type: 'function' };
    chunk(
      { role: 'assistant', content: null, tool_calls: [{ ...call, function: { name: step.tool, arguments: '' } }] },
      null,
    );
    chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify(step.input) } }] }, null);
    chunk({}, 'tool_calls', { usage });
  }
  res.write('data: [DONE]\n\n');
  res.end();
}

/** A side call's JSON: an object fitting its requested schema, else a short text. */
function sideReply(res: ServerResponse, model: string, json: ChatRequest): void {
  const schema = json.response_format?.json_schema?.schema;
  const content = schema ? JSON.stringify(fillSchema(schema)) : 'Fake title';
  if (json.stream) {
    streamReply(res, model, { text: content });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      id: `chatcmpl-${++seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    }),
  );
}

/**
 * POST …/chat/completions (under any prefix: `/v1`, `/api/v1`): a request with tools is the main
 * loop and gets the script's reply picked by the number of assistant messages already in it; one
 * without tools is a side call. GET …/models lists the two fake models.
 */
export async function fakeChat(script: ChatStep[]): Promise<ChatServer> {
  const models: [string, string] = ['fake-model', 'fake-model-2'];
  const requests: unknown[] = [];
  const sideRequests: unknown[] = [];
  const unknown: string[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
        }),
      );
      return;
    }
    if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      let json: ChatRequest = {};
      const model = json.model ?? models[0];
      try {
        json = JSON.parse(body);
      } catch {
        /* keep empty */
      }
      if (!json.tools?.length) {
        sideRequests.push(json);
        sideReply(res, model, json);
        return;
      }
      requests.push(json);
      const n = (json.messages ?? []).filter((m) => m.role === 'assistant').length;
      streamReply(res, model, script[n] ?? { text: 'Done.' });
      return;
    }
    unknown.push(`${req.method} ${req.url}`);
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error' } }));
  });
  return { url: await listen(server), models, requests, sideRequests, unknown, close: closer(server) };
}

/** A value matching a JSON schema (the first of an enum, empty arrays, numbers 1). */
function fillSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: string | string[]; properties?: Record<string, unknown>; enum?: unknown[] };
  if (s.enum?.length) return s.enum[0];
  const type = (Array.isArray(s.type) ? s.type[0] : (s.type ?? 'object')).toLowerCase();
  if (type === 'object')
    return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fillSchema(v)]));
  return { array: [], string: 'simple', number: 1, integer: 1, boolean: false }[type] ?? null;
}
