// Prompts whose options switch the agent's mode rather than allow a call: claude-code-acp asks
// ExitPlanMode (kind switch_mode) with "Yes, and auto-accept edits" as allow_always (option id
// `acceptEdits`), "Yes, and manually approve edits" as allow_once (`default`) and "No, keep
// planning" as reject_once (`plan`). Their kinds say nothing about remembering: "always" there
// means "auto-accept edits from now on", so such an answer passes through exactly as chosen and
// is never remembered (a remembered "always allow ExitPlanMode" approved every later plan unseen).
import type { PermissionOption } from '@agentclientprotocol/sdk';
import type { CallFacts } from './callFacts';

/** Claude Code's permission modes, which it uses as option ids of a mode-switch prompt. */
const MODE_IDS = new Set(['acceptEdits', 'default', 'plan', 'bypassPermissions']);

/** The call itself switches modes (by its kind or its tool), whatever options it comes with. */
export function isModeCall(facts: Pick<CallFacts, 'kind' | 'tool'>): boolean {
  return facts.kind === 'switch_mode' || facts.tool === 'ExitPlanMode';
}

/** A prompt to switch modes: the call is one, or an option is named by a mode id (the request may arrive before its tool_call). */
export function isModePrompt(
  facts: Pick<CallFacts, 'kind' | 'tool'>,
  options: readonly Pick<PermissionOption, 'optionId'>[],
): boolean {
  return isModeCall(facts) || options.some((o) => MODE_IDS.has(o.optionId));
}
