// An error boundary around one row of the transcript. A row that throws while it renders (a
// renderer meeting content nobody foresaw) says so in its place, with its raw JSON to copy; the
// other rows and the rest of the view keep working. Without it, one such item blanked the whole
// view, again every time the session was opened. Kept tiny: it is in the eager bundle.
import { Component, type ComponentChildren } from 'preact';
import { HostContext, type Host } from '../host';
import { stringify } from '../stringify';

interface Props {
  /** What the row shows (a tool call, a message, a turn): copied as JSON from the error line. */
  raw: unknown;
  children?: ComponentChildren;
}

/** `failed`: the error and the data it happened on (new data for the row gets a fresh try). */
export class RowGuard extends Component<Props, { failed?: [unknown, unknown] }> {
  static override contextType = HostContext;

  override componentDidCatch(error: unknown) {
    this.setState({ failed: [error, this.props.raw] });
  }

  override render({ raw, children }: Props) {
    const f = this.state.failed;
    if (!f || f[1] !== raw) return children;
    // Text children: Preact escapes them, so an error message holding markup shows as written.
    return (
      <div class="notice notice-error" role="alert" data-testid="row-error">
        This item could not be shown: {String((f[0] as Error | null)?.message ?? f[0])}{' '}
        <button
          type="button"
          class="link-button"
          onClick={() => (this.context as Host).post({ type: 'copyText', text: stringify(raw) })}
        >
          Copy raw JSON
        </button>
      </div>
    );
  }
}
