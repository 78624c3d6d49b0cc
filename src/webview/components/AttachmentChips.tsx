// What the next prompt carries besides its text: one chip per file, selection or pasted image,
// each with a remove button.
import type { DraftChip } from '../draft';
import { IconButton } from './IconButton';

export function AttachmentChips({ chips, onRemove }: { chips: DraftChip[]; onRemove: (id: number) => void }) {
  if (!chips.length) return null;
  return (
    <div class="attachments" aria-label="Attachments">
      {chips.map((c) => (
        <span key={c.id} class="chip attachment" title={c.title} data-testid="attachment" data-kind={c.att.kind}>
          {c.att.kind === 'image' ? (
            <img class="attachment-thumb" src={`data:${c.att.mimeType};base64,${c.att.data}`} alt="" />
          ) : (
            <i class={`codicon codicon-${c.att.kind === 'selection' ? 'selection' : 'file'}`} aria-hidden="true" />
          )}
          {c.label}
          <IconButton icon="close" class="small" label={`Remove ${c.label}`} onClick={() => onRemove(c.id)} />
        </span>
      ))}
    </div>
  );
}
