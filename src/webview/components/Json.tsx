import { useState } from 'preact/hooks';
import { stringify } from '../stringify';

const MAX_JSON_CHARS = 50_000;

/** Formatted JSON (bounded; "Show all" for more). */
export function Json({ value, label }: { value: unknown; label?: string }) {
  const [all, setAll] = useState(false);
  const text = typeof value === 'string' ? value : stringify(value);
  const long = text.length > MAX_JSON_CHARS;
  return (
    <div class="json-block" data-testid="json">
      {label && <div class="json-label">{label}</div>}
      <pre class="json">{long && !all ? text.slice(0, MAX_JSON_CHARS) + '\n…' : text}</pre>
      {long && !all && (
        <button type="button" class="link-button" onClick={() => setAll(true)}>
          Show all ({Math.round(text.length / 1024)} KB)
        </button>
      )}
    </div>
  );
}
