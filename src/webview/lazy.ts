// A module loaded on first use (its own chunk): `load` starts it once, `use` re-renders the
// component that asks for it when it is there.
import { useEffect, useState } from 'preact/hooks';

export function lazy<T>(load: () => Promise<T>): { load: () => Promise<T>; use: () => T | undefined } {
  let value: T | undefined;
  let loading: Promise<T> | undefined;
  const get = () => (loading ??= load().then((v) => (value = v)));
  return {
    load: get,
    use() {
      const [v, set] = useState(() => value);
      useEffect(() => {
        if (!v) void get().then((m) => set(() => m));
      }, [v]);
      return v;
    },
  };
}

/** The expanded view of a tool call, and the diff view the permission prompt borrows from it. */
// (`.js`: the unbundled test build loads these with Node's own import(); named exports for the same reason.)
export const toolDetails = lazy(() => import('./components/ToolDetails.js'));

/** A pending permission prompt's card. */
export const permissionCard = lazy(() => import('./components/PermissionCard.js'));
