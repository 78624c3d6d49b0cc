// The one way src/worktrees/ runs git: execFile with an argument array (never a shell, so no path
// or branch name is ever parsed as shell syntax), a working folder, a timeout and an output cap.
// Every failure names the git command, the folder and git's own stderr, so a message shown to
// the user says what went wrong without a trip to the log.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Who commits when the repository has no user.name / user.email (tests; otherwise git config applies). */
export interface GitIdentity {
  name: string;
  email: string;
}

export interface GitOptions {
  cwd: string;
  /** Default 120 s: a checkout of a large repository takes a while on a slow disk. */
  timeoutMs?: number;
  /** Default 64 MiB of stdout. */
  maxBuffer?: number;
  /** Extra environment (e.g. GIT_INDEX_FILE for a throwaway index). */
  env?: Record<string, string>;
  identity?: GitIdentity;
  /** Written to git's stdin (e.g. NUL-separated paths for `--stdin -z`). */
  input?: string;
}

export interface GitResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export class GitError extends Error {
  override readonly name = 'GitError';
  constructor(
    readonly command: string,
    readonly cwd: string,
    /** The exit code, or undefined when git did not run or was killed (timeout, output cap). */
    readonly exitCode: number | undefined,
    readonly stderr: string,
    reason?: string,
  ) {
    const detail = reason ?? (stderr.trim() || `exit code ${exitCode}`);
    super(`${command} failed in ${cwd}: ${detail}`);
  }
}

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024;

// Variables that would point git somewhere other than `cwd` (a VS Code started from a git hook
// inherits them); every command here is addressed by its folder alone.
const REDIRECTING_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY'];

function envFor(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of REDIRECTING_ENV) delete env[k];
  // Never wait for a credential or an editor: nothing here talks to a remote or asks for text.
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_EDITOR = 'true';
  return { ...env, ...extra };
}

/**
 * The options every command gets: paths in output as they are (not "\303\251"-quoted), and no
 * optional locks, so a read such as `git status` never rewrites the user's index behind their back.
 */
function prefix(identity: GitIdentity | undefined): string[] {
  const args = ['-c', 'core.quotepath=off', '--no-optional-locks'];
  if (identity) args.push('-c', `user.name=${identity.name}`, '-c', `user.email=${identity.email}`);
  return args;
}

export const describeCommand = (args: readonly string[]): string => `git ${args.join(' ')}`;

/** Runs git and resolves with its exit code and output, whatever the exit code; rejects only when git did not run to the end. */
export function gitResult(args: readonly string[], opts: GitOptions): Promise<GitResult> {
  const command = describeCommand(args);
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...prefix(opts.identity), ...args],
      {
        cwd: opts.cwd,
        env: envFor(opts.env),
        timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBuffer: opts.maxBuffer ?? DEFAULT_MAX_BUFFER,
        encoding: 'utf8',
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        if (!err) return resolve({ exitCode: 0, stdout, stderr });
        const e = err as NodeJS.ErrnoException & { code?: string | number; killed?: boolean; signal?: string };
        if (e.code === 'ENOENT') {
          const why = existsSync(opts.cwd) ? 'git was not found on PATH' : 'the folder does not exist';
          return reject(new GitError(command, opts.cwd, undefined, '', why));
        }
        if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return reject(new GitError(command, opts.cwd, undefined, stderr, 'its output was larger than the cap'));
        if (e.killed || e.signal) {
          const why = e.killed ? `timed out after ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms` : `killed by ${e.signal}`;
          return reject(new GitError(command, opts.cwd, undefined, stderr, why));
        }
        if (typeof e.code === 'number') return resolve({ exitCode: e.code, stdout, stderr });
        reject(new GitError(command, opts.cwd, undefined, stderr, e.message));
      },
    );
    // A git that exits before reading all of its input must not crash us with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(opts.input ?? '');
  });
}

/** Runs git and resolves with its stdout; a non-zero exit rejects with a GitError. */
export async function git(args: readonly string[], opts: GitOptions): Promise<string> {
  const r = await gitResult(args, opts);
  if (r.exitCode !== 0) throw new GitError(describeCommand(args), opts.cwd, r.exitCode, r.stderr);
  return r.stdout;
}

/** Splits `-z` output into its fields (the trailing NUL leaves no empty last field). */
export function splitNul(out: string): string[] {
  const parts = out.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
