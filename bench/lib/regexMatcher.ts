// The regex command matcher Tandem used before the shell grammar (src/client/permissions/
// callFacts.ts and commandScope.ts at 25f0b7c), kept only as the same-run baseline of
// bench/permissions.ts. Never use it to decide anything: quoting defeats it (see the unit test
// "quoting, escapes and ANSI-C strings never smuggle a command past a remembered prefix").
/** Splits a command line at control operators (; && || | & newlines); quotes respected. */
export function commandSegments(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      cur += c;
      if (c === q) q = undefined;
      else if (c === '\\' && q === '"' && i + 1 < line.length) cur += line[++i];
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      cur += c + line[++i];
      continue;
    }
    if (c === '"' || c === "'") {
      q = c;
      cur += c;
      continue;
    }
    // `2>&1` and `&>file` are redirections, not the background operator.
    const redirect = c === '&' && (line[i - 1] === '>' || line[i - 1] === '<' || line[i + 1] === '>');
    if (!redirect && (c === ';' || c === '\n' || c === '|' || c === '&')) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      if ((c === '|' || c === '&') && line[i + 1] === c) i++;
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Command substitution, process substitution or redirection: a prefix says nothing about what runs or what is written. */
export function hasShellTricks(line: string): boolean {
  return /`|\$\(|<\(|>\(|>/.test(
    line
      .replace(/'[^']*'/g, "''")
      .replace(/[12]?>&[12]/g, '')
      .replace(/>\s*\/dev\/null/g, ''),
  );
}

/** `prefix` matches `segment` at a word boundary ("git status" matches "git status -s", not "git statuses"). */
export function startsWithWords(segment: string, prefix: string): boolean {
  const s = segment.replace(/\s+/g, ' ').trim();
  const p = prefix.replace(/\s+/g, ' ').trim();
  if (!p) return false;
  return s === p || s.startsWith(p + ' ');
}

/**
 * A prefix rule on a command line. For allowing, every segment must start with the prefix and
 * the line must have no substitution/redirection ("git status && rm -rf ~" is not "git status").
 * For tightening (reject/ask), any segment starting with it is enough.
 */
export function regexMatchesPrefix(line: string, prefix: string, loosening: boolean): boolean {
  const segs = commandSegments(line);
  if (!segs.length) return false;
  if (loosening) return !hasShellTricks(line) && segs.every((s) => startsWithWords(s, prefix));
  return segs.some((s) => startsWithWords(s, prefix));
}

/** The old remembered-prefix check: one segment, no tricks, starting with the prefix. */
export function regexScopeMatches(prefix: string, line: string, allowing: boolean): boolean {
  const segments = commandSegments(line.trim());
  if (!allowing) return segments.some((s) => startsWithWords(s, prefix));
  return segments.length === 1 && !hasShellTricks(line) && startsWithWords(segments[0], prefix);
}
