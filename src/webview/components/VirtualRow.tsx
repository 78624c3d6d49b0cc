// One row of VirtualList: the box whose height the list's ResizeObserver measures. A row of a
// size class already measured is not observed (its class's height stands for it).
import type { VNode } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

export function RowBox({
  k,
  ro,
  observe,
  forget,
  children,
}: {
  k: string;
  ro: ResizeObserver | undefined;
  observe: boolean;
  forget: (key: string) => void;
  children: VNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !ro) return;
    // Unobserved, the row takes its class's height: drop what it measured in another shape.
    if (!observe) {
      forget(k);
      return;
    }
    ro.observe(el);
    return () => ro.unobserve(el);
  }, [ro, observe]);
  return (
    <div class="vrow" data-key={k} ref={ref}>
      {children}
    </div>
  );
}
