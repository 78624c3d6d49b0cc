// Notification handlers of an ACP connection by method, called synchronously and in arrival order
// (session/update is the hot path). A method nobody handles is logged once.
import { toDisposable, type IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';

type Handler = (params: unknown) => void;

export class NotificationHandlers {
  private readonly handlers = new Map<string, Handler[]>();
  private readonly loggedUnhandled = new Set<string>();

  constructor(private readonly logger: Logger) {}

  on(method: string, handler: Handler): IDisposable {
    const list = this.handlers.get(method) ?? [];
    list.push(handler);
    this.handlers.set(method, list);
    return toDisposable(() => {
      const cur = this.handlers.get(method);
      if (!cur) return;
      const next = cur.filter((x) => x !== handler);
      if (next.length) this.handlers.set(method, next);
      else this.handlers.delete(method);
    });
  }

  /** Runs the handlers of `method` in order; one that throws is logged and the others still run. */
  call(method: string, params: unknown, logUnhandled: boolean): void {
    const list = this.handlers.get(method);
    if (list === undefined) {
      if (logUnhandled && !this.loggedUnhandled.has(method)) {
        this.loggedUnhandled.add(method);
        this.logger.info(`Ignoring notification ${method} from the agent: no handler (logged once per method)`);
      }
      return;
    }
    for (let i = 0; i < list.length; i++) {
      try {
        list[i](params);
      } catch (err) {
        this.logger.error(`Handler for ${method} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }

  clear(): void {
    this.handlers.clear();
  }
}
