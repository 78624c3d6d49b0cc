// Quote removal: the argument bash passes for one word of the syntax tree, or why it cannot be
// known without running anything (an expansion, a glob, a brace or tilde expansion). Everything
// not listed here is "not understood", so a new grammar construct fails closed.
import type { SyntaxNode } from './bashParser';

export type WordValue = { value: string } | { unsafe: string };

const unsafe = (why: string): WordValue => ({ unsafe: why });

/** Unquoted characters that make bash rewrite a word: globs, braces, expansions, history, tilde (checked apart). */
const UNQUOTED_SPECIAL: Record<string, string> = {
  '*': 'a glob',
  '?': 'a glob',
  '[': 'a glob',
  '{': 'a brace expansion',
  '}': 'a brace expansion',
  $: 'an expansion',
  '`': 'a command substitution',
  '!': 'a `!`',
  '(': 'a subshell or pattern',
  ')': 'a subshell or pattern',
  '<': 'a redirection',
  '>': 'a redirection',
  '|': 'a pipe',
  '&': 'a background or redirection operator',
  ';': 'a command separator',
  '\n': 'a newline',
  '\r': 'a carriage return',
};

/** An unquoted stretch of a word: backslash escapes removed, specials refused. `atStart`: a `~` here would expand. */
export function unquoted(text: string, atStart: boolean): WordValue {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      if (i + 1 >= text.length) return unsafe('a trailing backslash');
      if (text[i + 1] === '\n') return unsafe('a line continuation');
      out += text[++i];
      continue;
    }
    if (c === '~' && ((atStart && i === 0) || text[i - 1] === '=' || text[i - 1] === ':'))
      return unsafe('a tilde expansion');
    if (c === "'" || c === '"') return unsafe('a quote the parser did not pair');
    const why = UNQUOTED_SPECIAL[c];
    if (why) return unsafe(why);
    out += c;
  }
  return { value: out };
}

/** The inside of "…": `\` escapes only $ ` " \ and newline; any expansion is refused. */
function doubleQuoted(inner: string): WordValue {
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '\\' && i + 1 < inner.length && '$`"\\\n'.includes(inner[i + 1])) {
      if (inner[i + 1] === '\n') return unsafe('a line continuation');
      out += inner[++i];
      continue;
    }
    if (c === '$' || c === '`') return unsafe('an expansion in double quotes');
    out += c;
  }
  return { value: out };
}

const C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** The inside of $'…' (ANSI-C quoting). Escapes it cannot decode for certain are refused. */
function ansiC(inner: string): WordValue {
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = inner[++i];
    if (e === undefined) return unsafe("a trailing backslash in $'…'");
    if (C_ESCAPES[e] !== undefined) {
      out += C_ESCAPES[e];
      continue;
    }
    const oct = /^[0-7]{1,3}/.exec(inner.slice(i));
    const hex = e === 'x' ? /^[0-9A-Fa-f]{1,2}/.exec(inner.slice(i + 1)) : null;
    const code = oct ? parseInt(oct[0], 8) : hex ? parseInt(hex[0], 16) : undefined;
    // \0 ends the word in bash; \u, \U and \c depend on the locale: not worth guessing.
    if (code === undefined || code === 0 || code > 0x7f) return unsafe(`the escape \\${e} in $'…'`);
    out += String.fromCharCode(code);
    i += oct ? oct[0].length - 1 : hex![0].length;
  }
  return { value: out };
}

/** The value of one word node (a command name or an argument). */
export function wordValue(node: SyntaxNode, atStart = true): WordValue {
  switch (node.type) {
    case 'word':
      return unquoted(node.text, atStart);
    case 'number':
      return /^[0-9]+$/.test(node.text) ? { value: node.text } : unsafe('a number bash may read as an expression');
    case 'raw_string':
      return /^'[^']*'$/s.test(node.text) ? { value: node.text.slice(1, -1) } : unsafe("a '…' string");
    case 'string':
      if (node.namedChildren.some((c) => c && c.type !== 'string_content'))
        return unsafe('an expansion in double quotes');
      return /^"(?:[^"\\]|\\.)*"$/s.test(node.text) ? doubleQuoted(node.text.slice(1, -1)) : unsafe('a "…" string');
    case 'ansi_c_string':
      return /^\$'(?:[^'\\]|\\.)*'$/s.test(node.text) ? ansiC(node.text.slice(2, -1)) : unsafe("a $'…' string");
    case 'concatenation':
      return concatenation(node, atStart);
    default:
      return unsafe(describeNode(node.type));
  }
}

/** Parts side by side form one word; text between parts (the parser's anonymous tokens) is read as unquoted. */
function concatenation(node: SyntaxNode, atStart: boolean): WordValue {
  let out = '';
  let at = node.startIndex;
  const text = node.text;
  const read = (v: WordValue): boolean => {
    if ('unsafe' in v) return false;
    out += v.value;
    return true;
  };
  for (const child of node.children) {
    if (!child) continue;
    const gap = text.slice(at - node.startIndex, child.startIndex - node.startIndex);
    if (gap && !read(unquoted(gap, atStart && at === node.startIndex))) return unquoted(gap, false);
    const first = atStart && child.startIndex === node.startIndex;
    const v = child.isNamed ? wordValue(child, first) : unquoted(child.text, first);
    if ('unsafe' in v) return v;
    out += v.value;
    at = child.endIndex;
  }
  const tail = text.slice(at - node.startIndex);
  if (tail && !read(unquoted(tail, false))) return unquoted(tail, false);
  return { value: out };
}

/** Why a line the grammar could not parse is refused (rules that tighten then also read its text). */
export const UNPARSED = 'text the shell grammar cannot parse';

const NODE_WORDS: Record<string, string> = {
  simple_expansion: 'a variable expansion',
  expansion: 'a parameter expansion',
  command_substitution: 'a command substitution',
  process_substitution: 'a process substitution',
  arithmetic_expansion: 'an arithmetic expansion',
  brace_expression: 'a brace expansion',
  translated_string: 'a $"…" string',
  extglob_pattern: 'a glob',
  ERROR: UNPARSED,
};

/** A node type in words, for "matched by its exact text: it has …". */
export function describeNode(type: string): string {
  const words = type.replace(/_/g, ' ');
  return NODE_WORDS[type] ?? `${/^[aeiou]/.test(words) ? 'an' : 'a'} ${words}`;
}
