// tandem.worktree.setupCommand in a new worktree (e.g. `npm ci`): a shell line the user set in
// their own settings (machine scope: a cloned repo cannot choose it), run as a guarded process
// tree — cancelling it, or VS Code going away, kills every process it started — with its output
// in the Tandem log.
import type * as vscode from 'vscode';
import { spawnTree } from '../../acp/processTree';
import type { Logger } from '../../common/logger';

/** The last output kept for the error message when the command fails. */
const TAIL_CHARS = 2000;

export function runSetupCommand(
  command: string,
  cwd: string,
  logger: Logger,
  token: vscode.CancellationToken,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    logger.info(`Worktree setup in ${cwd}: ${command}`);
    const tree = spawnTree(command, [], { cwd, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const onData = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      tail = (tail + text).slice(-TAIL_CHARS);
      for (const line of text.split(/\r?\n/)) if (line) logger.info(`[setup] ${line}`);
    };
    tree.child.stdout?.on('data', onData);
    tree.child.stderr?.on('data', onData);
    const cancel = token.onCancellationRequested(() => void tree.kill());
    tree.child.once('error', (err) => {
      cancel.dispose();
      reject(new Error(`${command} could not start: ${err.message}`));
    });
    tree.child.once('close', (code, signal) => {
      cancel.dispose();
      if (code === 0) return resolve();
      const why = token.isCancellationRequested
        ? 'was cancelled'
        : signal
          ? `ended by ${signal}`
          : `exited with ${code}`;
      reject(new Error(`\`${command}\` ${why}${tail.trim() ? `:\n${tail.trim()}` : ''}`));
    });
  });
}
