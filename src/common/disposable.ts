// Disposable base with _register (after vscode-hexeditor's dispose.ts), usable without vscode.
export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

/** Disposes every registered child once, in reverse order; errors in one child do not stop the rest. */
export class DisposableStore implements IDisposable {
  private readonly items: IDisposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends IDisposable>(d: T): T {
    if (this.disposed) {
      safeDispose(d);
      return d;
    }
    this.items.push(d);
    return d;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    while (this.items.length) safeDispose(this.items.pop()!);
  }
}

export abstract class Disposable implements IDisposable {
  private readonly _disposables = new DisposableStore();
  protected get isDisposed(): boolean {
    return this._disposables.isDisposed;
  }
  protected _register<T extends IDisposable>(d: T): T {
    return this._disposables.add(d);
  }
  dispose(): void {
    this._disposables.dispose();
  }
}

function safeDispose(d: IDisposable): void {
  try {
    d.dispose();
  } catch (err) {
    console.error('[tandem] dispose failed', err);
  }
}
