// A test workspace made a git repository with everything in it committed, as the worktree tests
// need (sessions branch from HEAD). Unit, integration and e2e tests share it; e2e files import
// the build: '../../out/test/support/gitRepo.js'.
import { execFileSync } from 'node:child_process';

/** Runs git in `cwd` and returns its trimmed output; throws with git's stderr when it fails. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** `git init` on `main` with a local identity (no signing), and one commit of whatever `dir` holds. */
export function initRepo(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'commit.gpgsign', 'false');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base', '--allow-empty');
}
