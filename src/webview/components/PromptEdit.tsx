// Edit and resend, in the view: the button on a turn's prompt (Redo on a rewound turn), and the
// composer's banner while a prompt is being edited. The host says what to edit and how a resend
// will go back (the `editing` message, through dispatch.ts); while it is being edited, Send posts
// `resendPrompt` instead of `prompt`. A chunk of its own, loaded on first use (the eager bundle
// has no room): the composer and the turn headers reach it through `promptEdit` (lazy.ts).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Attachment, ToWebview, WebviewIntent } from '../../shared/protocol';
import type { TurnView } from '../../shared/sessionModel';
import type { DraftChip } from '../draft';
import { useHost } from '../host';
import { IconButton } from './IconButton';

type Editing = Extract<ToWebview, { type: 'editing' }>;

/** A chip before the composer numbers it. */
export type EditChip = Omit<DraftChip, 'id'>;

let editing: Editing | undefined;
/** Bumped on each change, so each `editing` message fills the composer once. */
let version = 0;
const listeners = new Set<() => void>();

function set(e: Editing | undefined): void {
  editing = e;
  version++;
  listeners.forEach((l) => l());
}

/** The host's `editing` message: a prompt to edit (dispatch.ts hands it here). */
export function receive(msg: Editing): void {
  set(msg);
}

/**
 * The composer's Send: while a prompt of `sessionId` is being edited, the edited prompt goes out as
 * `resendPrompt` and editing ends; false when nothing is being edited (a normal prompt).
 */
export function resend(
  post: (i: WebviewIntent) => void,
  sessionId: string | undefined,
  text: string,
  attachments: Attachment[],
): boolean {
  if (!editing || editing.sessionId !== sessionId) return false;
  const { turn } = editing;
  post({ type: 'resendPrompt', sessionId, turn, text, ...(attachments.length ? { attachments } : {}) });
  set(undefined);
  return true;
}

function useEditing(): Editing | undefined {
  const [, rerender] = useState(0);
  useEffect(() => {
    const l = () => rerender((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return editing;
}

function chipOf(att: Attachment): EditChip {
  const name = att.kind === 'image' ? 'image' : (att.path.split(/[\\/]/).pop() ?? att.path);
  const label = att.kind === 'selection' ? `${name}:${att.startLine}-${att.endLine}` : name;
  return { att, label, ...(att.kind === 'image' ? {} : { title: att.path }) };
}

/** The banner above the composer while a prompt of the shown session is being edited; Cancel gives back the draft it replaced. */
export function EditBanner({
  sessionId,
  text,
  chips,
  fill,
}: {
  sessionId?: string;
  text: string;
  chips: DraftChip[];
  fill: (text: string, chips: EditChip[]) => void;
}) {
  const e = useEditing();
  const filled = useRef(0);
  const replaced = useRef<{ text: string; chips: EditChip[] }>();
  useEffect(() => {
    // The state now, not the render's: another message may have come in since.
    const now = editing;
    if (!now) replaced.current = undefined;
    if (!now || filled.current === version) return;
    filled.current = version;
    replaced.current ??= { text, chips };
    fill(now.text, (now.attachments ?? []).map(chipOf));
    // The prompt is there to be edited: the caret goes to its end.
    requestAnimationFrame(() => {
      const input = document.querySelector<HTMLTextAreaElement>('.composer textarea');
      input?.focus();
      input?.setSelectionRange(input.value.length, input.value.length);
    });
  });
  if (!e || e.sessionId !== sessionId) return null;
  const cancel = () => {
    const back = replaced.current ?? { text: '', chips: [] };
    set(undefined);
    fill(back.text, back.chips);
  };
  const goesBack = 'sending restores files to before it and rewinds the conversation';
  const how = {
    rewind: goesBack,
    fork: `${goesBack} (in a session forked from before it)`,
    new: `${goesBack} (in a new session)`,
    ask: `sending restores files to before it. ${e.agent ?? 'The agent'} cannot rewind its conversation: you will be asked where to send it`,
  }[e.way];
  return (
    <div class="edit-banner" role="status" data-testid="edit-banner" data-way={e.way}>
      <i class="codicon codicon-edit" aria-hidden="true" />
      <span class="edit-banner-text">
        Editing prompt {e.turn + 1} — {how}
      </span>
      <button type="button" class="button secondary" data-testid="edit-cancel" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}

/** On a turn's prompt: "Edit and resend"; on a rewound turn: that it was rewound, and Redo. */
export function PromptActions({ turn }: { turn: TurnView }) {
  const { post } = useHost();
  const stop = (e: Event) => e.stopPropagation(); // the line around it folds the turn
  if (turn.rewound)
    return (
      <span class="prompt-actions rewound-mark" onClick={stop}>
        <span class="turn-rewound" data-testid="turn-rewound">
          rewound
        </span>
        <IconButton
          icon="redo"
          label="Redo: the files as before the edit, and these turns back in view"
          title="Redo: the files as before the edit, and these turns back in view (a context the agent rewound stays rewound)"
          data-testid="redo-edit"
          onClick={() => post({ type: 'redoEdit' })}
        />
      </span>
    );
  return (
    <span class="prompt-actions" onClick={stop}>
      <IconButton
        icon="edit"
        label={`Edit and resend prompt ${turn.index + 1}`}
        title="Edit and resend: files and conversation go back to before this prompt"
        data-testid="edit-prompt"
        onClick={() => post({ type: 'editPrompt', turn: turn.index })}
      />
    </span>
  );
}
