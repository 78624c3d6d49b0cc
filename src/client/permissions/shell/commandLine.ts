// One model of a shell command line, from the bash grammar: the simple commands it runs, each as
// the argv bash would pass, and every construct that makes the line unsafe to match by a prefix.
// Rules, remembered decisions and the card all judge a line through this. What the model does
// not fully understand is never matched by a prefix (fail closed): only by its exact text.
import { parseBash, type SyntaxNode } from './bashParser';
import { describeNode, UNPARSED, wordValue } from './words';

export interface SimpleCommand {
  /** argv after quote removal (program first); only for commands fully understood. */
  readonly words: readonly string[];
  /** The command's text in the line. */
  readonly text: string;
}

export interface CommandLine {
  readonly line: string;
  /** Why the line cannot be matched by a prefix (empty when every part is understood). */
  readonly unsafe: readonly string[];
  /** The top-level commands joined by `;`, `&&`, `||`, `|` (complete only when `unsafe` is empty). */
  readonly commands: readonly SimpleCommand[];
  /**
   * Every simple command anywhere in the line (inside substitutions, subshells, `if` bodies …),
   * its words as far as they could be read (a word that could not is kept as written). For rules
   * that tighten: a reject must see `rm` in `(rm -rf x)` and in `echo $(rm -rf x)`.
   */
  readonly nested: readonly SimpleCommand[];
}

/** Redirections that neither write nor read a file: to /dev/null, or one descriptor onto another. */
function harmlessRedirect(node: SyntaxNode): boolean {
  if (node.type !== 'file_redirect') return false;
  const dest = node.childForFieldName('destination');
  const op = node.children.find((c) => c && !c.isNamed)?.text ?? '';
  // The grammar hangs words written after a redirection on it (`git >/dev/null status`): bash
  // passes them to the command, so a redirection with more than its one target is not understood.
  const targets = node.namedChildren.filter((c) => c && c.type !== 'file_descriptor');
  if (!dest || targets.length !== 1) return false;
  if (/^(>|>>|&>|&>>)$/.test(op) && dest.text === '/dev/null') return true;
  return /^(>&|<&)$/.test(op) && /^[0-9]$/.test(dest.text);
}

const OPERATORS = new Set([';', '&&', '||', '|', '|&']);

class Analysis {
  readonly unsafe: string[] = [];
  readonly commands: SimpleCommand[] = [];
  readonly nested: SimpleCommand[] = [];

  constructor(private readonly line: string) {}

  refuse(why: string): void {
    if (!this.unsafe.includes(why)) this.unsafe.push(why);
  }

  /** Text between a node's children must be blank: anything else is something the walk did not see. */
  checkGaps(node: SyntaxNode): void {
    let at = node.startIndex;
    for (const c of node.children) {
      if (!c) continue;
      this.gap(this.line.slice(at, c.startIndex));
      at = c.endIndex;
    }
    this.gap(this.line.slice(at, node.endIndex));
  }

  private gap(text: string): void {
    if (text.includes('\n')) this.refuse('a newline');
    if (/\\/.test(text)) this.refuse('a line continuation');
    // Bash's blanks are space and tab only: the grammar (and String.trim) also skip \v, \f and
    // Unicode spaces, which bash keeps inside the word.
    else if (/[^ \t\n]/.test(text))
      this.refuse(`text the shell grammar skipped (${JSON.stringify(text.slice(0, 20))})`);
  }

  statement(node: SyntaxNode): void {
    switch (node.type) {
      case 'command':
        return this.command(node);
      case 'comment':
        return;
      case 'list':
      case 'pipeline':
        this.checkGaps(node);
        for (const c of node.children) {
          if (!c) continue;
          if (c.isNamed) this.statement(c);
          else if (!OPERATORS.has(c.type)) this.refuse(c.type === '&' ? 'a background `&`' : `the operator ${c.type}`);
        }
        return;
      case 'redirected_statement': {
        this.checkGaps(node);
        const body = node.childForFieldName('body');
        for (const c of node.children) {
          if (!c || c === body || c.id === body?.id) continue;
          if (!harmlessRedirect(c))
            this.refuse(c.type === 'heredoc_redirect' ? 'a here-document' : 'a redirection to or from a file');
          this.visitNested(c);
        }
        if (body) this.statement(body);
        else this.refuse('a redirection with no command');
        return;
      }
      default:
        this.refuse(describeNode(node.type));
        this.visitNested(node);
    }
  }

