// The one disposal pattern of the extension (as microsoft/vscode-hexeditor's `src/dispose.ts`): a
// class that owns disposables registers each with `_register` and is disposed once, its parts in
// the reverse order of registration (what was made last goes first). Pure: no vscode at run time,
// so it is unit-tested in Node; `vscode.Disposable` satisfies `IDisposable`.

export interface IDisposable {
  dispose(): unknown;
}

/** A disposable that runs `fn` once. */
export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose: () => {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * Disposes every item, last first, and empties the array. An item that throws does not stop the
 * others; the errors are thrown together at the end (one as itself, several as an AggregateError).
 */
export function disposeAll(items: IDisposable[]): void {
  const errors: unknown[] = [];
  for (let d = items.pop(); d !== undefined; d = items.pop()) {
    try {
      d.dispose();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposables failed`);
}

export abstract class Disposable implements IDisposable {
  private readonly disposables: IDisposable[] = [];
  private disposed = false;

  /** Own `d`: it is disposed with this object (at once when this object is already disposed). */
  protected _register<T extends IDisposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.disposables.push(d);
    return d;
  }

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  /** Disposes what was registered, in reverse order, once (later calls do nothing). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.disposables);
  }
}
