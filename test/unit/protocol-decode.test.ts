// decodeFromJson parses without a reviver and revives in one walk: it must give exactly what the
// former JSON.parse reviver gave (kept here as the reference), on real panel models and on odd input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeFromJson, encodeForJson } from '../../src/protocol';
import { inspectScene } from '../../src/engine';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The reviver decodeFromJson used before (the reference). */
const reference = (text: string): unknown =>
  JSON.parse(text, (_k, v: unknown) => {
    if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (Array.isArray(o.__f64)) return Float64Array.from(o.__f64 as (number | string)[], (x) => (typeof x === 'number' ? x : Number(x)));
      if (Array.isArray(o.__i32)) return Int32Array.from(o.__i32 as number[]);
      if (typeof o.__num === 'string') return Number(o.__num);
    }
    return v;
  });

/** Deep equality that tells typed-array kinds apart, NaN equal to NaN, -0 apart from 0, and checks prototypes. */
function same(a: unknown, b: unknown, path = '$'): void {
  if (typeof a === 'number' && typeof b === 'number') {
    assert.ok(Object.is(a, b), `${path}: ${a} vs ${b}`);
    return;
  }
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    assert.equal(a, b, path);
    return;
  }
  assert.equal(Object.getPrototypeOf(a), Object.getPrototypeOf(b), `${path}: prototype`);
  if (ArrayBuffer.isView(a)) {
    const x = a as unknown as ArrayLike<number>;
    const y = b as unknown as ArrayLike<number>;
    assert.equal(x.length, y.length, `${path}: length`);
    for (let i = 0; i < x.length; i++) assert.ok(Object.is(x[i], y[i]), `${path}[${i}]`);
    return;
  }
  const ka = Object.keys(a);
  assert.deepEqual(ka, Object.keys(b), `${path}: keys`);
  for (const k of ka) same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
}

test('decodeFromJson equals the reviver reference on the example models', () => {
  for (const name of ['double-pendulum', 'box-stack', 'redundant-rods']) {
    const r = inspectScene(readFileSync(join(__dirname, '..', '..', 'examples', `${name}.scene.json`), 'utf8'));
    const text = encodeForJson({ type: 'snapshot', snapshot: r.snapshot });
    same(decodeFromJson(text), reference(text));
  }
});

test('decodeFromJson equals the reviver reference on odd input', () => {
  const texts = [
    encodeForJson({ a: [1, NaN, [Infinity, { v: Float64Array.of(-0, NaN, 5e-324) }]], b: { c: Int32Array.of(-1, 2) }, d: null, e: 'x' }),
    '{"__proto__": {"__f64": [1, "NaN"]}, "x": {"__proto__": {"polluted": 1}}}',
    '[{"__num": "-Infinity"}, {"__num": 3}, {"__f64": "not an array"}, {"__i32": [1.5, "2"]}, [], {}]',
    '{"__f64": [1, 2], "other": 3}',
    '"text"',
    '12',
    'null',
  ];
  for (const t of texts) same(decodeFromJson(t), reference(t), t);
  const p = decodeFromJson<Record<string, unknown>>(texts[1]);
  assert.equal(Object.getPrototypeOf(p), Object.prototype);
  assert.ok(Object.prototype.hasOwnProperty.call(p, '__proto__'));
  assert.ok(Object.getOwnPropertyDescriptor(p, '__proto__')!.value instanceof Float64Array);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('decodeFromJson throws on malformed text as JSON.parse does', () => {
  assert.throws(() => decodeFromJson('{"a": '), SyntaxError);
});
