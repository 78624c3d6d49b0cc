// Arbitrary valid ACP content for the view's property tests, shaped by the schema types of
// @agentclientprotocol/sdk: every content block kind, tool calls and their updates (diffs with a
// null oldText, terminals, locations with odd paths), plans, notices, compactions, permission
// requests; their strings and loose fields from acpStrings.ts. Each value goes through JSON, as it
// does on the wire.
import fc from 'fast-check';
import type {
  ContentBlock,
  RequestPermissionRequest,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import type { SessionAction } from '../../../src/session/actions';
import {
  annotations,
  ansi,
  base64,
  ids,
  junk,
  meta,
  metaOrNull,
  mime,
  nullable,
  path,
  rec,
  terminalIds,
  text,
  uri,
  wire,
} from './acpStrings';

export const block: fc.Arbitrary<ContentBlock> = fc.oneof(
  { weight: 6, arbitrary: rec({ type: fc.constant('text'), text, annotations, _meta: metaOrNull }, ['type', 'text']) },
  {
    weight: 1,
    arbitrary: rec({ type: fc.constant('image'), data: base64, mimeType: mime, uri: nullable(uri), annotations }, [
      'type',
      'data',
      'mimeType',
    ]),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('audio'), data: base64, mimeType: mime }) },
  {
    weight: 2,
    arbitrary: rec(
      {
        type: fc.constant('resource_link'),
        name: text,
        uri,
        title: nullable(text),
        description: nullable(text),
        mimeType: nullable(mime),
        size: nullable(fc.integer()),
        _meta: metaOrNull,
      },
      ['type', 'name', 'uri'],
    ),
  },
  {
    weight: 2,
    arbitrary: rec(
      {
        type: fc.constant('resource'),
        resource: fc.oneof(
          rec({ uri, text, mimeType: nullable(mime) }, ['uri', 'text']),
          rec({ uri, blob: base64, mimeType: nullable(mime) }, ['uri', 'blob']),
        ),
        annotations,
      },
      ['type', 'resource'],
    ),
  },
) as fc.Arbitrary<ContentBlock>;

const content: fc.Arbitrary<ToolCallContent> = fc.oneof(
  rec({ type: fc.constant('content'), content: block, _meta: metaOrNull }, ['type', 'content']),
  rec({ type: fc.constant('diff'), path, oldText: nullable(text), newText: text, _meta: metaOrNull }, [
    'type',
    'path',
    'newText',
  ]),
  rec({ type: fc.constant('terminal'), terminalId: terminalIds }, ['type', 'terminalId']),
) as fc.Arbitrary<ToolCallContent>;

const location = rec<ToolCallLocation>(
  { path, line: nullable(fc.oneof(fc.nat(200), fc.constant(0), fc.constant(2 ** 32 - 1))), _meta: metaOrNull },
  ['path'],
);

/** What `rawInput` holds: anything, or the fields the view's titles read, holding anything. */
const rawInput = fc.oneof(
  junk,
  rec(
    {
      file_path: fc.oneof(path, junk),
      path: fc.oneof(path, junk),
      command: fc.oneof(text, fc.array(text, { maxLength: 3 }), junk),
      description: fc.oneof(text, junk),
      pattern: fc.oneof(text, junk),
      url: fc.oneof(uri, junk),
      offset: junk,
      function: fc.oneof(text, junk),
      arguments: junk,
    },
    [],
  ),
);

const kinds = fc.constantFrom(
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
);
const statuses = fc.constantFrom('pending', 'in_progress', 'completed', 'failed');
const names = fc.oneof(text, fc.constantFrom('Read', 'Bash', 'mcp__tandem__OpenFile', 'mcp__acp__Write'));
const callFields = {
  toolCallId: ids,
  title: text,
  name: nullable(names),
  kind: kinds,
  status: statuses,
  content: fc.array(content, { maxLength: 4 }),
  locations: fc.array(location, { maxLength: 3 }),
  rawInput,
  rawOutput: junk,
  _meta: metaOrNull,
};
const update = rec<ToolCallUpdate>(
  {
    ...callFields,
    title: nullable(text),
    kind: nullable(kinds),
    status: nullable(statuses),
    content: nullable(callFields.content),
    locations: nullable(callFields.locations),
  },
  ['toolCallId'],
);

const chunk = (kind: string) =>
  rec(
    { sessionUpdate: fc.constant(kind), content: block, messageId: nullable(fc.constantFrom('m1', 'm2')), _meta: meta },
    ['sessionUpdate', 'content'],
  );

