// A paste into the composer: its image files (png, jpeg, gif, webp) are taken while the event is
// handled (its items are unreadable after) and read into attachments by pastedImages.ts, a chunk
// loaded on the first image paste. Anything else pastes as usual.
import type { Attachment } from '../shared/protocol';

export function pasteImages(
  e: ClipboardEvent,
  acceptsImages: boolean,
  note: (text: string) => void,
  add: (att: Extract<Attachment, { kind: 'image' }>, label: string) => void,
): void {
  const files = [...(e.clipboardData?.items ?? [])]
    .filter((i) => i.kind === 'file' && /^image\/(png|jpeg|gif|webp)$/.test(i.type))
    .map((i) => i.getAsFile())
    .filter((f): f is File => !!f);
  if (!files.length) return;
  e.preventDefault();
  void import('./pastedImages.js').then((m) => m.addPastedImages(files, acceptsImages, note, add));
}
