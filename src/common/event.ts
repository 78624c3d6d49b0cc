import { type IDisposable } from './disposable';

export type Event<T> = (listener: (e: T) => void) => IDisposable;

/** A minimal event emitter shaped like vscode.EventEmitter, for code that must not import vscode. */
export class Emitter<T> implements IDisposable {
  private listeners: Array<(e: T) => void> | undefined = [];

  readonly event: Event<T> = (listener) => {
    this.listeners?.push(listener);
    return {
      dispose: () => {
        if (this.listeners) this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  fire(e: T): void {
    if (!this.listeners) return;
    for (const l of this.listeners.slice()) {
      try {
        l(e);
      } catch (err) {
        console.error('[tandem] listener failed', err);
      }
    }
  }

  dispose(): void {
    this.listeners = undefined;
  }
}
