// One field of an elicitation form as a control: its label (a star when required), description,
// the input for its kind (text with a format, number, checkbox, select, multi-select checkboxes)
// and its error, wired for screen readers (aria-describedby, aria-invalid).
import type { ElicitationField } from '../../shared/elicitation';

export function ElicitationControl({
  f,
  id,
  value,
  issue,
  onChange,
  disabled,
}: {
  f: ElicitationField;
  id: string;
  value: string | boolean | string[] | undefined;
  issue?: string;
  onChange: (v: string | boolean | string[]) => void;
  disabled: boolean;
}) {
  const descId = f.description ? `${id}-desc` : undefined;
  const errId = issue ? `${id}-err` : undefined;
  const describedBy = [descId, errId].filter(Boolean).join(' ') || undefined;
  const star = f.required && (
    <span class="elicitation-required" aria-hidden="true">
      {' '}
      *
    </span>
  );
  const label = (
    <label for={id} class="elicitation-label">
      {f.title}
      {star}
    </label>
  );
  const desc = f.description && (
    <div id={descId} class="elicitation-desc muted">
      {f.description}
    </div>
  );
  const err = issue && (
    <div id={errId} class="elicitation-error" role="alert" data-testid="elicitation-error">
      <i class="codicon codicon-error" aria-hidden="true" /> {issue}
    </div>
  );
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': issue ? true : undefined,
    'aria-required': f.required || undefined,
    disabled,
  };

  let control;
  switch (f.kind) {
    case 'text': {
      const type = f.format === 'email' ? 'email' : f.format === 'uri' ? 'url' : f.format === 'date' ? 'date' : 'text';
      const placeholder =
        f.format === 'date-time' ? 'YYYY-MM-DDThh:mm:ssZ' : f.format === 'uri' ? 'https://…' : undefined;
      control = (
        <input
          {...common}
          type={type}
          class="elicitation-input"
          value={typeof value === 'string' ? value : ''}
          placeholder={placeholder}
          maxLength={f.maxLength}
          onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)}
        />
      );
      break;
    }
    case 'number':
    case 'integer':
      control = (
        <input
          {...common}
          type="number"
          class="elicitation-input"
          inputMode={f.kind === 'integer' ? 'numeric' : 'decimal'}
          step={f.kind === 'integer' ? 1 : 'any'}
          min={f.minimum}
          max={f.maximum}
          value={typeof value === 'string' ? value : ''}
          onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)}
        />
      );
      break;
    case 'boolean':
      return (
        <div class="elicitation-field elicitation-check" data-testid="elicitation-field" data-field={f.name}>
          <label class="elicitation-label">
            <input
              {...common}
              type="checkbox"
              checked={value === true}
              onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
            />{' '}
            {f.title}
          </label>
          {desc}
          {err}
        </div>
      );
    case 'select':
      control = (
        <select
          {...common}
          class="elicitation-input"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}
        >
          {(value === '' || !f.required) && <option value="">{f.required ? 'Choose…' : '—'}</option>}
          {f.options.map((o) => (
            <option key={o.value} value={o.value} title={o.description}>
              {o.title}
            </option>
          ))}
        </select>
      );
      break;
    case 'multiselect': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset
          class="elicitation-field elicitation-multi"
          data-testid="elicitation-field"
          data-field={f.name}
          aria-describedby={describedBy}
          aria-invalid={issue ? true : undefined}
        >
          <legend class="elicitation-label">
            {f.title}
            {star}
          </legend>
          {desc}
          {f.options.map((o) => (
            <label key={o.value} class="elicitation-choice" title={o.description}>
              <input
                type="checkbox"
                value={o.value}
                checked={chosen.includes(o.value)}
                disabled={disabled}
                onChange={(e) => {
                  const on = (e.currentTarget as HTMLInputElement).checked;
                  onChange(
                    on
                      ? f.options.map((x) => x.value).filter((x) => x === o.value || chosen.includes(x))
                      : chosen.filter((x) => x !== o.value),
                  );
                }}
              />{' '}
              {o.title}
            </label>
          ))}
          {err}
        </fieldset>
      );
    }
    case 'unsupported':
      return (
        <div class="elicitation-field" data-testid="elicitation-field" data-field={f.name}>
          <span class="elicitation-label">{f.title}</span>
          <div class="elicitation-desc muted">
            Tandem cannot show a field of type “{f.type}”.{' '}
            {f.required ? 'Decline or cancel instead.' : 'It is left out.'}
          </div>
          {err}
        </div>
      );
  }
  return (
    <div class="elicitation-field" data-testid="elicitation-field" data-field={f.name}>
      {label}
      {desc}
      {control}
      {err}
    </div>
  );
}
