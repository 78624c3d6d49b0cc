// Which PromptScript answers a prompt: the first unused one whose `match` (substring, any case) or
// `regex` fits the text, else the first unused one with neither, else the script's defaultPrompt.
// Each prompt script answers once.
import type { AgentScript, PromptScript } from './scriptTypes';

export class PromptPicker {
  private readonly used = new Set<PromptScript>();

  constructor(private readonly script: AgentScript) {}

  pick(text: string): PromptScript | undefined {
    const list = this.script.prompts ?? [];
    const lower = text.toLowerCase();
    for (const p of list) {
      if (this.used.has(p)) continue;
      if (
        (p.match !== undefined && lower.includes(p.match.toLowerCase())) ||
        (p.regex !== undefined && new RegExp(p.regex, 'i').test(text))
      ) {
        this.used.add(p);
        return p;
      }
    }
    for (const p of list) {
      if (this.used.has(p) || p.match !== undefined || p.regex !== undefined) continue;
      this.used.add(p);
      return p;
    }
    return this.script.defaultPrompt;
  }
}
