// The prompt "Send Feedback" sends: the user's review comments, each with its file (relative to
// the folder the agent works in), its 1-based lines and the lines quoted as they read now, then
// what the user wrote. The quote is fenced with more backticks than any run of them inside, so
// code holding ``` (a Markdown file, a template string) cannot end the quote early; the fence
// names the language from the file's extension. Pure: the vscode side reads the lines.

/** One comment as the prompt tells it. */
export interface FeedbackItem {
  /** The file's absolute path. */
  readonly path: string;
  /** 0-based index of the first quoted line. */
  readonly start: number;
  /** The lines as they read now; empty when they were deleted. */
  readonly lines: readonly string[];
  /** What the user wrote: the comment and its replies, in order. */
  readonly notes: readonly string[];
}

/** A folder the paths are told relative to (a workspace folder, or a worktree session's folder). */
export interface PromptRoot {
  readonly path: string;
  /** Its name; used to tell which folder when there are several. */
  readonly name: string;
}

export function feedbackPrompt(items: readonly FeedbackItem[], roots: readonly PromptRoot[]): string {
  const n = items.length;
  const head =
    `Review comments on your changes (${n} comment${n === 1 ? '' : 's'}). Each names a file, its lines ` +
    '(1-based) and quotes them as they read now; please address each one.';
  const parts = items.map((item, i) => {
    const where = `${relativePath(item.path, roots)} ${lineRange(item.start, item.lines.length)}`;
    const quote = item.lines.length
      ? quoteCode(item.lines, fenceLanguage(item.path))
      : '(The commented lines have since been deleted.)';
    return [`Comment ${i + 1} of ${n}: ${where}`, quote, item.notes.join('\n\n')].join('\n');
  });
  return [head, ...parts].join('\n\n');
}

/** "L3" for one line, "L3–L7" for several (1-based, from a 0-based start and a count). */
export function lineRange(start: number, count: number): string {
  const first = start + 1;
  return count > 1 ? `L${first}–L${first + count - 1}` : `L${first}`;
}

/** `lines` in a fence longer than any run of backticks inside, tagged with `language`. */
export function quoteCode(lines: readonly string[], language = ''): string {
  const text = lines.join('\n');
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/**
 * `path` relative to the deepest root holding it, with `/` between the parts; prefixed with the
 * root's name when there are several roots (as VS Code names files in a multi-root workspace);
 * absolute when no root holds it.
 */
export function relativePath(path: string, roots: readonly PromptRoot[]): string {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const file = norm(path);
  const holding = roots
    .filter((r) => file.startsWith(`${norm(r.path)}/`))
    .sort((a, b) => norm(b.path).length - norm(a.path).length)[0];
  if (!holding) return file;
  const rel = file.slice(norm(holding.path).length + 1);
  return roots.length > 1 ? `${holding.name}/${rel}` : rel;
}

/** The fence's language for a file: Markdown's usual name for its extension (none when unknown). */
export function fenceLanguage(path: string): string {
  const name = path.replace(/\\/g, '/').split('/').pop() ?? '';
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return '';
  const ext = name.slice(dot + 1).toLowerCase();
  return BY_EXTENSION[ext] ?? (/^[a-z0-9+#-]{1,12}$/.test(ext) ? ext : '');
}

const BY_NAME: Record<string, string> = { Dockerfile: 'dockerfile', Makefile: 'makefile' };

/** Extensions whose fence name differs from the extension itself. */
const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  kt: 'kotlin',
  cs: 'csharp',
  sh: 'bash',
  zsh: 'bash',
  yml: 'yaml',
  md: 'markdown',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  txt: 'text',
};
