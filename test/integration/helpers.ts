// Shared by the integration tests that run inside the real VS Code.
import * as vscode from 'vscode';

/** Polls `pred` until it holds (exceptions count as "not yet"), or fails after `ms`. */
export function until(pred: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const tick = async () => {
      try { if (await pred()) { resolve(); return; } } catch { /* retry */ }
      if (Date.now() - t0 > ms) reject(new Error(`timed out waiting for ${what}`));
      else setTimeout(tick, 25);
    };
    void tick();
  });
}

/**
 * Runs a command that shows a QuickPick or InputBox and accepts its first item. (Moving the
 * selection first races with the picker appearing: tests pick the first item only.)
 */
export async function runAccepting(command: string): Promise<unknown> {
  let done = false;
  const p = Promise.resolve(vscode.commands.executeCommand(command)).finally(() => { done = true; });
  const t0 = Date.now();
  while (!done && Date.now() - t0 < 20_000) {
    await new Promise((r) => setTimeout(r, 300));
    if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  return p;
}
