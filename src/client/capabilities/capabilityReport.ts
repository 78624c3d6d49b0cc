// "Tandem: Show Agent Capabilities" as a Markdown document: what one running agent declared in
// `initialize`, what Tandem does with each part (capabilityUses.ts), what Tandem advertised, and
// what the agent actually did on the wire (wireObserver.ts), with what that means for checkpoints,
// commands, reads and permissions (capabilityFindings.ts). Pure: the same input, the same text.
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import { findings } from './capabilityFindings';
import {
  ADVERTISED_USES,
  CLIENT_METHOD_USES,
  INITIALIZE_USES,
  SESSION_ANSWER_USES,
  UPDATE_USES,
  type CapabilityUse,
} from './capabilityUses';
import type { Tally, WireSnapshot } from './wireObserver';

export interface ReportInput {
  agentName: string;
  /** The connection's state (starting, auth, ready, error, exited). */
  state: string;
  /** Whether the view shows this agent. */
  shown: boolean;
  openSessions: number;
  /** The validated initialize answer (AgentClient.initializeResult); else the one seen on the wire is used. */
  initialize?: InitializeResponse;
  wire: WireSnapshot;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Text from the agent, made safe for a table cell: one line, no pipes or tags, bounded. */
export function cell(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  const cut = one.length > 200 ? `${one.slice(0, 200)}…` : one;
  return cut.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
/** A name from the agent as inline code. */
export const code = (s: string): string => `\`${cell(s).replace(/`/g, "'")}\``;

/** A Markdown table; with no rows, `empty` instead (when given). */
function table(head: readonly string[], rows: readonly (readonly string[])[], empty?: string): string {
  if (!rows.length && empty !== undefined) return empty;
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/**
 * The leaves of a capability object as paths (`sessionCapabilities.fork`), `depth` levels deep; a
 * `_meta` level does not count (so `_meta.claudeCode.promptQueueing` stays whole).
 */
export function capabilityPaths(value: unknown, prefix: string, depth: number): [string, unknown][] {
  if (!isObj(value)) return [[prefix, value]];
  const out: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value).slice(0, 60)) {
    const path = prefix ? `${prefix}.${k}` : k;
    const deeper = k === '_meta' ? depth : depth - 1;
    if (isObj(v) && Object.keys(v).length && deeper > 0) out.push(...capabilityPaths(v, path, deeper));
    else out.push([path, v]);
  }
  return out;
}

/** Every capability the answer declares: agentCapabilities two levels deep, the answer's own `_meta` three. */
function declaredPaths(init: InitializeResponse): [string, unknown][] {
  const top = (init as unknown as Obj)._meta;
  return [
    ...capabilityPaths(init.agentCapabilities ?? {}, 'agentCapabilities', 2),
    ...(isObj(top) ? capabilityPaths(top, '_meta', 2) : []),
  ].filter(([, v]) => v !== undefined && v !== null);
}

function valueAt(root: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (isObj(v) ? v[k] : undefined), root);
}

const isDeclared = (use: CapabilityUse, init: InitializeResponse): boolean =>
  use.declared ? use.declared(init) : ![undefined, null, false].includes(valueAt(init, use.path) as never);

