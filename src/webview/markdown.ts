// Markdown for agent and user messages: marked (CommonMark + GFM) renders, DOMPurify sanitizes.
// Two layers on purpose: raw HTML in the markdown is shown as text (never parsed), links are
// limited to safe schemes, remote images become links (the CSP would block them anyway), and
// the result still goes through DOMPurify with the same rules.
import { Marked, type Tokens } from 'marked';
import createDOMPurify, { type DOMPurify } from 'dompurify';

const SAFE_HREF = /^(?:https?:|mailto:|#|\/|\.{0,2}\/|[^:/?#]+(?:[/?#]|$))/i;
const SAFE_IMG = /^data:image\/(?:png|jpe?g|gif|webp|bmp);base64,/i;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Whether an href may be a link in the view (no javascript:, command:, vscode:, data: …). */
export function isSafeHref(href: string): boolean {
  const h = href.trim();
  return SAFE_HREF.test(h) && !/^\s*(?:javascript|vbscript|data|command|vscode|file):/i.test(h);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Raw HTML from the agent is text, not markup.
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    code({ text, lang }: Tokens.Code) {
      const language = (lang ?? '').match(/^\S*/)?.[0] ?? '';
      return (
        `<div class="code-block"><div class="code-toolbar"><span class="code-lang">${escapeHtml(language)}</span>` +
        `<button type="button" class="icon-button code-copy" data-copy aria-label="Copy code" title="Copy code"><i class="codicon codicon-copy" aria-hidden="true"></i></button></div>` +
        `<pre><code${language ? ` class="language-${escapeHtml(language)}"` : ''}>${escapeHtml(text.replace(/\n$/, ''))}</code></pre></div>\n`
      );
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      if (!isSafeHref(href)) return `<span class="link-blocked" title="Link not allowed">${inner}</span>`;
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      if (SAFE_IMG.test(href))
        return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''}>`;
      // Remote images are not loaded: they could track the reader.
      const label = `<i class="codicon codicon-file-media" aria-hidden="true"></i> ${escapeHtml(text || 'image')}`;
      return isSafeHref(href)
        ? `<a class="image-link" href="${escapeHtml(href)}" title="Remote image (not loaded)">${label}</a>`
        : `<span class="image-link">${label}</span>`;
    },
  },
});

let purifier: DOMPurify | undefined;

/** The sanitizer; tests pass a Node DOM window (jsdom), the webview uses its own window. */
export function setPurifyWindow(win: unknown): void {
  purifier = configure(createDOMPurify(win as Window & typeof globalThis));
}

function configure(p: DOMPurify): DOMPurify {
  p.addHook('uponSanitizeAttribute', (node, data) => {
    if (data.attrName === 'href' && !isSafeHref(data.attrValue)) data.keepAttr = false;
    if (data.attrName === 'src' && (node as Element).nodeName === 'IMG' && !SAFE_IMG.test(data.attrValue))
      data.keepAttr = false;
    if (data.attrName === 'style') data.keepAttr = false;
  });
  p.addHook('afterSanitizeElements', (node) => {
    if ((node as Element).nodeName === 'IMG' && !(node as Element).getAttribute('src')) (node as Element).remove();
  });
  return p;
}

function getPurifier(): DOMPurify {
  if (!purifier) setPurifyWindow(window);
  return purifier!;
}

export function sanitize(html: string): string {
  return getPurifier().sanitize(html, {
    FORBID_TAGS: [
      'style',
      'script',
      'iframe',
      'object',
      'embed',
      'form',
      'input',
      'textarea',
      'select',
      'link',
      'meta',
      'base',
      'svg',
      'math',
    ],
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
    ALLOW_DATA_ATTR: true,
  }) as string;
}

/**
 * One line of words and plain punctuation: no character markdown or HTML gives a meaning to
 * (no list or heading start, no emphasis, link, code, autolink, entity or tag).
 */
const PLAIN = /^(?!\d{1,9}[.)])[\p{L}\p{N}][\p{L}\p{N} ,;.?!'"]*$/u;

/** Whether `src` renders as a single paragraph of its own text (no parse, no sanitizer). */
export function isPlainParagraph(src: string): boolean {
  return PLAIN.test(src) && !/www\./i.test(src);
}

/** Markdown → sanitized HTML. */
export function renderMarkdown(src: string): string {
  // The streaming tail is re-rendered per chunk and is usually a plain sentence in progress:
  // parsing and sanitizing it (a fresh document each time) would cost more than the rest.
  if (isPlainParagraph(src)) return `<p>${escapeHtml(src)}</p>\n`;
  return renderMarkdownSlow(src);
}

/** The full path (parse + sanitize); tests compare the fast path against it. */
export function renderMarkdownSlow(src: string): string {
  return sanitize(marked.parse(src) as string);
}
