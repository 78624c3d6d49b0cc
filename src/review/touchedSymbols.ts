// "What changed, in one look": the symbols a change touched, named from the language's document
// symbols of the file as it is after the change ("`parseRules` changed, `matchScope` added"). A
// symbol counts as added when every line of it is new and the old lines they replaced do not name
// it, as changed when one of its lines is new or a line was removed inside it; the innermost symbol is named (a method, not its class),
// unless the change also reaches its container outside that symbol. Pure: the symbols come from
// the caller (vscode.executeDocumentSymbolProvider), the hunks from the shared line diff.
import type { Hunk } from '../shared/lineDiff';

export interface SymbolSpan {
  name: string;
  /** 0-based, inclusive. */
  startLine: number;
  endLine: number;
  children?: readonly SymbolSpan[];
}

export interface TouchedSymbol {
  name: string;
  change: 'added' | 'changed';
}

/** Names shown per file at most: a rewrite names its first few and says how many more. */
export const MAX_SYMBOLS = 8;

/** The symbols the hunks (old → new text, 0-based) touched, in document order. */
export function touchedSymbols(symbols: readonly SymbolSpan[], hunks: readonly Hunk[]): TouchedSymbol[] {
  const added = new Set<number>();
  // The lines each new line replaced (empty for a pure insertion): a symbol made only of new
  // lines is a rewrite of an old one when those old lines name it, else it was added.
  const replaced = new Map<number, readonly string[]>();
  // A removal between two lines touches the line after it (and the one before, at the end of a block).
  const removedAt = new Set<number>();
  for (const h of hunks) {
    for (let i = 0; i < h.newLines.length; i++) {
      added.add(h.newStart + i);
      replaced.set(h.newStart + i, h.oldLines);
    }
    if (h.oldLines.length && !h.newLines.length) {
      removedAt.add(h.newStart);
      removedAt.add(h.newStart - 1);
    }
  }
  const out: TouchedSymbol[] = [];
  const visit = (list: readonly SymbolSpan[]) => {
    for (const s of [...list].sort((a, b) => a.startLine - b.startLine)) {
      const lines = range(s.startLine, s.endLine);
      const mine = lines.filter((l) => added.has(l) || removedAt.has(l));
      if (!mine.length) continue;
      if (lines.every((l) => added.has(l)) && !lines.some((l) => names(replaced.get(l) ?? [], s.name))) {
        out.push({ name: s.name, change: 'added' });
        continue;
      }
      const inner = s.children ?? [];
      const inChildren = (l: number) => inner.some((c) => l >= c.startLine && l <= c.endLine);
      // The change is all inside its children: name those, not this container.
      if (inner.length && mine.every(inChildren)) visit(inner);
      else out.push({ name: s.name, change: 'changed' });
    }
  };
  visit(symbols);
  return out;
}

/** "`parseRules` changed, `matchScope` added" (bounded). */
export function describeTouched(touched: readonly TouchedSymbol[]): string {
  const shown = touched.slice(0, MAX_SYMBOLS).map((t) => `${t.name} ${t.change}`);
  const more = touched.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** Whether one of `old` lines names the symbol (a whole word: `x` is not in `max`). */
function names(old: readonly string[], name: string): boolean {
  const bare = name.replace(/^#+\s*/, '').trim();
  if (!bare) return false;
  const word = new RegExp(`(^|[^\\w$])${bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w$])`);
  return old.some((l) => word.test(l));
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}
