// Images pasted into the composer become attachments (base64, without the data: prefix) when the
// agent accepts images; otherwise, or when one is too large, a note says why. Loaded on the first
// image paste (pastedFiles.ts takes the files while the paste is handled).
import type { Attachment } from '../shared/protocol';

const MAX_IMAGE_BYTES = 6 * 1024 * 1024;

/** Reads pasted image files into attachments (or notes why not). */
export function addPastedImages(
  files: readonly File[],
  acceptsImages: boolean,
  note: (text: string) => void,
  add: (att: Extract<Attachment, { kind: 'image' }>, label: string) => void,
): void {
  if (!acceptsImages) {
    note('This agent does not accept images.');
    return;
  }
  for (const file of files) {
    if (file.size > MAX_IMAGE_BYTES) {
      note('That image is too large (6 MB at most).');
      continue;
    }
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result);
      add(
        { kind: 'image', mimeType: file.type, data: url.slice(url.indexOf(',') + 1) },
        `image (${Math.round(file.size / 1024)} KB)`,
      );
    };
    r.readAsDataURL(file);
  }
}
