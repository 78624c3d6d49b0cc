// Images pasted into the composer become attachments (base64, without the data: prefix) when the
// agent accepts images; otherwise, or when one is too large, a note says why.
import type { Attachment } from '../shared/protocol';

const MAX_IMAGE_BYTES = 6 * 1024 * 1024;

/** Handles a paste that holds images (png, jpeg, gif, webp); anything else pastes as usual. */
export function pasteImages(
  e: ClipboardEvent,
  acceptsImages: boolean,
  note: (text: string) => void,
  add: (att: Extract<Attachment, { kind: 'image' }>, label: string) => void,
): void {
  const items = [...(e.clipboardData?.items ?? [])].filter(
    (i) => i.kind === 'file' && /^image\/(png|jpeg|gif|webp)$/.test(i.type),
  );
  if (!items.length) return;
  e.preventDefault();
  if (!acceptsImages) {
    note('This agent does not accept images.');
    return;
  }
  for (const it of items) {
    const file = it.getAsFile();
    if (!file) continue;
    if (file.size > MAX_IMAGE_BYTES) {
      note('That image is too large (6 MB at most).');
      continue;
    }
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result);
      add(
        { kind: 'image', mimeType: it.type, data: url.slice(url.indexOf(',') + 1) },
        `image (${Math.round(file.size / 1024)} KB)`,
      );
    };
    r.readAsDataURL(file);
  }
}
