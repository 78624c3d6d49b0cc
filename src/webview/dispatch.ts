// The page's one door for host messages: main.tsx listens to `message` here and nowhere else (a
// test checks no component adds a listener of its own). Each message goes by its type to who
// keeps it: state to the Mirror (components follow it through useMirror and App's contexts),
// replies and "the changes moved" to the Host (requests, useHost().onChanges), a prompt to edit
// to the Edit and resend chunk (components/PromptEdit.tsx).
import type { ToWebview } from '../shared/protocol';
import { clearMarkdownCache } from './components/Markdown';
import type { HostInbox } from './host';
import { promptEdit } from './lazy';
import type { Mirror } from './mirror';

/** Hands one message on; what is not a message of ToWebview's types is dropped. */
export function dispatch(data: unknown, host: HostInbox, mirror: Pick<Mirror, 'receive'>): void {
  if (!data || typeof data !== 'object') return;
  const msg = data as ToWebview;
  switch (msg.type) {
    case 'reply':
      host.settle(msg);
      break;
    case 'changes':
      host.changed();
      break;
    case 'editing':
      void promptEdit.load().then((m) => m.receive(msg));
      break;
    case 'snapshot':
      // A new session or a reload: the rendered markdown of the one before is of no more use.
      clearMarkdownCache();
      mirror.receive(msg);
      break;
    case 'sessions':
    case 'patch':
    case 'agent':
    case 'queue':
      mirror.receive(msg);
      break;
    default: {
      // A message type without a case here does not compile; at run time it is dropped.
      const _unhandled: never = msg;
    }
  }
}

/** Listens to the page's messages; returns the way to stop. */
export function listen(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  host: HostInbox,
  mirror: Pick<Mirror, 'receive'>,
): () => void {
  const onMessage = (e: MessageEvent) => dispatch(e.data, host, mirror);
  target.addEventListener('message', onMessage);
  return () => target.removeEventListener('message', onMessage);
}
