// What a session shows before its first prompt: which agent is answering, how to switch, and a
// few prompts that a click sends, so a newcomer's first minute needs no typing.
import type { AgentView } from '../../shared/protocol';

/** Prompts any coding agent can answer in any workspace (the Demo agent answers each with its tour). */
export const EXAMPLE_PROMPTS = [
  'Show me what you can do',
  'Explain what this project does and how it is organised',
  'Find TODO comments in this workspace and suggest fixes',
];

export function EmptySession({
  agent,
  onSend,
  onSelectAgent,
}: {
  agent: AgentView;
  onSend: (text: string) => void;
  onSelectAgent: () => void;
}) {
  const name = agent.info?.title ?? agent.name ?? 'the agent';
  const version = agent.info?.version ? ` ${agent.info.version}` : '';
  return (
    <section class="empty-session" data-testid="empty-session" aria-label="New session">
      <p class="empty-session-agent">
        <i class="codicon codicon-hubot" aria-hidden="true" /> You are talking to{' '}
        <strong data-testid="empty-session-agent">{name}</strong>
        <span class="muted">{version}</span>.{' '}
        <button class="link-button" data-testid="switch-agent" onClick={onSelectAgent}>
          Switch agent
        </button>
      </p>
      <p class="muted">Try one of these, or type below (@ mentions a file, / lists the agent's commands):</p>
      <ul class="example-prompts">
        {EXAMPLE_PROMPTS.map((text) => (
          <li key={text}>
            <button class="example-prompt" data-testid="example-prompt" onClick={() => onSend(text)}>
              <i class="codicon codicon-send" aria-hidden="true" />
              <span>{text}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
