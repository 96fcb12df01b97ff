import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxOf, minOf, pushAll } from '../../src/shared';

const N = 200_000;

test('reductions over 200 000 elements: no argument spread, no stack overflow', () => {
  const xs = Float64Array.from({ length: N }, (_, i) => Math.sin(i) * (i === 123_456 ? 1e3 : 1));
  assert.equal(maxOf(xs), xs.reduce((a, b) => Math.max(a, b), -Infinity));
  assert.equal(minOf(xs, (x) => Math.abs(x)), 0);
  const pts = Array.from({ length: N }, (_, i) => ({ y: N - i }));
  assert.equal(minOf(pts, (p) => p.y, 0.5), 0.5);
  assert.equal(minOf(pts, (p) => p.y), 1);
  assert.equal(maxOf([]), -Infinity);
  const out = pushAll([0], Array.from({ length: N }, (_, i) => i + 1));
  assert.equal(out.length, N + 1);
  assert.equal(out[N], N);
});
