// Code the view needs only sometimes (tool details, the permission card, the terminal renderer,
// forms, the prompt queue, completion, attachments, the plan) lives in chunks of its own, loaded the first time it is shown: the eager bundle stays small.
import { h, type ComponentType, type FunctionComponent, type VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/** A lazily loaded module's export: `use()` gives undefined until the chunk is in, then re-renders. */
export function lazy<T>(load: () => Promise<T>) {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  const get = () => (loading ??= load().then((v) => (value = v)));
  return {
    load: get,
    use(): T | undefined {
      const [v, set] = useState<T | undefined>(() => value);
      useEffect(() => {
        if (!v) void get().then((x) => set(() => x));
      }, [v]);
      return v;
    },
  };
}

/** A component from a lazily loaded chunk: `loading()` (or nothing) until it is in; `load` fetches it early. */
export function lazyComponent<P>(
  load: () => Promise<ComponentType<P>>,
  loading?: () => VNode,
): FunctionComponent<P> & { load: () => Promise<ComponentType<P>> } {
  const m = lazy(load);
  const Lazy = (p: P) => {
    const C = m.use();
    return C ? h(C as ComponentType<object>, p as object) : (loading?.() ?? null);
  };
  return Object.assign(Lazy, { load: m.load });
}

/** The expanded view of a tool call, and the diff view the permission prompt borrows from it. */
// (`.js`: the unbundled test build loads these with Node's own import(); named exports for the same reason.)
export const toolDetails = lazy(() => import('./components/ToolDetails.js'));

/** A pending permission prompt's card. */
export const permissionCard = lazy(() => import('./components/PermissionCard.js'));

/** The composer's completion popup (/ commands, @ files) and its attachment chips: only once used. */
export const completionList = lazyComponent(() =>
  import('./components/CompletionList.js').then((m) => m.CompletionList),
);
export const attachmentChips = lazyComponent(() =>
  import('./components/AttachmentChips.js').then((m) => m.AttachmentChips),
);

/** A new session's welcome: what the agent is, example prompts (a few ms after the first paint). */
export const emptySession = lazyComponent(() => import('./components/EmptySession.js').then((m) => m.EmptySession));

/** The agent's plan, once it has one. */
export const planView = lazyComponent(() => import('./components/Plan.js').then((m) => m.Plan));

/** The composer's mode, model and option pickers: they appear once the agent's session offers some. */
export const pickers = lazyComponent(() => import('./components/Pickers.js').then((m) => m.Pickers));

/** Edit and resend: the prompt's button, the composer's banner and what is being edited. */
export const promptEdit = lazy(() => import('./components/PromptEdit.js'));
