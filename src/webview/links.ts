// Opening what the view links to: a file at a line (tool call locations, file links in messages
// and markdown).
import type { Host } from './host';

/** Opens a file in the editor, at a 1-based line when there is one (0, null or absent: the top). */
export function openLocation(host: Pick<Host, 'post'>, path: string, line?: number | null): void {
  host.post(line && line > 0 ? { type: 'openLocation', path, line } : { type: 'openLocation', path });
}
