// What "Restore to here" shows before it changes anything (pure: the VS Code side turns these into
// a QuickPick): the choices, safest first, then every file the restore touches and what it does
// to it. Unsaved edits in an editor are a conflict: the first choice skips those files; only a
// choice that names them overwrites them.
import type { RestoreFile, RestorePlan } from './restore';

export type RestoreChoice = 'restore' | 'overwrite' | 'cancel';

export interface RestoreChoiceItem {
  readonly choice: RestoreChoice;
  readonly label: string;
  readonly detail?: string;
}

export interface RestoreFileItem {
  readonly file: RestoreFile;
  readonly label: string;
  readonly description: string;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The files the restore would write or delete (what the user is shown first). */
export function changingFiles(plan: RestorePlan): RestoreFile[] {
  return plan.files.filter((f) => f.action === 'write' || f.action === 'delete');
}

export function restoreChoices(plan: RestorePlan): RestoreChoiceItem[] {
  const changing = changingFiles(plan);
  const conflicts = plan.conflicts.length;
  const safe = changing.length - conflicts;
  const items: RestoreChoiceItem[] = [];
  if (safe > 0)
    items.push({
      choice: 'restore',
      label: `$(history) Restore ${plural(safe, 'file')} to ${plan.title}`,
      detail: conflicts ? `Skips ${plural(conflicts, 'file')} with unsaved edits: your edits stay.` : undefined,
    });
  if (conflicts)
    items.push({
      choice: 'overwrite',
      label: `$(warning) Restore all ${plural(changing.length, 'file')} and discard your unsaved edits`,
      detail: `Your unsaved edits in ${plural(conflicts, 'file')} are replaced (Undo Restore brings back the saved files, not the edits).`,
    });
  items.push({ choice: 'cancel', label: '$(close) Cancel' });
  return items;
}

export function restoreFileItems(plan: RestorePlan): RestoreFileItem[] {
  return plan.files
    .filter((f) => f.action !== 'unchanged')
    .map((f) => ({
      file: f,
      label: `${f.action === 'delete' ? '$(diff-removed)' : f.action === 'cannot' ? '$(error)' : '$(diff-modified)'} ${f.label}`,
      description: describeFile(f),
    }));
}

function describeFile(f: RestoreFile): string {
  const what =
    f.action === 'delete'
      ? 'deleted (created after this point)'
      : f.action === 'cannot'
        ? `cannot be restored: ${f.reason ?? ''}`
        : f.target === null
          ? 'deleted'
          : 'restored';
  // A link is replaced, never written through: say so, and that its target is left alone.
  const link =
    f.link === undefined || f.action === 'cannot'
      ? ''
      : ` · it is now a symbolic link to ${f.link}: the link is ${f.action === 'write' ? 'replaced by a regular file' : 'removed'}, ${f.link} is left as it is`;
  return f.unsaved && f.action !== 'cannot' ? `${what}${link} · has unsaved edits` : what + link;
}

/** The message after a restore: what changed, what was left alone and why. */
export function restoreSummary(
  title: string,
  r: { restored: readonly string[]; skipped: readonly { reason: string }[]; failed: readonly { error: string }[] },
): string {
  const parts = [`Restored ${plural(r.restored.length, 'file')} to ${title}.`];
  if (r.skipped.length) parts.push(`Left alone: ${r.skipped.map((s) => s.reason).join('; ')}.`);
  if (r.failed.length) parts.push(`Failed: ${r.failed.map((f) => f.error).join('; ')}.`);
  return parts.join(' ');
}
