// An earlier prompt as the composer holds a draft: its text, and the attachments that map back to
// what the composer attaches (workspace files, editor ranges, pasted images). The restore notice
// Tandem put before a prompt (promptSender.ts) was not the user's text and is left out. No vscode:
// unit-tested in plain Node.
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Attachment } from '../../shared/protocol';

export interface EditDraft {
  text: string;
  attachments: Attachment[];
}

/** The restore notice's block: `[Restored to …]` / `[Undid the restore to …]`, alone in its block. */
const NOTICE = /^\[(Restored to |Undid the restore to )[^\n]*\]$/;

export function editDraftOf(blocks: readonly ContentBlock[]): EditDraft {
  const texts: string[] = [];
  const attachments: Attachment[] = [];
  blocks.forEach((b, i) => {
    if (b.type === 'text') {
      if (!(i === 0 && blocks.length > 1 && NOTICE.test(b.text))) texts.push(b.text);
      return;
    }
    if (b.type === 'image') attachments.push({ kind: 'image', mimeType: b.mimeType, data: b.data });
    const uri = b.type === 'resource_link' ? b.uri : b.type === 'resource' ? b.resource.uri : undefined;
    const a = uri ? fileAttachment(uri) : undefined;
    if (a) attachments.push(a);
  });
  return { text: texts.join('\n'), attachments };
}

/** A file:// URI as a file attachment, or a range of one (`#L3-9`) as a selection; other schemes are not attachments. */
function fileAttachment(uri: string): Attachment | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'file:') return undefined;
  const range = /^#L(\d+)-(\d+)$/.exec(url.hash);
  url.hash = '';
  const path = fileURLToPath(url);
  return range
    ? { kind: 'selection', path, startLine: Number(range[1]), endLine: Number(range[2]) }
    : { kind: 'file', path };
}
