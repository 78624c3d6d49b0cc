// React.memo for Preact without preact/compat (5.7 KB of the eager bundle for this one function):
// the component re-renders only when a prop changed (shallow, or `equal` says so).
import { Component, h, type FunctionComponent } from 'preact';

export function memo<P extends object>(
  render: FunctionComponent<P>,
  equal?: (prev: P, next: P) => boolean,
): FunctionComponent<P> {
  class Memo extends Component<P> {
    override shouldComponentUpdate(next: P): boolean {
      return equal ? !equal(this.props, next) : shallowDiffers(this.props, next);
    }
    override render(props: P) {
      return h(render, props);
    }
  }
  (Memo as { displayName?: string }).displayName = `Memo(${render.displayName ?? render.name})`;
  return Memo as unknown as FunctionComponent<P>;
}

function shallowDiffers(a: object, b: object): boolean {
  for (const k in a) if (!(k in b)) return true;
  for (const k in b) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return true;
  return false;
}