export const sessionUpdate: fc.Arbitrary<SessionUpdate> = wire(
  fc.oneof(
    { weight: 4, arbitrary: chunk('agent_message_chunk') },
    { weight: 2, arbitrary: chunk('agent_thought_chunk') },
    { weight: 1, arbitrary: chunk('user_message_chunk') },
    {
      weight: 4,
      arbitrary: fc
        .record(callFields, { requiredKeys: ['toolCallId', 'title'] })
        .map((c) => ({ sessionUpdate: 'tool_call', ...c })),
    },
    { weight: 4, arbitrary: update.map((u) => ({ sessionUpdate: 'tool_call_update', ...u })) },
    {
      weight: 1,
      arbitrary: fc.record({
        sessionUpdate: fc.constant('plan'),
        entries: fc.array(
          fc.record({
            content: text,
            priority: fc.constantFrom('high', 'medium', 'low'),
            status: fc.constantFrom('pending', 'in_progress', 'completed'),
          }),
          { maxLength: 3 },
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: rec(
        {
          sessionUpdate: fc.constant('notice'),
          severity: fc.oneof(fc.constantFrom('info', 'warning', 'error'), text),
          title: text.map((t) => t || 'Notice'), // the schema wants one character at least
          description: nullable(text),
        },
        ['sessionUpdate', 'severity', 'title'],
      ),
    },
    {
      weight: 1,
      arbitrary: rec(
        {
          sessionUpdate: fc.constant('compaction_update'),
          compactionId: fc.constantFrom('k1', 'k2'),
          status: fc.oneof(fc.constantFrom('in_progress', 'completed', 'failed', 'cancelled'), text),
          summary: nullable(fc.array(block, { maxLength: 2 })),
          error: nullable(text),
        },
        ['sessionUpdate', 'compactionId', 'status'],
      ),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        sessionUpdate: fc.constant('compaction_summary_chunk'),
        compactionId: fc.constantFrom('k1', 'k2'),
        content: block,
      }),
    },
  ),
) as fc.Arbitrary<SessionUpdate>;

/** A session/request_permission's params (validated as the agent sent them). */
export const permissionRequest: fc.Arbitrary<RequestPermissionRequest> = wire(
  fc.record({
    sessionId: fc.constant('fuzz'),
    toolCall: update,
    options: fc.array(
      fc.record({
        optionId: fc.constantFrom('o1', 'o2', 'o3'),
        name: text,
        kind: fc.constantFrom('allow_once', 'allow_always', 'reject_once', 'reject_always'),
      }),
      { maxLength: 4 },
    ),
  }),
);

/** What happens in a session: mostly the agent's updates, and prompts, ends, terminals, permission prompts. */
export const action: fc.Arbitrary<SessionAction> = fc.oneof(
  { weight: 16, arbitrary: sessionUpdate.map((u): SessionAction => ({ type: 'update', update: u, at: 0 })) },
  {
    weight: 2,
    arbitrary: wire(fc.array(block, { maxLength: 3 })).map((prompt): SessionAction => ({
      type: 'promptStarted',
      at: 0,
      prompt,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled')
      .map((stopReason): SessionAction => ({ type: 'promptEnded', at: 0, stopReason })),
  },
  { weight: 1, arbitrary: text.map((error): SessionAction => ({ type: 'promptFailed', at: 0, error })) },
  {
    weight: 1,
    arbitrary: rec<Extract<SessionAction, { type: 'terminal' }>['terminal']>(
      {
        terminalId: terminalIds,
        command: text,
        exited: fc.boolean(),
        exitCode: nullable(fc.integer()),
        signal: nullable(text),
      },
      ['terminalId', 'exited'],
    ).map((terminal): SessionAction => ({ type: 'terminal', at: 0, terminal })),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(terminalIds, ansi)
      .map(([terminalId, data]): SessionAction => ({ type: 'terminalOutput', at: 0, terminalId, data })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('r1', 'r2'), permissionRequest).map(([requestId, p]): SessionAction => ({
      type: 'permissionRequested',
      at: 0,
      request: {
        requestId,
        toolCallId: p.toolCall.toolCallId,
        toolCall: p.toolCall,
        options: p.options,
        at: 0,
        origin: 'agent',
      },
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(ids, fc.option(text, { nil: undefined }))
      .map(([toolCallId, source]): SessionAction => ({ type: 'agentAllowed', at: 0, toolCallId, source })),
  },
);
