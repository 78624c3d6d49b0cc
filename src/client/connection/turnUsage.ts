// What a turn spent, as the prompt's answer reports it in `_meta.quota` (claude-agent-acp shapes it
// like codex-acp's: `{token_count: {totalTokens, inputTokens, cachedInputTokens, cachedWriteTokens?,
// outputTokens, reasoningOutputTokens}, model_usage: [{model, token_count}]}`). It counts the
// turn's main agent loop; `model_usage` also counts subagents, so its rows may add up to more.
// Not ACP v1: read defensively, and never taken for the context's size (that is usage_update).
import type { TurnUsageView } from '../../shared/sessionModel';

const count = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined;

/** The turn's tokens from a session/prompt answer, or undefined when it reports none. */
export function turnUsageOf(response: { _meta?: { [key: string]: unknown } | null }): TurnUsageView | undefined {
  const quota = response._meta?.quota as { token_count?: Record<string, unknown> } | undefined;
  const t = quota?.token_count;
  if (!t || typeof t !== 'object') return undefined;
  const input = count(t.inputTokens);
  const output = count(t.outputTokens);
  if (input === undefined || output === undefined) return undefined;
  const usage: TurnUsageView = { total: count(t.totalTokens) ?? input + output, input, output };
  const cachedRead = count(t.cachedInputTokens);
  const cachedWrite = count(t.cachedWriteTokens);
  const reasoning = count(t.reasoningOutputTokens);
  if (cachedRead) usage.cachedRead = cachedRead;
  if (cachedWrite) usage.cachedWrite = cachedWrite;
  if (reasoning) usage.reasoning = reasoning;
  return usage;
}
