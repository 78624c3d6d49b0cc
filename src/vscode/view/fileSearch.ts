// @-mention completion: workspace files whose path matches what was typed after "@".
import * as vscode from 'vscode';
import type { FileHit } from '../../shared/protocol';

const EXCLUDE = '**/{node_modules,.git,dist,out,.vscode-test}/**';

export async function searchFiles(query: string, max = 30): Promise<FileHit[]> {
  const q = query.trim().replace(/[{}[\]*?]/g, '');
  // A cheap glob narrows the search; the fuzzy ranking below orders what it found.
  const glob = q ? `**/*${q.split(/[\\/]/).pop()!.split('').join('*')}*` : '**/*';
  const uris = await vscode.workspace.findFiles(glob, EXCLUDE, 2000);
  const hits = uris
    .map((u) => {
      const rel = vscode.workspace.asRelativePath(u, false);
      return { u, rel, score: score(rel, q) };
    })
    .filter((h) => h.score > 0 || !q);
  hits.sort((a, b) => b.score - a.score || a.rel.length - b.rel.length || a.rel.localeCompare(b.rel));
  return hits.slice(0, max).map((h) => {
    const i = h.rel.lastIndexOf('/');
    return {
      path: h.u.fsPath,
      label: i >= 0 ? h.rel.slice(i + 1) : h.rel,
      description: i >= 0 ? h.rel.slice(0, i) : '',
    };
  });
}

/** Subsequence match, favouring the file name, consecutive runs and word starts. */
export function score(path: string, q: string): number {
  if (!q) return 1;
  const p = path.toLowerCase(),
    s = q.toLowerCase();
  const name = p.slice(p.lastIndexOf('/') + 1);
  if (name.startsWith(s)) return 1000 - name.length;
  if (name.includes(s)) return 800 - name.length;
  if (p.includes(s)) return 600 - p.length;
  let i = 0,
    total = 0,
    run = 0;
  for (let j = 0; j < p.length && i < s.length; j++) {
    if (p[j] === s[i]) {
      i++;
      run++;
      total += run * 2 + (j === 0 || '/._-'.includes(p[j - 1]) ? 5 : 0);
    } else run = 0;
  }
  return i === s.length ? total : 0;
}
