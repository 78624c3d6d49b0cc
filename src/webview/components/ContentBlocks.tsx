// ACP content blocks (messages and tool call content): text as markdown (or, for a tool's output,
// as it is), images, resource links and embedded resources; anything else as formatted JSON, never dropped.
import type { ContentBlock } from '../../shared/sessionModel';
import { useHost } from '../host';
import { decoded, openLocation } from '../links';
import { Markdown } from './Markdown';
import { lazyComponent } from '../lazy';

/** Text above this size is shown as plain text (parsing megabytes of markdown would stall), and cut here. */
const MAX_MARKDOWN_CHARS = 100_000;
const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|bmp)$/;
/** Content nobody foresaw is rare: its JSON view loads when one shows. */
export const Json = lazyComponent(() => import('./Json.js').then((m) => m.Json));

/**
 * `stream`: a message (markdown cached per block, any length); else tool output (bounded).
 * `literal`: text shown as it is (a command's output, a file's contents: webview/toolOutput.ts).
 */
export function ContentBlockView({
  block,
  cacheKey,
  stream,
  literal,
}: {
  block: ContentBlock;
  cacheKey: string;
  stream?: boolean;
  literal?: boolean;
}) {
  const b = block as ContentBlock & { type: string };
  switch (b.type) {
    case 'text':
      return literal || (!stream && b.text.length > MAX_MARKDOWN_CHARS) ? (
        <pre class="plain-text" data-testid="plain-text">
          {b.text.length > MAX_MARKDOWN_CHARS ? b.text.slice(0, MAX_MARKDOWN_CHARS) : b.text}
          {b.text.length > MAX_MARKDOWN_CHARS && `\n… ${b.text.length - MAX_MARKDOWN_CHARS} more characters`}
        </pre>
      ) : (
        <Markdown text={b.text} cacheKey={cacheKey} />
      );
    case 'image':
      return IMAGE_MIME.test(b.mimeType) && /^[A-Za-z0-9+/=\s]+$/.test(b.data.slice(0, 4096)) ? (
        <img
          class="content-image"
          src={`data:${b.mimeType};base64,${b.data}`}
          alt={'Image' + (b.uri ? ` ${b.uri}` : '')}
          data-testid="content-image"
        />
      ) : (
        <div class="resource">
          <i class="codicon codicon-file-media" aria-hidden="true" /> image ({b.mimeType})
        </div>
      );
    case 'audio':
      return (
        <div class="resource">
          <i class="codicon codicon-unmute" aria-hidden="true" /> audio ({b.mimeType})
        </div>
      );
    case 'resource_link':
      return <ResourceChip uri={b.uri} label={b.title ?? b.name} description={b.description ?? undefined} />;
    case 'resource': {
      const r = b.resource as { uri: string; text?: string; blob?: string; mimeType?: string | null };
      return (
        <div class="embedded-resource" data-testid="content-resource">
          <ResourceChip uri={r.uri} label={labelOf(r.uri)} />
          {typeof r.text === 'string' && (
            <pre class="resource-text">{r.text.length > 20_000 ? r.text.slice(0, 20_000) + '\n…' : r.text}</pre>
          )}
        </div>
      );
    }
    default:
      return <Json value={block} label="Unknown content" />;
  }
}

function labelOf(uri: string): string {
  const path = uri.replace(/#.*$/, '');
  const name = decoded(path.split('/').pop() || uri);
  const frag = /#L(\d+)(?:-(\d+))?$/.exec(uri);
  return frag ? `${name}:${frag[1]}${frag[2] ? `-${frag[2]}` : ''}` : name;
}

export function ResourceChip({ uri, label, description }: { uri: string; label: string; description?: string }) {
  const host = useHost();
  const open = () => {
    if (/^file:/i.test(uri)) {
      // `new URL` throws on what it cannot parse (`file://[x`): such a link opens nothing.
      const u = URL.canParse(uri) && new URL(uri);
      const m = u && /^#?L(\d+)/.exec(u.hash);
      if (u) openLocation(host, decoded(u.pathname), m ? Number(m[1]) : undefined);
    } else if (/^(https?:|mailto:)/i.test(uri)) host.post({ type: 'openExternal', url: uri });
  };
  return (
    <button type="button" class="chip" title={description ?? uri} onClick={open} data-testid="resource-link">
      <i class="codicon codicon-file" aria-hidden="true" /> {label}
    </button>
  );
}
