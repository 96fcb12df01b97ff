// How the browser harness hands a host message to the page: text through the DevTools protocol
// (the only channel from Node), turned back into an object in the page before the `message` event,
// as VS Code's postMessage delivers it: typed arrays with their exact type (VS Code transfers their
// ArrayBuffers beside the JSON), non-finite numbers as such. Their numbers travel as JSON numbers
// (base64 of the bytes would be a third longer for these models' small integers and short values),
// and the text is written by JSON.stringify without a replacer (encodeForJson's is called for every
// value: most of its time on a large model).
// `encodeForJson` text (src/protocol.ts, what a report embeds) is decoded too: tests send both.

const TYPED = ['Float64Array', 'Float32Array', 'Int32Array', 'Uint32Array', 'Int16Array', 'Uint16Array', 'Int8Array', 'Uint8Array'] as const;

/** A copy of `value` that JSON.stringify writes without a replacer (which would be called for every value). */
function wireValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : { __num: String(v) };
  if (typeof v !== 'object' || v === null) return v;
  if (ArrayBuffer.isView(v)) {
    const type = v.constructor.name;
    if (!(TYPED as readonly string[]).includes(type)) throw new Error(`wire: cannot send a ${type}`);
    const a = v as unknown as ArrayLike<number>;
    const out = new Array<number | string>(a.length);
    for (let i = 0; i < a.length; i++) out[i] = Number.isFinite(a[i]) ? a[i] : String(a[i]);
    return { __ta: type, v: out };
  }
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = v[i] === undefined ? null : wireValue(v[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined && typeof x !== 'function') out[k] = wireValue(x);
  }
  return out;
}

/** The text of a host message for the page (DECODE_IN_PAGE makes it an object again). */
export function encodeForPage(m: unknown): string {
  return JSON.stringify(wireValue(m));
}

/**
 * In-page decoder (the stub has no module system): a plain parse, then one walk that makes the
 * typed arrays (of their type, or encodeForJson's __f64 / __i32) and the non-finite numbers.
 */
export const DECODE_IN_PAGE = `(text) => {
  const TYPED = { ${TYPED.map((t) => `${t}: ${t}`).join(', ')} };
  const num = (x) => (typeof x === 'number' ? x : Number(x));
  const revive = (v) => {
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) v[i] = revive(v[i]); return v; }
    if (typeof v.__ta === 'string' && Array.isArray(v.v) && TYPED[v.__ta]) { const a = v.v, out = new TYPED[v.__ta](a.length); for (let i = 0; i < a.length; i++) out[i] = num(a[i]); return out; }
    for (const k of Object.keys(v)) { const x = v[k]; if (typeof x === 'object' && x !== null) { const r = revive(x); if (r !== x) Object.defineProperty(v, k, { value: r, writable: true, enumerable: true, configurable: true }); } }
    if (Array.isArray(v.__f64)) { const a = v.__f64, out = new Float64Array(a.length); for (let i = 0; i < a.length; i++) out[i] = num(a[i]); return out; }
    if (Array.isArray(v.__i32)) return Int32Array.from(v.__i32);
    if (typeof v.__num === 'string') return Number(v.__num);
    return v;
  };
  return revive(JSON.parse(text));
}`;
