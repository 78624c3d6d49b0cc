// The agent asks for input (ACP elicitation/create). Mode "form": a form generated from the
// requested schema — text, number, checkbox, select (enum/oneOf), multi-select checkboxes — with
// the schema's titles, descriptions and defaults; the shared validator runs before anything is
// sent and its messages show inline, next to their field. Submit / Decline / Cancel.
// Mode "url": the user already chose to open the link (a VS Code dialog asked first); the card
// says where and waits for elicitation/complete, or is dismissed.
// Shown as cards above the composer, oldest first; the first form takes focus when it appears.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { fieldsOf } from '../../shared/elicitation';
import { elicitationIssues } from '../../shared/elicitationValidation';
import type { ElicitationRequestView, SessionSnapshot } from '../../shared/sessionModel';
import { contentOf, initialValues, type Values } from '../elicitationValues';
import { useHost } from '../host';
import { ElicitationControl } from './ElicitationControl';

const domId = (requestId: string, name: string) => `elic-${requestId}-${name}`.replace(/[^\w-]/g, '_');

export function ElicitationForm({ req, first }: { req: ElicitationRequestView; first: boolean }) {
  const { post } = useHost();
  const fields = useMemo(() => fieldsOf(req.requestedSchema), [req.requestedSchema]);
  const [values, setValues] = useState<Values>(() => initialValues(fields));
  const [tried, setTried] = useState(false);
  const [sent, setSent] = useState<string | undefined>(undefined);
  const root = useRef<HTMLFormElement>(null);

  const content = contentOf(fields, values);
  const issues = tried ? elicitationIssues(req.requestedSchema, content) : [];
  const issueOf = (name: string) => issues.find((i) => i.field === name)?.message;

  useEffect(() => {
    if (!first) return;
    const el = root.current?.querySelector<HTMLElement>('input, select, button');
    el?.focus({ preventScroll: true });
    root.current?.scrollIntoView?.({ block: 'nearest' });
  }, [first, req.requestId]);

  // The host refuses an answer only when it disagrees with this validator; don't leave the form stuck.
  useEffect(() => {
    if (!sent) return;
    const t = setTimeout(() => setSent(undefined), 4000);
    return () => clearTimeout(t);
  }, [sent]);

  const set = (name: string, v: string | boolean | string[]) => setValues((old) => ({ ...old, [name]: v }));
  const send = (action: 'accept' | 'decline' | 'cancel') => {
    if (sent) return;
    if (action === 'accept') {
      setTried(true);
      const problems = elicitationIssues(req.requestedSchema, content);
      if (problems.length) {
        // Focus the first field with a problem (the message is its description).
        const name = problems[0].field;
        const el = name
          ? root.current?.querySelector<HTMLElement>(
              `[data-field="${CSS.escape(name)}"] input, [data-field="${CSS.escape(name)}"] select`,
            )
          : undefined;
        el?.focus();
        return;
      }
      setSent(action);
      post({ type: 'elicitationAnswer', requestId: req.requestId, action, content });
      return;
    }
    setSent(action);
    post({ type: 'elicitationAnswer', requestId: req.requestId, action });
  };

  const schema = req.requestedSchema;
  const stray = issues.filter((i) => !i.field || !fields.some((f) => f.name === i.field));
  return (
    <form
      ref={root}
      class="elicitation"
      data-testid="elicitation-form"
      data-request-id={req.requestId}
      noValidate
      aria-label={`The agent asks: ${req.message}`}
      onSubmit={(e) => {
        e.preventDefault();
        send('accept');
      }}
    >
      <div class="elicitation-head">
        <i class="codicon codicon-comment-discussion" aria-hidden="true" />
        <span class="elicitation-message" data-testid="elicitation-message">
          {req.message}
        </span>
      </div>
      {(schema?.title || schema?.description) && (
        <div class="elicitation-schema muted">
          {schema.title && <strong>{schema.title}</strong>}
          {schema.title && schema.description ? ' — ' : ''}
          {schema.description}
        </div>
      )}
      {fields.map((f) => (
        <ElicitationControl
          key={f.name}
          f={f}
          id={domId(req.requestId, f.name)}
          value={values[f.name]}
          issue={issueOf(f.name)}
          onChange={(v) => set(f.name, v)}
          disabled={!!sent}
        />
      ))}
      {stray.length > 0 && (
        <ul class="elicitation-errors" role="alert" data-testid="elicitation-errors">
          {stray.map((i, k) => (
            <li key={k}>{i.message}</li>
          ))}
        </ul>
      )}
      <div class="elicitation-actions">
        <button type="submit" class="button" data-testid="elicitation-submit" disabled={!!sent}>
          <i class="codicon codicon-check" aria-hidden="true" /> Submit
        </button>
        <button
          type="button"
          class="button secondary"
          data-testid="elicitation-decline"
          disabled={!!sent}
          onClick={() => send('decline')}
          title="Tell the agent you won't give this information"
        >
          <i class="codicon codicon-close" aria-hidden="true" /> Decline
        </button>
        <button
          type="button"
          class="button secondary"
          data-testid="elicitation-cancel"
          disabled={!!sent}
          onClick={() => send('cancel')}
          title="Dismiss without answering"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A URL the user opened for the agent, until the agent says it is complete. */
function ElicitationUrl({ req }: { req: ElicitationRequestView }) {
  const { post } = useHost();
  return (
    <div
      class="elicitation elicitation-url"
      role="status"
      data-testid="elicitation-url"
      data-request-id={req.requestId}
    >
      <div class="elicitation-head">
        <i class="codicon codicon-link-external" aria-hidden="true" />
        <span class="elicitation-message">{req.message}</span>
      </div>
      <div class="muted">
        <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Finish in your browser on{' '}
        <strong data-testid="elicitation-host">{req.host}</strong>; the agent continues when it is done.
      </div>
      <div class="elicitation-actions">
        {req.url && (
          <button type="button" class="button secondary" onClick={() => post({ type: 'openExternal', url: req.url! })}>
            Open again
          </button>
        )}
        <button
          type="button"
          class="button secondary"
          data-testid="elicitation-dismiss"
          onClick={() => post({ type: 'elicitationAnswer', requestId: req.requestId, action: 'cancel' })}
        >
          Dismiss
        </button>
      </div>
    </div>
  );
}

/** Pending elicitations of the session, above the composer, oldest first. */
export function ElicitationCards({ session }: { session: SessionSnapshot }) {
  const list = session.elicitations ?? [];
  if (!list.length) return null;
  const firstForm = list.find((e) => e.mode === 'form')?.requestId;
  return (
    <div class="elicitation-cards" data-testid="elicitation-cards">
      {list.map((e) =>
        e.mode === 'form' ? (
          <ElicitationForm key={e.requestId} req={e} first={e.requestId === firstForm} />
        ) : (
          <ElicitationUrl key={e.requestId} req={e} />
        ),
      )}
    </div>
  );
}
