// Opening what the view links to: a file at a line (tool call locations, file links in messages
// and markdown), a web page. Links come from the agent: nothing here may throw on a bad one.
import type { Host } from './host';

/** Opens a file in the editor, at a 1-based line when there is one (0, null or absent: the top). */
export function openLocation(host: Pick<Host, 'post'>, path: string, line?: number | null): void {
  host.post(line && line > 0 ? { type: 'openLocation', path, line } : { type: 'openLocation', path });
}

/** A URI or path with its %-escapes decoded; one that does not decode (`report%.txt`) is kept as written. */
export function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A link in rendered markdown: web and mail links open outside; `/path#L12` opens the file (at the line). */
export function openHref(host: Pick<Host, 'post'>, href: string): void {
  if (/^(https?:|mailto:)/i.test(href)) host.post({ type: 'openExternal', url: href });
  else if (href.startsWith('/')) {
    // `s`: an href can hold U+2028 (`[x](/a\u2028b)`), a line terminator `.` alone does not match.
    const m = /^(.*?)(?:#L?(\d+).*)?$/s.exec(href)!;
    openLocation(host, decoded(m[1]), m[2] ? Number(m[2]) : undefined);
  }
}
