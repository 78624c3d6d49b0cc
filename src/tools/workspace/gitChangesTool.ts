// GetGitChanges (Workspace group): the staged, unstaged and untracked files of each git
// repository in the workspace and their diffs, from VS Code's built-in git extension (its API,
// so the answer is what the Source Control view shows, for any repository VS Code opened).
// Pure: the git extension answers through GitPort.
import * as nodePath from 'node:path';
import { isInside } from '../../client/permissions/callFacts';
import { clipText } from '../code/codeShape';
import { textResult, type Tool, type ToolResult } from '../types';
import { displayPath, foldersOf, pathSchema, resolveInputPath, type WorkspaceFolderInfo } from './workspacePaths';

/** Diff text returned per answer, at most (the rest is cut and said so). */
export const MAX_DIFF_CHARS = 30_000;
const MAX_FILES = 300;

export interface GitFileChange {
  /** Absolute path. */
  path: string;
  /** "modified", "added", "deleted", "renamed", "untracked", "conflict (both modified)", … */
  status: string;
  /** Where a renamed file came from. */
  originalPath?: string;
}

export interface GitRepository {
  /** Absolute path of the repository's root. */
  root: string;
  branch?: string;
  staged: GitFileChange[];
  unstaged: GitFileChange[];
  untracked: GitFileChange[];
  /** Files with merge conflicts. */
  conflicts: GitFileChange[];
}

export interface GitPort {
  folders(): WorkspaceFolderInfo[];
  /** The repositories VS Code's git extension has open, or why there are none to ask. */
  repositories(): Promise<GitRepository[] | { unavailable: string }>;
  /** `git diff` (unstaged) or `git diff --cached` (staged) of a repository. */
  diff(root: string, staged: boolean): Promise<string>;
}

/** `p` is `scope` or below it (no scope: everything is). */
function under(p: string, scope: string | undefined): boolean {
  return !scope || isInside(p, scope);
}

/** The file sections of a unified diff whose file is `scope` or below it. */
export function diffUnder(diff: string, root: string, scope: string | undefined): string {
  if (!scope || isInside(root, scope)) return diff;
  const sections = diff.split(/^(?=diff --git )/m);
  return sections
    .filter((s) => {
      const m = /^diff --git a\/(.*?) b\/(.*)$/m.exec(s);
      return !!m && [m[1], m[2]].some((f) => under(nodePath.join(root, f), scope));
    })
    .join('');
}

export function gitChangesTool(port: GitPort): Tool {
  return {
    name: 'GetGitChanges',
    description:
      "The user's uncommitted git changes, as VS Code's Source Control view has them: per repository the branch, the staged, unstaged, untracked and conflicted files, and the diffs (staged and unstaged) unless diff is false. Optionally only below a path.",
    parametersSchema: {
      type: 'object',
      properties: {
        path: pathSchema(
          'Only changes of this file or below this folder (relative to the workspace folder or absolute).',
        ),
        diff: { type: 'boolean', description: 'Include the diff text (default true).' },
      },
      additionalProperties: false,
    },
    handler: async (a, ctx): Promise<ToolResult> => {
      const folders = foldersOf(port, ctx);
      // A worktree session's changes are its worktree's, never the user's checkout's.
      const scope = typeof a.path === 'string' ? resolveInputPath(a.path, folders) : ctx.place?.cwd;
      const repos = await port.repositories();
      if (!Array.isArray(repos)) return textResult(repos.unavailable, true);
      const relevant = repos.filter((r) => !scope || under(scope, r.root) || under(r.root, scope));
      if (!relevant.length)
        return textResult(
          ctx.place && typeof a.path !== 'string'
            ? `This session's worktree (${ctx.place.label}) is not open in VS Code's Source Control; run git in a terminal there.`
            : scope
              ? `${a.path} is not inside a git repository VS Code has open.`
              : 'No git repository is open in this workspace.',
        );
      const show = (c: GitFileChange) => ({
        path: displayPath(c.path, folders),
        status: c.status,
        ...(c.originalPath ? { from: displayPath(c.originalPath, folders) } : {}),
      });
      let budget = MAX_DIFF_CHARS;
      const cut: string[] = [];
      const out = [];
      for (const r of relevant) {
        const pick = (list: GitFileChange[]) => list.filter((c) => under(c.path, scope)).slice(0, MAX_FILES);
        const staged = pick(r.staged);
        const unstaged = pick(r.unstaged);
        const entry: Record<string, unknown> = {
          root: displayPath(r.root, folders),
          ...(r.branch ? { branch: r.branch } : {}),
          staged: staged.map(show),
          unstaged: unstaged.map(show),
          untracked: pick(r.untracked).map(show),
          ...(r.conflicts.length ? { conflicts: pick(r.conflicts).map(show) } : {}),
        };
        if (a.diff !== false) {
          for (const [key, files, cached] of [
            ['stagedDiff', staged, true],
            ['unstagedDiff', unstaged, false],
          ] as const) {
            if (!files.length) continue;
            const text = diffUnder(await port.diff(r.root, cached), r.root, scope);
            const c = clipText(text, Math.max(0, budget));
            budget -= c.text.length;
            entry[key] = c.text;
            if (c.truncated) cut.push(`${key} of ${entry.root as string}: ${c.truncated}`);
          }
        }
        out.push(entry);
      }
      const json = {
        repositories: out,
        ...(cut.length
          ? { truncated: `Diffs are cut at ${MAX_DIFF_CHARS} characters in all (${cut.join('; ')}); pass "path".` }
          : {}),
      };
      return { content: [{ type: 'json', json }] };
    },
  };
}