  private command(node: SyntaxNode): void {
    this.checkGaps(node);
    const words: string[] = [];
    const asWritten: string[] = [];
    let understood = true;
    let prevEnd = -1;
    for (const c of node.children) {
      if (!c) continue;
      // Bash joins parts written with no blank between them into one word; the grammar does not
      // always (`$'' ' \'\a`): two parts touching are refused rather than read as two words.
      if (c.startIndex === prevEnd && c.type !== 'comment') {
        this.refuse('words the shell grammar split differently from bash');
        understood = false;
      }
      prevEnd = c.endIndex;
      if (c.type === 'variable_assignment') {
        this.refuse('a variable assignment before the command');
        understood = false;
        this.visitNested(c);
        continue;
      }
      if (c.type === 'file_redirect' || c.type === 'herestring_redirect' || c.type === 'heredoc_redirect') {
        if (!harmlessRedirect(c)) this.refuse('a redirection to or from a file');
        this.visitNested(c);
        continue;
      }
      const word = c.type === 'command_name' ? c.firstNamedChild : c.isNamed ? c : undefined;
      if (!word || c.type === 'comment') {
        if (c.type !== 'comment') {
          this.refuse(`the token ${JSON.stringify(c.text)}`);
          understood = false;
        }
        continue;
      }
      const v = wordValue(word);
      if ('unsafe' in v) {
        this.refuse(v.unsafe);
        understood = false;
        this.visitNested(word);
        asWritten.push(word.text);
      } else {
        words.push(v.value);
        asWritten.push(v.value);
      }
    }
    const text = node.text;
    if (understood && words.length) this.commands.push({ words, text });
    if (asWritten.length) this.nested.push({ words: asWritten, text });
  }

  /** Commands inside a construct the model refuses still count for rules that tighten. */
  visitNested(node: SyntaxNode): void {
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'command') {
        const before = this.commands.length;
        this.command(c);
        this.commands.length = before; // nested commands are never top-level ones
      } else this.visitNested(c);
    }
  }
}

// One decision looks at a line once per rule and remembered prefix, and the prefixes themselves
// are lines: the last models are kept (they are immutable), most recent last.
const MEMO_SIZE = 256;
const memo = new Map<string, CommandLine>();

/** Longer lines are not parsed (nor kept): matched by their exact text only. */
export const MAX_LINE = 16 * 1024;

/**
 * The model of one line; undefined until the grammar has loaded, for a line over MAX_LINE, or
 * one too deeply nested to walk (callers then fail closed).
 */
export function analyzeCommandLine(line: string): CommandLine | undefined {
  if (line.length > MAX_LINE) return undefined;
  const known = memo.get(line);
  if (known) {
    memo.delete(line);
    memo.set(line, known);
    return known;
  }
  const model = parse(line);
  if (!model) return undefined;
  memo.set(line, model);
  if (memo.size > MEMO_SIZE) memo.delete(memo.keys().next().value!);
  return model;
}

function parse(line: string): CommandLine | undefined {
  try {
    return parseBash(line, walk(line));
  } catch {
    return undefined; // a stack overflow on `((((…))))`: not understood
  }
}

function walk(line: string) {
  return (root: SyntaxNode): CommandLine => {
    const a = new Analysis(line);
    if (root.hasError) {
      a.refuse(UNPARSED);
      a.visitNested(root);
    } else {
      a.checkGaps(root);
      for (const c of root.children) {
        if (!c) continue;
        if (c.isNamed) a.statement(c);
        else if (c.type === '&') a.refuse('a background `&`');
        else if (c.type !== ';') a.refuse(`the operator ${c.type}`);
      }
    }
    if (!a.commands.length && !a.unsafe.length) a.refuse('no command');
    return { line, unsafe: a.unsafe, commands: a.commands, nested: a.nested };
  };
}
