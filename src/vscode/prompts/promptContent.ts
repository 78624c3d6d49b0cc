// Builds the ACP prompt (content blocks) from the composer's text and attachments. The webview
// names files and ranges; the text of a selection is read here, at send time, never taken from
// the webview. Embedded `resource` and `image` only where the agent's promptCapabilities allow.
import * as vscode from 'vscode';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { Attachment, PromptCaps } from '../../shared/protocol';

/** Longest selection embedded as a resource; longer ones go as a link with the range. */
const MAX_EMBED_CHARS = 200_000;

export async function buildPrompt(
  text: string,
  attachments: readonly Attachment[],
  caps: PromptCaps | undefined,
): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [];
  if (text.trim()) blocks.push({ type: 'text', text });
  const seen = new Set<string>();
  for (const a of attachments) {
    switch (a.kind) {
      case 'file': {
        const uri = vscode.Uri.file(a.path);
        if (seen.has(uri.toString())) break;
        seen.add(uri.toString());
        blocks.push({ type: 'resource_link', uri: uri.toString(), name: basename(a.path) });
        break;
      }
      case 'selection': {
        const uri = vscode.Uri.file(a.path);
        const fragment = `L${a.startLine}-${a.endLine}`;
        const ranged = uri.with({ fragment }).toString();
        let selText: string | undefined;
        if (caps?.embeddedContext) {
          try {
            const doc = await vscode.workspace.openTextDocument(uri);
            const end = Math.min(a.endLine, doc.lineCount);
            selText = doc.getText(new vscode.Range(a.startLine - 1, 0, end - 1, doc.lineAt(end - 1).text.length));
            if (selText.length > MAX_EMBED_CHARS) selText = undefined;
          } catch {
            selText = undefined;
          }
        }
        if (selText !== undefined) {
          blocks.push({ type: 'resource', resource: { uri: ranged, text: selText, mimeType: 'text/plain' } });
        } else {
          blocks.push({
            type: 'resource_link',
            uri: ranged,
            name: `${basename(a.path)}:${a.startLine}-${a.endLine}`,
            description: `Lines ${a.startLine}–${a.endLine} of ${a.path}`,
          });
        }
        break;
      }
      case 'image':
        // The webview offers paste only when the agent accepts images; check again here.
        if (caps?.image) blocks.push({ type: 'image', mimeType: a.mimeType, data: a.data });
        break;
    }
  }
  return blocks;
}

function basename(p: string): string {
  return p.split(/[\\/]/).filter(Boolean).pop() ?? p;
}

/** The active editor's selection as an attachment, or undefined when nothing is selected. */
export function currentSelection():
  { attachment: Extract<Attachment, { kind: 'selection' }>; preview: string } | undefined {
  const ed = vscode.window.activeTextEditor;
  if (!ed || ed.document.uri.scheme !== 'file') return undefined;
  const sel = ed.selection;
  const startLine = sel.start.line + 1;
  // A selection ending at column 0 of a line does not include that line.
  let endLine = sel.end.line + 1;
  if (!sel.isEmpty && sel.end.character === 0 && endLine > startLine) endLine--;
  if (sel.isEmpty) return undefined;
  return {
    attachment: { kind: 'selection', path: ed.document.uri.fsPath, startLine, endLine },
    preview: ed.document.getText(sel).slice(0, 200),
  };
}
