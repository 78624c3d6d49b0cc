// Reading scripts and prompts: a script file's text (JSON or JSONL), a prompt's text.
import type { AgentScript, Step } from './scriptTypes';

/** Parses a script file's text: JSON (an AgentScript) or JSONL (see scriptTypes.ts). */
export function parseScript(text: string, fileName = ''): AgentScript {
  const trimmed = text.trim();
  if (!fileName.endsWith('.jsonl')) {
    try {
      return JSON.parse(trimmed) as AgentScript;
    } catch (e) {
      if (fileName.endsWith('.json')) throw e;
    }
  }
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() && !l.trim().startsWith('//'));
  let script: AgentScript = {};
  const steps: Step[] = [];
  lines.forEach((l, i) => {
    const obj = JSON.parse(l) as Record<string, unknown>;
    if (i === 0 && obj.$script) script = obj.$script as AgentScript;
    else steps.push(obj as Step);
  });
  return { ...script, prompts: [...(script.prompts ?? []), { steps }] };
}

/** The text of a prompt's content blocks (resource links as `@name`). */
export function promptText(prompt: unknown): string {
  if (!Array.isArray(prompt)) return '';
  return prompt
    .map((b: Record<string, unknown>) => {
      if (b?.type === 'text') return String(b.text ?? '');
      if (b?.type === 'resource_link') return `@${String(b.name ?? b.uri ?? '')}`;
      if (b?.type === 'resource') return `@${String((b.resource as { uri?: string } | undefined)?.uri ?? '')}`;
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? line.slice(0, 119) + '…' : line;
}
