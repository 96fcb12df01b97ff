// The extension's one Disposable base: parts go in reverse order of registration, once; a part
// registered after disposal goes at once; a failing part does not keep the others alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Disposable, disposeAll, toDisposable, type IDisposable } from '../../src/extension/dispose';

class Owner extends Disposable {
  own<T extends IDisposable>(d: T): T {
    return this._register(d);
  }
  get wasDisposed(): boolean {
    return this.isDisposed;
  }
}

const recorder = (log: string[], name: string): IDisposable => ({ dispose: () => log.push(name) });

test('Disposable disposes its parts in reverse order of registration', () => {
  const log: string[] = [];
  const o = new Owner();
  o.own(recorder(log, 'a'));
  o.own(recorder(log, 'b'));
  o.own(recorder(log, 'c'));
  assert.deepEqual(log, []);
  o.dispose();
  assert.deepEqual(log, ['c', 'b', 'a']);
  assert.equal(o.wasDisposed, true);
});

test('Disposable.dispose is idempotent: a second call disposes nothing again', () => {
  const log: string[] = [];
  const o = new Owner();
  o.own(recorder(log, 'a'));
  o.dispose();
  o.dispose();
  assert.deepEqual(log, ['a']);
});

test('_register returns its argument and, after disposal, disposes it at once', () => {
  const log: string[] = [];
  const o = new Owner();
  const a = recorder(log, 'a');
  assert.equal(o.own(a), a);
  o.dispose();
  o.own(recorder(log, 'late'));
  assert.deepEqual(log, ['a', 'late']);
  o.dispose();
  assert.deepEqual(log, ['a', 'late'], 'the late part is not disposed twice');
});

test('a part that disposes its owner again (re-entrancy) does not dispose anything twice', () => {
  const log: string[] = [];
  const o = new Owner();
  o.own(recorder(log, 'a'));
  o.own({ dispose: () => (log.push('b'), o.dispose()) });
  o.dispose();
  assert.deepEqual(log, ['b', 'a']);
});

test('a failing part does not stop the others; its error is thrown after all were disposed', () => {
  const log: string[] = [];
  const o = new Owner();
  o.own(recorder(log, 'a'));
  o.own({
    dispose: () => {
      throw new Error('boom');
    },
  });
  o.own(recorder(log, 'c'));
  assert.throws(() => o.dispose(), /boom/);
  assert.deepEqual(log, ['c', 'a']);
  o.dispose(); // already disposed: nothing, no throw
});

test('disposeAll empties the array and aggregates several errors', () => {
  const fail = (m: string): IDisposable => ({
    dispose: () => {
      throw new Error(m);
    },
  });
  const items = [fail('x'), fail('y')];
  assert.throws(
    () => disposeAll(items),
    (e: unknown) => e instanceof AggregateError && e.errors.map((x: Error) => x.message).join() === 'y,x',
  );
  assert.equal(items.length, 0);
});

test('toDisposable runs its function once', () => {
  let n = 0;
  const d = toDisposable(() => n++);
  d.dispose();
  d.dispose();
  assert.equal(n, 1);
});
