// FCLib's HDF5 problems, as frictionalcontactlibrary/fclib's fclib.c writes them:
// - global: /fclib_global/{spacedim, M, H, G?, vectors/{f, w, mu, b?}}: M v = H r + G λ + f,
//   u = Hᵀ v + w, so the rows of J are H's columns (spacedim per contact: normal then tangents), then
//   G's columns (equalities); the mass is M;
// - local: /fclib_local/{spacedim, W, V?, R?, vectors/{q, mu, s?}}: u = W r + V λ + q, the Delassus
//   operator W given directly: analysed as J = I with M⁻¹ = W, so that A = W;
// - /solution/{v, u, r, l?}: r (and l) are the producer's forces.
// A matrix is a group {nzmax, m, n, nz, p, i, x}: nz ≥ 0 triplets (i rows, p columns), nz = −1
// compressed columns (p: n + 1 column starts, i rows), nz = −2 compressed rows (p: m + 1, i columns).
import type { CsrMatrix } from '../linalg/contracts';
import type { ConstrainedSystem, SystemRow } from '../system/contract';
import { readNumbers, type Hdf5File } from './hdf5';
import { denseToCsr, missingKey, shapeMismatch, type TraceContact, type TraceLimits, type TraceReadResult, type TraceSource } from './source';

type Dense = { rows: number; cols: number; data: Float64Array };

function readMatrix(file: Hdf5File, path: string, limits: TraceLimits): Dense | { missing: true } | { error: string } {
  const max = limits.bytes / 8;
  const scalar = (name: string) => {
    const r = readNumbers(file, `${path}/${name}`, 1);
    return 'data' in r && r.data.length === 1 ? r.data[0] : undefined;
  };
  if (!file.get(path)) return { missing: true };
  const m = scalar('m'), n = scalar('n'), nz = scalar('nz');
  if (m === undefined || n === undefined || nz === undefined) return { error: `'${path}' lacks its m, n or nz` };
  if (m * n > max) return { error: `'${path}' is ${m}×${n}, above the limit` };
  const p = readNumbers(file, `${path}/p`, max), i = readNumbers(file, `${path}/i`, max), x = readNumbers(file, `${path}/x`, max);
  if (!('data' in p) || !('data' in i) || !('data' in x)) return { error: `'${path}' lacks its p, i or x` };
  const dense = new Float64Array(m * n);
  const put = (r: number, c: number, v: number): boolean => {
    if (!(r >= 0 && r < m && c >= 0 && c < n)) return false;
    dense[r * n + c] += v;
    return true;
  };
  if (nz >= 0) {
    for (let k = 0; k < nz; k++) if (!put(i.data[k], p.data[k], x.data[k])) return { error: `'${path}': triplet ${k} is outside ${m}×${n}` };
  } else if (nz === -1 || nz === -2) {
    const outer = nz === -1 ? n : m;
    if (p.data.length < outer + 1) return { error: `'${path}/p' has ${p.data.length} entries, expected ${outer + 1}` };
    for (let o = 0; o < outer; o++)
      for (let k = p.data[o]; k < p.data[o + 1]; k++) {
        const ok = nz === -1 ? put(i.data[k], o, x.data[k]) : put(o, i.data[k], x.data[k]);
        if (!ok) return { error: `'${path}': entry ${k} is outside ${m}×${n}` };
      }
  } else return { error: `'${path}/nz' = ${nz} is not a triplet count, −1 (CSC) or −2 (CSR)` };
  return { rows: m, cols: n, data: dense };
}

function transpose(a: Dense): Dense {
  const out = new Float64Array(a.rows * a.cols);
  for (let r = 0; r < a.rows; r++) for (let c = 0; c < a.cols; c++) out[c * a.rows + r] = a.data[r * a.cols + c];
  return { rows: a.cols, cols: a.rows, data: out };
}

class FclibTrace implements TraceSource {
  readonly steps = 1;
  constructor(
    readonly format: 'fclib-global' | 'fclib-local',
    private readonly system: ConstrainedSystem,
    readonly contacts: TraceContact[],
    private readonly keys: { J: string; mass: string; lambda?: string },
  ) {}
  systemAt(): ConstrainedSystem {
    return this.system;
  }
  keysAt() {
    return this.keys;
  }
}

function contactRows(nc: number, d: number, mu: Float64Array): { rows: SystemRow[]; contacts: TraceContact[] } {
  const rows: SystemRow[] = [], contacts: TraceContact[] = [];
  const tangents = d === 3 ? ['t1', 't2'] : ['t'];
  for (let c = 0; c < nc; c++) {
    const name = `contact${c}`;
    contacts.push({ name, mu: mu[c], rows: Array.from({ length: d }, (_, k) => c * d + k) });
    rows.push({ constraint: name, type: 'contact', row: 0, label: `${name}.n` });
    tangents.forEach((t, k) => rows.push({ constraint: name, type: 'friction', row: k + 1, label: `${name}.${t}` }));
  }
  return { rows, contacts };
}

