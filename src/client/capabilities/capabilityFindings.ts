// The report's "In short": what the counts of one connection mean for the user. Whether a
// checkpoint holds the exact file before the change depends on who wrote the file: an agent that
// writes through fs/write_text_file hands Tandem every write (client/files/fileSystem.ts, source
// 'write'); one that writes the disk itself (claude-agent-acp, codex-acp) is followed through the
// `diff` content of its tool calls (client/files/diffSnapshots.ts, source 'diff') and the
// checkpoint scan at each turn's end (source 'scan'). Likewise for commands: Tandem's terminals,
// or the agent's own with the output in tool-call content and `_meta`.
import type { Tally, WireSnapshot } from './wireObserver';

export interface Findings {
  checkpoints: string;
  commands: string;
  reads: string;
  permissions: string;
}

const n = (list: readonly Tally[], name: string): number => list.find((t) => t.name === name)?.count ?? 0;
const times = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;

/** What the counts say. `advertised`: the clientCapabilities Tandem sent (undefined: not seen). */
export function findings(wire: WireSnapshot, advertised: Record<string, unknown> | undefined): Findings {
  return {
    checkpoints: checkpoints(wire, advertised),
    commands: commands(wire, advertised),
    reads: reads(wire),
    permissions: permissions(wire),
  };
}

const ranOfKinds = (wire: WireSnapshot, kinds: readonly string[]) =>
  wire.toolCalls.byKind.filter((k) => kinds.includes(k.kind)).reduce((sum, k) => sum + k.ran, 0);

function checkpoints(wire: WireSnapshot, advertised: Record<string, unknown> | undefined): string {
  const writes = n(wire.agentRequests, 'fs/write_text_file');
  const edits = ranOfKinds(wire, ['edit', 'delete', 'move']);
  const diffs = n(wire.toolContent, 'diff');
  if (writes)
    return (
      `from Tandem's own writes: the agent writes files through fs/write_text_file (${times(writes, 'call')}), ` +
      'so Tandem keeps each file exactly as it was before the write. Changes made by commands are found by the scan at the end of each turn.'
    );
  if (edits || diffs)
    return (
      "from the agent's diffs and file snapshots: the agent writes files itself " +
      `(${times(edits, 'edit call')} ran, \`diff\` content in ${times(diffs, 'update')}, no fs/write_text_file${offered(advertised, 'writeTextFile') ? ' although Tandem offered it' : ''}), ` +
      "so Tandem reads a file while the agent's call is pending, falls back to the diff's old text, and scans the workspace at the end of each turn."
    );
  return (
    'not known yet: the agent has not changed a file on this connection. ' +
    (offered(advertised, 'writeTextFile')
      ? "Tandem offered fs/write_text_file: writes through it give exact checkpoints; an agent that writes itself is followed through its diffs and the scan at each turn's end."
      : "Tandem did not offer fs/write_text_file: checkpoints will come from the agent's diffs and the scan at each turn's end.")
  );
}

function offered(advertised: Record<string, unknown> | undefined, fsKey: string): boolean {
  const fs = advertised?.fs as Record<string, unknown> | undefined;
  return fs?.[fsKey] === true;
}

function commands(wire: WireSnapshot, advertised: Record<string, unknown> | undefined): string {
  const creates = n(wire.agentRequests, 'terminal/create');
  const ran = ranOfKinds(wire, ['execute']);
  const streamed = wire.meta.some((m) => /^terminal_(info|output|exit)/.test(m.path));
  if (creates)
    return `Tandem's terminals: the agent runs commands through terminal/create (${times(creates, 'command')}): live output, Open in terminal, kill.`;
  if (ran || streamed)
    return (
      `the agent runs them itself (${times(ran, 'command call')} ran, no terminal/create); output arrives in tool-call content` +
      (streamed
        ? ' and streams in `_meta` (terminal_info / terminal_output / terminal_exit), which Tandem shows as a terminal.'
        : ' (no `_meta.terminal_output` seen: the output shows when the command has ended).')
    );
  return `not known yet: no command ran on this connection.${advertised?.terminal === true ? ' Tandem offered its terminals (terminal/*).' : ''}`;
}

function reads(wire: WireSnapshot): string {
  const viaTandem = n(wire.agentRequests, 'fs/read_text_file');
  const ran = ranOfKinds(wire, ['read']);
  if (viaTandem)
    return `through Tandem (fs/read_text_file, ${times(viaTandem, 'call')}): the agent sees the editor's text, unsaved edits included.`;
  if (ran)
    return `the agent reads the disk itself (${times(ran, 'read call')} ran, no fs/read_text_file): edits not yet saved are not seen.`;
  return 'not known yet: the agent has not read a file on this connection.';
}

function permissions(wire: WireSnapshot): string {
  const t = wire.toolCalls;
  if (!t.ran)
    return t.askedNotRun
      ? `no tool call has run yet; ${times(t.askedNotRun, 'permission request')} did not lead to a run.`
      : 'no tool call has run yet.';
  const kinds = t.byKind.map((k) => `${k.kind} ${k.askedFirst} of ${k.ran}`).join(', ');
  let s = `asked before ${t.askedFirst} of ${times(t.ran, 'call')} that ran (${kinds}).`;
  if (t.ranWithoutAsking)
    s += ` ${times(t.ranWithoutAsking, 'call')} ran without asking: the agent's own mode, rules or remembered answers decided, and Tandem's permission rules never saw them.`;
  if (t.askedAfterRunning) s += ` ${times(t.askedAfterRunning, 'request')} came after the call had started.`;
  if (t.askedNotRun) s += ` ${times(t.askedNotRun, 'call')} asked and did not run (rejected, cancelled or waiting).`;
  return s;
}
