// The questions of "Commit Kept Changes…": which files (a multi-select list, kept and pending
// marked, the files that also hold other uncommitted work not selected and saying why), which
// hunks of a file (its item's button opens a second list of the file's hunks, each shown by its
// first changed lines), whether to take along what the index already has staged, and the message
// (an input box with the proposed subject; its button opens the whole message in an editor).
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { type CommitCandidate, type CommitChoice, describeHunk } from '../../review/commitSelection';
import { fullMessage, type KeptMessage } from './keptMessage';

interface FileItem extends vscode.QuickPickItem {
  readonly candidate: CommitCandidate;
}

const CHOOSE_HUNKS: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('list-selection'),
  tooltip: 'Choose which changes of this file to commit…',
};

/**
 * The files to commit, each whole or with the hunks chosen for it; undefined when cancelled.
 * `unsaved`: paths with unsaved edits in an editor (what is on disk is committed).
 */
export function pickFiles(
  title: string,
  candidates: readonly CommitCandidate[],
  initial: readonly CommitChoice[],
  unsaved: ReadonlySet<string>,
): Promise<CommitChoice[] | undefined> {
  const hunksOf = new Map<string, readonly number[] | undefined>(initial.map((c) => [c.path, c.hunks]));
  const qp = vscode.window.createQuickPick<FileItem>();
  qp.title = title;
  qp.canSelectMany = true;
  qp.matchOnDescription = true;
  qp.placeholder = 'The files to commit (the button of a file chooses some of its changes)';
  const item = (c: CommitCandidate): FileItem => {
    const part = hunksOf.get(c.path);
    const of = part && c.split ? ` — ${part.length} of ${c.split.hunks.length} changes` : '';
    const notes = [
      c.otherChanges ? 'Also has uncommitted changes from before the session: not selected at first.' : '',
      unsaved.has(c.path) ? 'Has unsaved edits: what is on disk is committed.' : '',
    ].filter(Boolean);
    return {
      label: `${nodePath.basename(c.rel)}${of}`,
      description: `${nodePath.posix.dirname(c.rel) === '.' ? '' : `${nodePath.posix.dirname(c.rel)} · `}${c.state === 'kept' ? 'kept' : 'pending review'}`,
      ...(notes.length ? { detail: notes.join(' ') } : {}),
      ...(c.split && c.split.hunks.length > 1 ? { buttons: [CHOOSE_HUNKS] } : {}),
      candidate: c,
    };
  };
  const render = (selected: ReadonlySet<string>) => {
    qp.items = candidates.map(item);
    qp.selectedItems = qp.items.filter((i) => selected.has(i.candidate.path));
  };
  render(new Set(initial.map((c) => c.path)));
  return new Promise((resolve) => {
    let choosing = false;
    qp.onDidTriggerItemButton(async ({ item: it }) => {
      const selected = new Set(qp.selectedItems.map((i) => i.candidate.path));
      choosing = true; // the hunk list hides this one for a moment
      const hunks = await pickHunks(it.candidate, hunksOf.get(it.candidate.path));
      choosing = false;
      if (hunks !== undefined) {
        const all = hunks.length === it.candidate.split!.hunks.length;
        hunksOf.set(it.candidate.path, all ? undefined : hunks);
        if (hunks.length) selected.add(it.candidate.path);
        else selected.delete(it.candidate.path);
      }
      render(selected);
      qp.show();
    });
    qp.onDidAccept(() => {
      resolve(qp.selectedItems.map((i) => ({ path: i.candidate.path, hunks: hunksOf.get(i.candidate.path) })));
      qp.dispose();
    });
    qp.onDidHide(() => {
      if (choosing) return;
      resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

/** The hunks of `c` to commit (indexes into its split's hunks); undefined when cancelled. */
export async function pickHunks(
  c: CommitCandidate,
  current: readonly number[] | undefined,
): Promise<number[] | undefined> {
  const hunks = c.split?.hunks ?? [];
  const items = hunks.map((h, i) => ({ ...describeHunk(h), index: i }));
  const picked = await vscode.window.showQuickPick(
    items.map((i) => ({ ...i, picked: current === undefined || current.includes(i.index) })),
    { title: `Tandem: the changes of ${c.rel} to commit`, canPickMany: true, matchOnDetail: true },
  );
  return picked?.map((p) => p.index).sort((a, b) => a - b);
}

const INCLUDE = 'Include Them';

/** The index already has staged changes: true to commit them too, false to stop. */
export async function includeStaged(staged: readonly string[]): Promise<boolean> {
  const names = staged.slice(0, 5).join(', ') + (staged.length > 5 ? `, and ${staged.length - 5} more` : '');
  const answer = await vscode.window.showWarningMessage(
    `Tandem: ${staged.length === 1 ? 'a file is' : `${staged.length} files are`} already staged (${names}).`,
    {
      modal: true,
      detail:
        'Include them in this commit, or stop to leave the index as it is (commit or unstage them first). Nothing is unstaged either way.',
    },
    INCLUDE,
  );
  return answer === INCLUDE;
}

const EDIT_WHOLE: vscode.QuickInputButton = {
  iconPath: new vscode.ThemeIcon('edit'),
  tooltip: 'Edit the whole message in an editor…',
};

/** The commit message, from the proposal; undefined when cancelled. */
export function editMessage(title: string, proposal: KeptMessage): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = title;
  box.value = proposal.subject;
  box.buttons = [EDIT_WHOLE];
  const lines = proposal.body ? proposal.body.split('\n').length : 0;
  box.prompt = lines
    ? `The subject. The body (${lines} line${lines === 1 ? '' : 's'}: the later prompts and the session's summary) is added below it; the pencil edits the whole message.`
    : 'The commit message. The pencil opens it in an editor.';
  return new Promise((resolve) => {
    let editing = false;
    box.onDidChangeValue((v) => (box.validationMessage = v.trim() ? undefined : 'A commit needs a message.'));
    box.onDidAccept(() => {
      if (!box.value.trim()) return;
      resolve(fullMessage({ subject: box.value, body: proposal.body }));
      box.dispose();
    });
    box.onDidTriggerButton(async () => {
      editing = true;
      box.hide();
      resolve(await editInDocument(fullMessage({ subject: box.value || proposal.subject, body: proposal.body })));
      box.dispose();
    });
    box.onDidHide(() => {
      if (editing) return;
      resolve(undefined);
      box.dispose();
    });
    box.show();
  });
}

const COMMIT = 'Commit';

/** The message in an untitled editor; "Commit" takes its text (closed unsaved afterwards). */
async function editInDocument(message: string): Promise<string | undefined> {
  const doc = await vscode.workspace.openTextDocument({ language: 'git-commit', content: message });
  await vscode.window.showTextDocument(doc);
  const answer = await vscode.window.showInformationMessage(
    'Tandem: edit the commit message in the editor, then commit.',
    COMMIT,
    'Cancel',
  );
  const text = doc.getText().trim();
  if (vscode.window.activeTextEditor?.document === doc)
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  return answer === COMMIT && text ? text : undefined;
}
