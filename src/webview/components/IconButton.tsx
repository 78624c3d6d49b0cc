// A button that is only a codicon: `label` is what a screen reader says, `title` the tooltip.
import type { JSX } from 'preact';

type Props = Omit<JSX.IntrinsicElements['button'], 'icon' | 'label' | 'type'> & {
  icon: string;
  label: string;
  class?: string;
};

export function IconButton({ icon, label, class: cls, ...rest }: Props) {
  return (
    <button type="button" class={cls ? `icon-button ${cls}` : 'icon-button'} aria-label={label} {...rest}>
      <i class={`codicon codicon-${icon}`} aria-hidden="true" />
    </button>
  );
}
