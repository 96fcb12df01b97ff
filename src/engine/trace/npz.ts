// The .npz trace format (docs/traces.md): numpy.savez(_compressed) of J (m×n, or S×m×n stacked over
// S steps), M or Minv (n×n or S×n×n), and optionally lambda, rhs, C, R (m or S×m), row_names (m),
// dof_names (n), t (S). When m varies by step every per-step key carries the suffix _<k> (J_0, J_1,
// lambda_0 …); a key without a suffix and without the step axis holds for every step (a constant M).
import { unzipSync } from 'fflate';
import type { ConstrainedSystem } from '../system/contract';
import { readNpy, type NpyArray } from './npy';
import {
  DEFAULT_TRACE_LIMITS,
  denseToCsr,
  missingKey,
  rowsOfNames,
  shapeMismatch,
  unreadable,
  type TraceKeys,
  type TraceLimits,
  type TraceReadResult,
  type TraceSource,
} from './source';

/** The zip's local-file magic: an .npz starts with it. */
export const isZip = (bytes: Uint8Array): boolean => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** One step's view of a key: its shape without the step axis, and where its numbers start. */
interface Slice {
  key: string;
  shape: number[];
  array: NpyArray;
  offset: number;
}

type Lookup = Slice | undefined | { error: string };

function unzip(bytes: Uint8Array, limits: TraceLimits): Map<string, NpyArray> | TraceReadResult {
  let total = 0;
  let tooLarge: string | undefined;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        total += f.originalSize;
        if (total > limits.bytes) tooLarge ??= f.name;
        return total <= limits.bytes;
      },
    });
  } catch (e) {
    return { diagnostics: [unreadable(`not a readable .npz (zip) file: ${e instanceof Error ? e.message : String(e)}`)] };
  }
  if (tooLarge) return { diagnostics: [unreadable(`the unzipped arrays are above the limit of ${limits.bytes} bytes (at ${tooLarge})`, { key: tooLarge })] };
  const arrays = new Map<string, NpyArray>();
  for (const [name, data] of Object.entries(files)) {
    if (!name.endsWith('.npy')) continue;
    const key = name.slice(0, -4);
    const a = readNpy(data);
    if (typeof a === 'string') return { diagnostics: [unreadable(`key '${key}': ${a}`, { key })] };
    arrays.set(key, a);
  }
  return arrays;
}

class NpzTrace implements TraceSource {
  readonly format = 'npz' as const;
  constructor(
    private readonly arrays: Map<string, NpyArray>,
    readonly steps: number,
    private readonly name: string,
  ) {}

  /** Key `base` at step k with `dims` axes per step: the suffixed key, else the stacked one, else the shared one. */
  lookup(base: string, k: number, dims: number): Lookup {
    const own = this.arrays.get(`${base}_${k}`);
    if (own) {
      if (own.shape.length !== dims) return { error: `'${base}_${k}' has ${own.shape.length} axes, expected ${dims}` };
      return { key: `${base}_${k}`, shape: own.shape, array: own, offset: 0 };
    }
    const all = this.arrays.get(base);
    if (!all) return undefined;
    if (all.shape.length === dims) return { key: base, shape: all.shape, array: all, offset: 0 };
    if (all.shape.length === dims + 1) {
      if (all.shape[0] <= k) return { error: `'${base}' has ${all.shape[0]} steps, step ${k} is past them` };
      const per = all.shape.slice(1).reduce((a, b) => a * b, 1);
      return { key: base, shape: all.shape.slice(1), array: all, offset: k * per };
    }
    return { error: `'${base}' has ${all.shape.length} axes, expected ${dims} (or ${dims + 1} stacked over steps)` };
  }

  mass(k: number): (Slice & { kind: 'M' | 'Minv' }) | undefined | { error: string } {
    const minv = this.lookup('Minv', k, 2);
    if (minv) return 'error' in minv ? minv : { ...minv, kind: 'Minv' };
    const m = this.lookup('M', k, 2);
    return m && !('error' in m) ? { ...m, kind: 'M' } : m;
  }

  keysAt(k: number): TraceKeys {
    const key = (base: string, dims: number) => {
      const s = this.lookup(base, k, dims);
      return s && !('error' in s) ? s.key : undefined;
    };
    const mass = this.mass(k);
    const out: TraceKeys = { J: key('J', 2) ?? 'J', mass: mass && !('error' in mass) ? mass.key : 'M' };
    for (const [role, base] of [['lambda', 'lambda'], ['b', 'rhs'], ['C', 'C'], ['R', 'R']] as const) {
      const kk = key(base, 1);
      if (kk) out[role] = kk;
    }
    return out;
  }

