// The fake `vscode` (unit/security/fakeVscode.ts) plus what the registry's commands need of it:
// registered commands kept, to run them as the palette would, and the settings targets. Import
// it before any registry module: those copy `vscode`'s members when they load.
import { vscodeFake } from '../security/fakeVscode';

export const commands = new Map<string, (...args: unknown[]) => unknown>();

(vscodeFake.commands as Record<string, unknown>).registerCommand = (id: string, run: () => unknown) => {
  commands.set(id, run);
  return { dispose: () => commands.delete(id) };
};
vscodeFake.ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 };