function shown(v: unknown): string {
  if (v === true || (isObj(v) && !Object.keys(v).length)) return 'yes';
  if (v === false) return 'no';
  if (Array.isArray(v))
    return v.length ? cell(v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ')) : 'none';
  if (isObj(v)) return `yes (${cell(Object.keys(v).join(', '))})`;
  return cell(String(v));
}

export function buildCapabilityReport(input: ReportInput): string {
  const { wire } = input;
  const init = input.initialize ?? (wire.initialize.result as InitializeResponse | undefined);
  const advertised = wire.initialize.params?.clientCapabilities as Obj | undefined;
  const info = init?.agentInfo;
  const f = findings(wire, advertised);
  const out: string[] = [
    `# ${cell(info?.title || input.agentName)}: capabilities`,
    '',
    [
      info ? `${code(info.name)} ${cell(info.version ?? '')}` : undefined,
      init ? `ACP protocol ${cell(String(init.protocolVersion))}` : undefined,
      `configured as ${code(input.agentName)}`,
      input.state,
      `${input.openSessions} open session${input.openSessions === 1 ? '' : 's'}`,
      input.shown ? 'shown in the view' : undefined,
    ]
      .filter(Boolean)
      .join(' · '),
    '',
    `Live for this connection: what the agent declared in \`initialize\`, what Tandem does with it, and what the agent did on the wire since it started (${wire.fromAgent} messages from it, ${wire.toAgent} to it). Restarting the agent starts the counts again; the messages themselves: **Tandem: Show Traffic**.`,
    '',
    '## In short',
    '',
    `- **Checkpoints:** ${f.checkpoints}`,
    `- **Commands:** ${f.commands}`,
    `- **File reads:** ${f.reads}`,
    `- **Permissions:** ${f.permissions}`,
    '',
    ...declaredSection(init, wire),
    ...advertisedSection(advertised, wire),
    ...wireSection(wire),
  ];
  return out.join('\n') + '\n';
}

function declaredSection(init: InitializeResponse | undefined, wire: WireSnapshot): string[] {
  const head = '## What the agent declared, and what Tandem does with it';
  if (!init)
    return [
      head,
      '',
      wire.initialize.error
        ? `The agent answered \`initialize\` with an error: ${cell(wire.initialize.error)}`
        : 'The agent has not answered `initialize` yet.',
      '',
    ];
  const rows = INITIALIZE_USES.map((u) => {
    const yes = isDeclared(u, init);
    const v = valueAt(init, u.path);
    return [
      code(u.path),
      yes ? (u.path === 'protocolVersion' || u.path === 'agentInfo' ? shown(v) : 'yes') : 'no',
      yes ? u.uses : u.without,
    ];
  });
  const used = (p: string) =>
    INITIALIZE_USES.some((u) => u.path === p || p.startsWith(`${u.path}.`) || u.path.startsWith(`${p}.`));
  const unused = declaredPaths(init).filter(([p]) => !used(p));
  const auth = (init.authMethods ?? []).map(
    (m) => `- ${code(m.id)} ${cell(m.name)}${m.description ? `: ${cell(m.description)}` : ''}`,
  );
  return [
    head,
    '',
    table(['Capability', 'Declared', 'What Tandem does'], rows),
    '',
    unused.length
      ? `Declared, and not used by Tandem: ${unused.map(([p, v]) => `${code(p)} (${shown(v)})`).join(', ')}.`
      : 'Tandem uses everything the agent declared.',
    '',
    ...(auth.length ? ['Sign-in methods it offers:', '', ...auth, ''] : []),
  ];
}

/** The client method each advertised capability lets the agent call (what "Used" counts). */
const ENABLES: Readonly<Record<string, string>> = {
  'fs.readTextFile': 'fs/read_text_file',
  'fs.writeTextFile': 'fs/write_text_file',
  terminal: 'terminal/create',
  'elicitation.form': 'elicitation/create',
  'elicitation.url': 'elicitation/create',
};

/** What each advertised capability lets the agent do, and whether it did. */
function advertisedSection(advertised: Obj | undefined, wire: WireSnapshot): string[] {
  const head = '## What Tandem advertised';
  if (!advertised)
    return [head, '', 'Not seen: the `initialize` request was sent before this report started counting.', ''];
  const used = (path: string): string => {
    const method = ENABLES[path];
    const k = method
      ? (wire.agentRequests.find((t) => t.name === method)?.count ?? 0)
      : path.startsWith('_meta.terminal_output')
        ? wire.meta
            .filter((m) =>
              (path.endsWith('_delta') ? /^terminal_output_delta/ : /^terminal_(info|output|exit)/).test(m.path),
            )
            .reduce((sum, m) => sum + m.count, 0)
        : 0;
    return k ? `yes (${k})` : 'not yet';
  };
  const rows = capabilityPaths(advertised, '', 2).map(([p, v]) => [
    code(p),
    shown(v),
    v === false ? '—' : (ADVERTISED_USES[p] ?? '—'),
    v === false ? '—' : used(p),
  ]);
  return [head, '', table(['Client capability', 'Offered', 'Lets the agent…', 'Used'], rows), ''];
}

function wireSection(wire: WireSnapshot): string[] {
  const notifications = new Set(['session/update', 'elicitation/complete', '$/cancel_request']);
  const requestNames = Object.keys(CLIENT_METHOD_USES).filter((m) => !notifications.has(m));
  const requests = mergeZeros(wire.agentRequests, requestNames);
  const what = (m: string) => CLIENT_METHOD_USES[m] ?? 'Not a method Tandem offers.';
  const unsent = Object.keys(UPDATE_USES).filter((k) => !wire.updates.some((u) => u.name === k));
  const t = wire.toolCalls;
  const content = wire.toolContent.map((c) => `${code(c.name)} in ${c.count}`).join(', ');
  const answers = wire.sessionAnswers.map(
    (a) =>
      `${code(a.name)} (${SESSION_ANSWER_USES[a.name] ?? (a.name === '_meta' ? 'see the `_meta` keys' : 'not used by Tandem')})`,
  );
  return [
    '## What the agent did on the wire',
    '',
    '### Client methods it called',
    '',
    table(
      ['Method', 'Calls', 'Errors', 'What Tandem does'],
      requests.map((r) => [code(r.name), String(r.count), String(r.errors ?? 0), what(r.name)]),
    ),
    '',
    '### Notifications it sent',
    '',
    table(
      ['Method', 'Count', 'What Tandem does'],
      wire.notifications.map((r) => [
        code(r.name),
        String(r.count),
        CLIENT_METHOD_USES[r.name] ?? 'Ignored: not an ACP v1 notification.',
      ]),
      'None yet.',
    ),
    '',
    '### Session updates',
    '',
    table(
      ['Kind', 'Count', 'How Tandem shows it'],
      wire.updates.map((u) => [code(u.name), String(u.count), UPDATE_USES[u.name] ?? 'Dropped: not an ACP v1 kind.']),
      'None yet.',
    ),
    '',
    unsent.length ? `Not sent yet: ${unsent.map(code).join(', ')}.` : 'Every kind Tandem knows was sent.',
    '',
    '### Tool calls and permissions',
    '',
    `${t.seen} tool call${t.seen === 1 ? '' : 's'} seen, ${t.ran} ran; a permission request came first for ${t.askedFirst}, none for ${t.ranWithoutAsking}.`,
    '',
    ...(t.byKind.length
      ? [
          table(
            ['Kind', 'Ran', 'Asked first'],
            t.byKind.map((k) => [code(k.kind), String(k.ran), String(k.askedFirst)]),
          ),
          '',
        ]
      : []),
    content ? `Content the tool calls carried (updates): ${content}.` : 'No tool-call content yet.',
    '',
    '### `_meta` keys it sent',
    '',
    table(
      ['Key', 'Count', 'Where'],
      [...wire.meta]
        .sort((a, b) => a.path.localeCompare(b.path))
        .map((m) => [code(m.path), String(m.count), cell(m.where.join('; '))]),
      'None yet.',
    ),
    ...(wire.metaDropped ? ['', `…and ${wire.metaDropped} more not listed (the list is capped).`] : []),
    '',
    '### Requests Tandem sent',
    '',
    table(
      ['Method', 'Sent', 'Answered with an error'],
      wire.tandemRequests.map((r) => [code(r.name), String(r.count), String(r.errors ?? 0)]),
      'None yet.',
    ),
    '',
    answers.length ? `Its session answers carried: ${answers.join(', ')}.` : 'No session answer yet.',
  ];
}

/** The tallies seen plus a zero row for each expected name not seen (an honest matrix shows what never came). */
function mergeZeros(seen: readonly Tally[], expected: readonly string[]): Tally[] {
  const missing = expected.filter((name) => !seen.some((t) => t.name === name));
  return [...seen, ...missing.map((name) => ({ name, count: 0, errors: 0 }))];
}
