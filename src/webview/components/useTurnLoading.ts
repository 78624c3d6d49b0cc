// Unfolded turns that came as outlines: the view asks the host for their content once (a new
// snapshot brings new turn objects, which are asked for again). The content arrives as patches;
// a failed request is remembered per turn so its row can say why, and unfolding the turn again
// asks again.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionSnapshot, TurnView } from '../../shared/sessionModel';
import { MAX_LOAD_TURNS } from '../../shared/turnOutline';
import { useHost } from '../host';
import { outlinedOpen } from '../rows';

/** Why loading a turn failed, by turn index (absent: loading or loaded). */
export function useTurnLoading(
  session: SessionSnapshot,
  fold: Map<number, boolean>,
  foldAll: boolean | undefined,
): ReadonlyMap<number, string> {
  const host = useHost();
  const asked = useRef(new WeakSet<TurnView>());
  const [errors, setErrors] = useState<ReadonlyMap<number, string>>(new Map());
  useEffect(() => {
    const want = outlinedOpen(session, fold, foldAll).filter((t) => !asked.current.has(t));
    if (!want.length) return;
    for (const t of want) asked.current.add(t);
    for (let i = 0; i < want.length; i += MAX_LOAD_TURNS) {
      const slice = want.slice(i, i + MAX_LOAD_TURNS);
      const turns = slice.map((t) => t.index);
      setErrors((m) => (turns.some((t) => m.has(t)) ? new Map([...m].filter(([t]) => !turns.includes(t))) : m));
      host.request('loadTurns', { sessionId: session.meta.sessionId, turns }).catch((err: Error) => {
        for (const t of slice) asked.current.delete(t);
        setErrors((m) => new Map([...m, ...turns.map((t) => [t, err.message] as const)]));
      });
    }
  }, [session.turns, fold, foldAll]);
  return errors;
}
