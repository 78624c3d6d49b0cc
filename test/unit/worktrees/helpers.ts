// Real git repositories in temp folders for the worktree engine's tests. The machine's git
// configuration is switched off for this process (no global identity, hooks, signing or default
// branch leaks in): the engine gets its identity from the tests, as the API allows.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { TestContext } from 'node:test';

process.env.GIT_CONFIG_NOSYSTEM = '1';
process.env.GIT_CONFIG_GLOBAL = devNull;

export const identity = { name: 'Tandem Test', email: 'test@localhost' };

/** Runs git in `cwd` as the test's user; returns stdout. */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', `user.name=${identity.name}`, '-c', `user.email=${identity.email}`, ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function put(root: string, rel: string, text: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

export const read = (root: string, rel: string): string => readFileSync(join(root, rel), 'utf8');

export interface Fixture {
  /** The user's repository (one commit of `files`, on branch main). */
  repo: string;
  /** Where worktrees go (stands in for the extension's storage folder). */
  parent: string;
  /** A scratch folder outside both. */
  scratch: string;
}

/** A repository with one commit of `files` and a parent folder for worktrees, removed after the test. */
export function fixture(t: TestContext, files: Record<string, string> = { 'a.txt': 'one\ntwo\nthree\n' }): Fixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-wt-')));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const repo = join(root, 'repo');
  const parent = join(root, 'storage', 'worktrees');
  const scratch = join(root, 'scratch');
  mkdirSync(repo, { recursive: true });
  mkdirSync(scratch, { recursive: true });
  sh(repo, 'init', '-q', '-b', 'main');
  for (const [rel, text] of Object.entries(files)) put(repo, rel, text);
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', 'initial');
  return { repo, parent, scratch };
}

function filesUnder(root: string, dir = root, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.git' && dir === root) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(root, p, out);
    else out.push(`${relative(root, p)}=${readFileSync(p, 'base64')}`);
  }
  return out.sort();
}

/**
 * Everything of the user's that an operation must not change: the working tree's bytes (ignored
 * files too), the index entries, `git status`, HEAD, the current branch and the stash list.
 */
export function userState(repo: string): Record<string, string> {
  return {
    files: filesUnder(repo).join('\n'),
    index: sh(repo, 'ls-files', '-s'),
    status: sh(repo, '--no-optional-locks', 'status', '--porcelain', '--untracked-files=all'),
    head: sh(repo, 'rev-parse', 'HEAD'),
    branch: sh(repo, 'branch', '--show-current'),
    stash: sh(repo, 'stash', 'list'),
  };
}

export const headOf = (cwd: string): string => sh(cwd, 'rev-parse', 'HEAD').trim();
