// What Edit and resend asks and tells in VS Code: the fallback question when the agent can neither
// rewind nor fork at a message (asked before anything changes), and the word after a resend with
// its Redo.
import * as vscode from 'vscode';

/** Where the edited prompt goes when the agent cannot go back itself. */
export type Fallback = 'newSession' | 'here';

/** The fallback question's choices, in the order shown (the first is the default). */
export const FALLBACK_CHOICES: readonly { choice: Fallback; label: string; description: string }[] = [
  { choice: 'newSession', label: 'Send in a new session', description: "with the earlier turns' text" },
  { choice: 'here', label: 'Send here', description: 'with a note that files were restored' },
];

type Item = vscode.QuickPickItem & { choice?: Fallback };

/** Asks where the edited prompt `turn` (0-based) goes; undefined: the user cancelled. */
export async function askFallback(agent: string, turn: number, why?: string): Promise<Fallback | undefined> {
  const earlier = turn === 0 ? 'no earlier turns' : `the text of the ${turn} turn${turn === 1 ? '' : 's'} before it`;
  const details: Record<Fallback, string> = {
    newSession: `The new session's first prompt carries ${earlier}, then your edited prompt.`,
    here: `${agent} keeps the later turns in its context; it is told which files were restored.`,
  };
  const items: Item[] = [
    ...FALLBACK_CHOICES.map((c) => ({ ...c, detail: details[c.choice] })),
    { label: 'Cancel', description: 'keep editing' },
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: why ?? `Tandem: ${agent} cannot rewind its conversation`,
    placeHolder: `Files go back to before prompt ${turn + 1} first. Where should the edited prompt go?`,
    ignoreFocusOut: true,
  });
  return pick?.choice;
}

/** How the edited prompt went out, in the notification after it (with Redo). */
export type Sent = 'rewind' | 'fork' | 'newSession' | 'here';

export function sentMessage(sent: Sent, turn: number): string {
  const n = turn + 1;
  switch (sent) {
    case 'rewind':
      return `Tandem: prompt ${n} resent; the conversation was rewound to before it.`;
    case 'fork':
      return `Tandem: prompt ${n} resent in a session forked from before it; the session with the later turns stays open in its tab.`;
    case 'newSession':
      return `Tandem: prompt ${n} resent in a new session that carries the earlier turns as text.`;
    case 'here':
      return `Tandem: prompt ${n} resent in this session, with a note that files were restored.`;
  }
}

/** What Redo brought back, and what it could not. */
export function redoneMessage(sent: Sent, restored: boolean): string {
  const files = restored ? 'The files are as they were before the edit. ' : '';
  switch (sent) {
    case 'rewind':
      return `Tandem: ${files}The rewound turns show again, but the agent's context stays rewound: it no longer has them.`;
    case 'fork':
    case 'newSession':
      return `Tandem: ${files}Back in the session before the edit: its agent still has every turn.`;
    case 'here':
      return `Tandem: ${files}Nothing was rewound in this session.`;
  }
}

/** Offers Redo after a resend; calls `redo` if taken. */
export function offerRedo(message: string, redo: () => Promise<void>): void {
  void vscode.window.showInformationMessage(message, 'Redo').then((a) => {
    if (a) void redo();
  });
}
