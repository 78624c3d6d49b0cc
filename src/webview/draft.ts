// The unsent prompt survives the view being hidden or reloaded: VS Code disposes a hidden webview
// view (no retainContextWhenHidden, which would keep the whole page in memory) and gives the new
// page the state the old one saved. Pasted images are left out: re-serialized on every keystroke
// they would cost more than pasting them again.
import type { Attachment } from '../shared/protocol';
import type { ViewState } from './host';

export interface DraftChip {
  id: number;
  att: Attachment;
  label: string;
  title?: string;
  mention?: string;
}
export interface Draft {
  text: string;
  chips: DraftChip[];
}

export function loadDraft(state: ViewState): Draft {
  const d = (state.get() as { draft?: Partial<Draft> } | undefined)?.draft;
  if (!d || typeof d.text !== 'string' || !Array.isArray(d.chips)) return { text: '', chips: [] };
  return {
    text: d.text,
    chips: d.chips.filter((c) => c && typeof c.id === 'number' && c.att && typeof c.label === 'string'),
  };
}

export function saveDraft(state: ViewState, d: Draft): void {
  state.merge({ draft: { text: d.text, chips: d.chips.filter((c) => c.att.kind !== 'image') } });
}