  systemAt(k: number): ConstrainedSystem {
    // validate() accepted every step below `steps`: the lookups here succeed
    const J = this.lookup('J', k, 2) as Slice;
    const mass = this.mass(k) as Slice & { kind: 'M' | 'Minv' };
    const m = J.shape[0], n = J.shape[1];
    const vec = (base: string): Float64Array | undefined => {
      const s = this.lookup(base, k, 1);
      return s && !('error' in s) && s.array.kind === 'number' ? s.array.data.slice(s.offset, s.offset + m) : undefined;
    };
    const names = (base: string, count: number, fallback: (i: number) => string): string[] => {
      const s = this.lookup(base, k, 1);
      if (s && !('error' in s) && s.array.kind === 'string') return s.array.data.slice(s.offset, s.offset + count);
      return Array.from({ length: count }, (_, i) => fallback(i));
    };
    const t = this.arrays.get('t');
    const lambda = vec('lambda'), b = vec('rhs'), C = vec('C'), R = vec('R');
    return {
      producer: { kind: 'trace', name: this.name, method: 'npz' },
      step: k,
      t: t && t.kind === 'number' && t.data.length > k ? t.data[k] : k,
      dofLabels: names('dof_names', n, (i) => `q${i}`),
      rows: rowsOfNames(names('row_names', m, (i) => `row${i}`), 'row'),
      J: denseToCsr(m, n, (J.array as { data: Float64Array }).data, J.offset),
      mass: { kind: mass.kind, matrix: denseToCsr(n, n, (mass.array as { data: Float64Array }).data, mass.offset) },
      ...(lambda ? { lambda } : {}),
      ...(b ? { b } : {}),
      ...(R ? { R } : {}),
      ...(C ? { C } : {}),
    };
  }

  /** What is wrong with step k's keys, as a diagnostic; undefined when it can be analysed. */
  validate(k: number): ReturnType<typeof missingKey> | undefined {
    const J = this.lookup('J', k, 2);
    const suffix = this.arrays.has('J_0') ? `J_${k}` : 'J';
    if (!J) return missingKey(suffix, k, `step ${k}: key '${suffix}' (the Jacobian, m×n) is missing`);
    if ('error' in J) return shapeMismatch(suffix, k, `step ${k}: ${J.error}`);
    if (J.array.kind !== 'number') return shapeMismatch(J.key, k, `step ${k}: '${J.key}' holds strings, not numbers`);
    const m = J.shape[0], n = J.shape[1];
    const mass = this.mass(k);
    if (!mass) return missingKey('Minv', k, `step ${k}: neither 'Minv' nor 'M' (the mass matrix, n×n) is present`);
    if ('error' in mass) return shapeMismatch('M', k, `step ${k}: ${mass.error}`);
    if (mass.array.kind !== 'number') return shapeMismatch(mass.key, k, `step ${k}: '${mass.key}' holds strings, not numbers`);
    if (mass.shape[0] !== n || mass.shape[1] !== n)
      return shapeMismatch(mass.key, k, `step ${k}: '${J.key}' has ${n} columns but '${mass.key}' is ${mass.shape[0]}×${mass.shape[1]}`);
    for (const [base, size, what, kind] of [
      ['lambda', m, 'rows', 'number'],
      ['rhs', m, 'rows', 'number'],
      ['C', m, 'rows', 'number'],
      ['R', m, 'rows', 'number'],
      ['row_names', m, 'rows', 'string'],
      ['dof_names', n, 'columns', 'string'],
    ] as const) {
      const s = this.lookup(base, k, 1);
      if (!s) continue;
      if ('error' in s) return shapeMismatch(base, k, `step ${k}: ${s.error}`);
      if (s.array.kind !== kind) return shapeMismatch(s.key, k, `step ${k}: '${s.key}' holds ${s.array.kind}s, expected ${kind}s`);
      if (s.shape[0] !== size) return shapeMismatch(s.key, k, `step ${k}: '${s.key}' has ${s.shape[0]} entries but '${J.key}' has ${size} ${what}`);
    }
    return undefined;
  }
}

/** Number of steps an .npz holds: J_0, J_1 … counted, else J's or any stacked key's step axis, else 1. */
function stepCount(arrays: Map<string, NpyArray>): number {
  if (arrays.has('J_0')) {
    let k = 0;
    while (arrays.has(`J_${k}`)) k++;
    return k;
  }
  const J = arrays.get('J');
  if (J && J.shape.length === 3) return J.shape[0];
  let S = 1;
  for (const [key, dims] of [['Minv', 2], ['M', 2], ['lambda', 1], ['rhs', 1], ['C', 1], ['R', 1]] as const) {
    const a = arrays.get(key);
    if (a && a.shape.length === dims + 1) S = Math.max(S, a.shape[0]);
  }
  return S;
}

/** Reads an .npz trace; never throws: what cannot be read is a diagnostic naming the key and the step. */
export function readNpzTrace(bytes: Uint8Array, name: string, limits: TraceLimits = DEFAULT_TRACE_LIMITS): TraceReadResult {
  if (bytes.length > limits.bytes) return { diagnostics: [unreadable(`the file is ${bytes.length} bytes, above the limit of ${limits.bytes}`)] };
  if (!isZip(bytes)) return { diagnostics: [unreadable('not an .npz file (no zip signature at its start)')] };
  const arrays = unzip(bytes, limits);
  if (!(arrays instanceof Map)) return arrays;
  const total = Math.min(stepCount(arrays), limits.steps);
  const trace = new NpzTrace(arrays, total, name);
  for (let k = 0; k < total; k++) {
    const problem = trace.validate(k);
    if (problem) return { ...(k > 0 ? { source: new NpzTrace(arrays, k, name) } : {}), diagnostics: [problem] };
  }
  return { source: trace, diagnostics: [] };
}
