// The view model as a Preact state that follows the mirror. Effects run after the first paint
// (later still on a loaded machine), and the host answers `ready` with the snapshot as soon as it
// can: a snapshot that lands between the first render and the subscription must not be missed,
// or the view shows "No agent" while the agent runs, until something else changes.
import { useEffect, useState } from 'preact/hooks';
import type { Mirror, ViewModel } from './mirror';

export function useMirror(mirror: Mirror): ViewModel {
  const [vm, setVm] = useState<ViewModel>(mirror.current);
  useEffect(() => {
    const off = mirror.subscribe(setVm);
    setVm(mirror.current);
    return off;
  }, [mirror]);
  return vm;
}
