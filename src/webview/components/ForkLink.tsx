// "Fork from here" on the last turn of a session the agent can fork (the host runs Tandem: Fork
// Session): a new session tab that continues this conversation, while this one stays as it is.
// In the turn-changes chunk: the eager bundle has no room.
import { useHost } from '../host';

export function ForkLink() {
  const host = useHost();
  return (
    <button
      type="button"
      class="link-button fork-here"
      title="Open a new session tab that continues this conversation; this one stays as it is"
      data-testid="fork-here"
      onClick={() => host.post({ type: 'forkSession' })}
    >
      <i class="codicon codicon-repo-forked" aria-hidden="true" /> Fork from here
    </button>
  );
}