/** Reads an FCLib global or local problem from an opened HDF5 file (undefined when the file is neither). */
export function readFclib(file: Hdf5File, name: string, limits: TraceLimits): TraceReadResult | undefined {
  const global = file.get('/fclib_global') !== undefined;
  if (!global && !file.get('/fclib_local')) return undefined;
  const root = global ? '/fclib_global' : '/fclib_local';
  const max = limits.bytes / 8;
  const fail = (d: ReturnType<typeof missingKey>): TraceReadResult => ({ diagnostics: [d] });
  const sd = readNumbers(file, `${root}/spacedim`, 1);
  const d = 'data' in sd ? sd.data[0] : NaN;
  if (d !== 2 && d !== 3) return fail(missingKey(`${root}/spacedim`, 0, `'${root}/spacedim' is missing or not 2 or 3`));
  const matrix = (key: string, required: boolean): Dense | undefined | TraceReadResult => {
    const r = readMatrix(file, `${root}/${key}`, limits);
    if ('missing' in r) return required ? fail(missingKey(`${root}/${key}`, 0, `step 0: '${root}/${key}' is missing`)) : undefined;
    if ('error' in r) return fail(shapeMismatch(`${root}/${key}`, 0, `step 0: ${r.error}`));
    return r;
  };
  const vector = (path: string, size: number, required: boolean): Float64Array | undefined | TraceReadResult => {
    const r = readNumbers(file, path, max);
    if ('missing' in r) return required ? fail(missingKey(path, 0, `step 0: '${path}' is missing`)) : undefined;
    if ('error' in r) return fail(shapeMismatch(path, 0, `step 0: ${r.error}`));
    if (r.data.length !== size) return fail(shapeMismatch(path, 0, `step 0: '${path}' has ${r.data.length} entries, expected ${size}`));
    return r.data;
  };
  const isResult = (x: unknown): x is TraceReadResult => typeof x === 'object' && x !== null && 'diagnostics' in x;
  if (global) {
    const M = matrix('M', true), H = matrix('H', true), G = matrix('G', false);
    if (isResult(M)) return M;
    if (isResult(H)) return H;
    if (isResult(G)) return G;
    if (!M || !H) return undefined;
    if (M.rows !== M.cols) return fail(shapeMismatch(`${root}/M`, 0, `step 0: '${root}/M' is ${M.rows}×${M.cols}, not square`));
    if (H.rows !== M.rows) return fail(shapeMismatch(`${root}/H`, 0, `step 0: '${root}/H' has ${H.rows} rows but '${root}/M' is ${M.rows}×${M.cols}`));
    if (G && G.rows !== M.rows) return fail(shapeMismatch(`${root}/G`, 0, `step 0: '${root}/G' has ${G.rows} rows but '${root}/M' is ${M.rows}×${M.cols}`));
    if (H.cols % d !== 0) return fail(shapeMismatch(`${root}/H`, 0, `step 0: '${root}/H' has ${H.cols} columns, not a multiple of spacedim ${d}`));
    const nc = H.cols / d, ne = G?.cols ?? 0, n = M.rows, m = H.cols + ne;
    const mu = vector(`${root}/vectors/mu`, nc, true);
    if (isResult(mu) || !mu) return mu as TraceReadResult;
    const Ht = transpose(H), Gt = G ? transpose(G) : undefined;
    const J = new Float64Array(m * n);
    J.set(Ht.data, 0);
    if (Gt) J.set(Gt.data, Ht.data.length);
    const { rows, contacts } = contactRows(nc, d, mu);
    for (let e = 0; e < ne; e++) rows.push({ constraint: `equality${e}`, type: 'equality', row: 0, label: `equality${e}` });
    const r = vector('/solution/r', H.cols, false), l = ne > 0 ? vector('/solution/l', ne, false) : undefined;
    if (isResult(r)) return r;
    if (isResult(l)) return l;
    const lambda = r && (ne === 0 || l) ? Float64Array.from([...r, ...(l ?? [])]) : undefined;
    const system: ConstrainedSystem = {
      producer: { kind: 'trace', name, method: 'fclib-global' },
      step: 0,
      t: 0,
      dofLabels: Array.from({ length: n }, (_, i) => `v${i}`),
      rows,
      J: denseToCsr(m, n, J),
      mass: { kind: 'M', matrix: denseToCsr(n, n, M.data) as CsrMatrix },
      ...(lambda ? { lambda } : {}),
    };
    return { source: new FclibTrace('fclib-global', system, contacts, { J: `${root}/H`, mass: `${root}/M`, ...(lambda ? { lambda: '/solution/r' } : {}) }), diagnostics: [] };
  }
  const W = matrix('W', true);
  if (isResult(W)) return W;
  if (!W) return undefined;
  if (W.rows !== W.cols) return fail(shapeMismatch(`${root}/W`, 0, `step 0: '${root}/W' is ${W.rows}×${W.cols}, not square`));
  if (W.rows % d !== 0) return fail(shapeMismatch(`${root}/W`, 0, `step 0: '${root}/W' has ${W.rows} rows, not a multiple of spacedim ${d}`));
  const m = W.rows, nc = m / d;
  const mu = vector(`${root}/vectors/mu`, nc, true);
  if (isResult(mu) || !mu) return mu as TraceReadResult;
  const { rows, contacts } = contactRows(nc, d, mu);
  const r = vector('/solution/r', m, false);
  if (isResult(r)) return r;
  const identity = new Float64Array(m * m);
  for (let i = 0; i < m; i++) identity[i * m + i] = 1;
  const system: ConstrainedSystem = {
    producer: { kind: 'trace', name, method: 'fclib-local' },
    step: 0,
    t: 0,
    // the local problem has no degrees of freedom of its own: its columns are its rows (J = I)
    dofLabels: rows.map((x) => x.label),
    rows,
    J: denseToCsr(m, m, identity),
    mass: { kind: 'Minv', matrix: denseToCsr(m, m, W.data) },
    ...(r ? { lambda: r } : {}),
  };
  return { source: new FclibTrace('fclib-local', system, contacts, { J: `${root}/W`, mass: `${root}/W`, ...(r ? { lambda: '/solution/r' } : {}) }), diagnostics: [] };
}
