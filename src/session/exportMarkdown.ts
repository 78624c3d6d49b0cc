// "Tandem: Export Session as Markdown": a readable record of a session, from its snapshot.
import type { ContentBlock, ItemView, SessionSnapshot, ToolCallView } from '../shared/sessionModel';

export interface ExportOptions {
  agentName?: string;
  exportedAt?: Date;
}

export function sessionToMarkdown(s: SessionSnapshot, opts: ExportOptions = {}): string {
  const out: string[] = [];
  out.push(`# ${s.meta.title || 'Tandem session'}`, '');
  const facts = [
    opts.agentName && `Agent: ${opts.agentName}`,
    `Session: \`${s.meta.sessionId}\``,
    opts.exportedAt && `Exported: ${opts.exportedAt.toISOString()}`,
  ].filter(Boolean);
  out.push(facts.join(' · '), '');
  for (const turn of s.turns) {
    out.push(`## Turn ${turn.index + 1}`, '');
    for (const item of turn.items) out.push(...itemLines(item, s), '');
    if (turn.stopReason && turn.stopReason !== 'end_turn') out.push(`_Stopped: ${turn.stopReason}_`, '');
    if (turn.error) out.push(`> **Error:** ${turn.error.split('\n').join('\n> ')}`, '');
  }
  if (s.meta.plan.length) {
    out.push('## Plan', '');
    for (const e of s.meta.plan)
      out.push(
        `- [${e.status === 'completed' ? 'x' : ' '}] ${e.content}${e.status === 'in_progress' ? ' _(in progress)_' : ''}`,
      );
    out.push('');
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

function itemLines(item: ItemView, s: SessionSnapshot): string[] {
  switch (item.kind) {
    case 'user':
      return ['**You:**', '', ...blocks(item.blocks)];
    case 'agent':
      return blocks(item.blocks);
    case 'thought':
      return ['<details><summary>Thinking</summary>', '', ...blocks(item.blocks), '', '</details>'];
    case 'subagent': {
      // Quoted, after its Agent call's row: what the subagent said, not the agent's answer.
      const text = item.role === 'thought' ? ['_Thinking:_', ...blocks(item.blocks)] : blocks(item.blocks);
      return text.flatMap((t) => t.split('\n')).map((l) => `> ${l}`);
    }
    case 'compaction':
      return [`_Context compacted (${item.status})${item.summary ? `: ${item.summary}` : ''}_`];
    case 'tool': {
      const call = s.toolCalls[item.toolCallId];
      return call ? toolLines(call, s) : [];
    }
  }
}

function toolLines(c: ToolCallView, s: SessionSnapshot): string[] {
  const status = { pending: '⏳', in_progress: '⏳', completed: '✅', failed: '❌' }[c.status] ?? '';
  const lines = [`- ${status} **${c.kind}** ${inline(c.title || c.name || 'Tool call')}`];
  for (const l of c.locations) lines.push(`  - \`${l.path}${l.line ? `:${l.line}` : ''}\``);
  if (c.permission)
    lines.push(
      `  - permission: ${c.permission.optionName ?? c.permission.outcome} (${c.permission.by}${c.permission.rule ? `: ${c.permission.rule}` : ''})`,
    );
  for (const content of c.content) {
    if (content.type === 'diff') {
      lines.push(
        '',
        '  ```diff',
        ...diffLines(content.path, content.oldText ?? null, content.newText).map((l) => `  ${l}`),
        '  ```',
      );
    } else if (content.type === 'terminal') {
      const t = s.terminals[content.terminalId];
      if (t)
        lines.push(
          '',
          '  ```console',
          ...fence(`$ ${t.command ?? ''}\n${stripAnsi(t.output)}`)
            .split('\n')
            .map((l) => `  ${l}`),
          '  ```',
        );
    } else if (content.type === 'content' && content.content.type === 'text') {
      lines.push('', ...content.content.text.split('\n').map((l) => `  ${l}`));
    }
  }
  return lines;
}

function blocks(bs: ContentBlock[]): string[] {
  return bs.map((b) => {
    switch (b.type) {
      case 'text':
        return b.text;
      case 'resource_link':
        return `📎 [${b.title ?? b.name}](${b.uri})`;
      case 'resource':
        return `📎 \`${b.resource.uri}\``;
      case 'image':
        return `🖼 image (${b.mimeType})`;
      case 'audio':
        return `🔊 audio (${b.mimeType})`;
      default:
        return '```json\n' + JSON.stringify(b, null, 2) + '\n```';
    }
  });
}

function diffLines(path: string, oldText: string | null, newText: string): string[] {
  const a = oldText === null ? [] : oldText.split('\n');
  const b = newText.split('\n');
  // Trim the common head and tail; a readable record, not a minimal diff.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [
    `--- ${oldText === null ? '/dev/null' : path}`,
    `+++ ${path}`,
    ...a.slice(start, endA).map((l) => `-${l}`),
    ...b.slice(start, endB).map((l) => `+${l}`),
  ];
}

function inline(s: string): string {
  return s.replace(/\n/g, ' ');
}
function fence(s: string): string {
  return s.replace(/```/g, '`\u200b``');
}
function stripAnsi(s: string): string {
  return s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\r(?!\n)/g, '\n');
}
