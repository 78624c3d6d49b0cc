// The demo's building blocks (see demoScript.ts): the one file it writes, step builders, and the
// steps that read a workspace file, create the demo file and edit it behind a permission prompt.
// Each falls back to simulated content when the client does not offer the fs method it needs.
import type { Step } from './scriptTypes';

/** The file the demo creates and edits. */
export const DEMO_FILE = 'tandem-demo.md';
export const DEMO_CONTENT =
  '# Tandem demo\n\n' +
  'The Tandem demo agent created this file through `fs/write_text_file`, so VS Code can undo it.\n' +
  'It is the only file the demo writes; delete it whenever you like.\n';
export const DEMO_MARK = '<!-- Tandem demo was here -->\n';

const FS_READ = 'client.clientCapabilities.fs.readTextFile';
const FS_WRITE = 'client.clientCapabilities.fs.writeTextFile';

export const text = (t: string) => [{ type: 'content', content: { type: 'text', text: t } }];
export const update = (toolCallId: string, fields: Record<string, unknown>): Step => ({
  update: { sessionUpdate: 'tool_call_update', toolCallId, ...fields } as never,
});
export const toolCall = (fields: Record<string, unknown>): Step => ({
  update: { sessionUpdate: 'tool_call', ...fields } as never,
});

const READ = 'demo-read-${turn}';
const WRITE = 'demo-write-${turn}';
const EDIT = 'demo-edit-${turn}';

/** Writes `content` to the demo file through fs/write_text_file, then marks call `id` completed or failed. */
const writeDemoFile = (id: string, content: string, as: string): Step[] => [
  { request: 'fs/write_text_file', params: { sessionId: '${sessionId}', path: '${files.demo.path}', content }, as },
  {
    if: `${as}.error`,
    then: [update(id, { status: 'failed', content: text(`Could not write ${DEMO_FILE}: \${${as}.error.message}`) })],
    else: [update(id, { status: 'completed' })],
  },
];

export const readStep: Step[] = [
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

/** The fields of a tool call that edits the demo file at `line`, showing `diff`. */
const demoFileCall = (toolCallId: string, title: string, status: string, line: number, diff: unknown[]) => ({
  toolCallId,
  title,
  kind: 'edit',
  status,
  locations: [{ path: '${files.demo.path}', line }],
  content: diff,
});

export const writeStep: Step[] = [
  toolCall({
    ...demoFileCall(WRITE, `Write ${DEMO_FILE}`, 'in_progress', 1, [
      { type: 'diff', path: '${files.demo.path}', oldText: '${files.demo.text}', newText: '${demoContent}' },
    ]),
    rawInput: { path: '${files.demo.path}', content: '${demoContent}' },
  }),
  {
    if: FS_WRITE,
    then: writeDemoFile(WRITE, '${demoContent}', 'created'),
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

const editCall = demoFileCall(EDIT, `Edit ${DEMO_FILE}`, 'pending', 5, editDiff);

export const editStep: Step[] = [
  toolCall({ ...editCall, rawInput: { path: '${files.demo.path}', append: '${demoMark}' } }),
  {
    if: 'editAlwaysAllowed',
    then: [{ set: { editAllowed: true } }],
    else: [
      {
        request: 'session/request_permission',
        as: 'perm',
        params: {
          sessionId: '${sessionId}',
          toolCall: editCall,
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
        then: writeDemoFile(EDIT, '${demoContent}${demoMark}', 'edited'),
        else: [
          { sleep: 300 },
          update(EDIT, { status: 'completed', content: [...editDiff, ...text('(simulated: nothing was written)')] }),
        ],
      },
    ],
    else: [update(EDIT, { status: 'failed', content: text('You rejected the edit: nothing was changed.') })],
  },
];
