// Typed-array-safe JSON for the host↔panel messages, reports and hosts that serialise with JSON:
// Float64Array/Int32Array and non-finite numbers survive the round trip (protocol.ts re-exports it).

/** JSON.stringify replacer that keeps Float64Array/Int32Array and non-finite numbers. */
export function encodeForJson(value: unknown, space?: number): string {
  return JSON.stringify(
    value,
    (_k, v) => {
      if (v instanceof Float64Array || v instanceof Float32Array) return { __f64: Array.from(v, encNum) };
      if (v instanceof Int32Array || v instanceof Uint32Array || v instanceof Int16Array || v instanceof Uint8Array) return { __i32: Array.from(v) };
      if (typeof v === 'number' && !Number.isFinite(v)) return { __num: String(v) };
      return v;
    },
    space,
  );
}
const encNum = (x: number): number | string => (Number.isFinite(x) ? x : String(x));
const decNum = (x: number | string): number => (typeof x === 'number' ? x : Number(x));

/**
 * Inverse of `encodeForJson`. Parses without a reviver (V8 calls a reviver for every value of the
 * text, which made decoding a 1000-link model 5–7× slower than the parse itself), then replaces
 * the encoded typed arrays and non-finite numbers in one walk over the objects and arrays.
 */
export function decodeFromJson<T>(text: string): T {
  return revive(JSON.parse(text)) as T;
}

/** What the former reviver returned for `v`, applied bottom-up in place (same result). */
function revive(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'object' && x !== null) v[i] = revive(x);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (typeof x !== 'object' || x === null) continue;
    const r = revive(x);
    // an own "__proto__" key (JSON.parse makes one) must stay a plain property, never a prototype
    if (r !== x) Object.defineProperty(o, k, { value: r, writable: true, enumerable: true, configurable: true });
  }
  if (Array.isArray(o.__f64)) {
    const a = o.__f64 as unknown[];
    const out = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) out[i] = decNum(a[i] as number | string);
    return out;
  }
  if (Array.isArray(o.__i32)) return Int32Array.from(o.__i32 as number[]);
  if (typeof o.__num === 'string') return Number(o.__num);
  return o;
}
