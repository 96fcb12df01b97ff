// The matrices and vectors of a snapshot as CSR views with labels and block structure.
// CSR lookups and M⁻¹'s block-diagonal CSR are the shared ones (src/shared/csr.ts).
import type { SystemSnapshot } from '../src/protocol';
import { absRange, blockDiagonalCsr } from '../src/shared';


export interface MatrixSource {
  id: string;
  /** Short name: "J", "M⁻¹", … */
  name: string;
  /** One-line explanation shown under the toolbar. */
  description: string;
  rows: number;
  cols: number;
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
  rowLabels: string[];
  colLabels: string[];
  /** Index of the first row of each row block (constraints / bodies), ascending, starting at 0. */
  rowBlocks: number[];
  colBlocks: number[];
  /** Constraint (index into snapshot.constraints) owning row i / column j, or -1. */
  rowConstraint?: Int32Array;
  colConstraint?: Int32Array;
  /** Vector tables: each column has its own colour scale. */
  perColumnScale?: boolean;
  /** max |v| overall, or per column when perColumnScale. */
  maxAbs: Float64Array;
  /** Smallest non-zero |v| (for the log scale's range). */
  minAbs: number;
  /** Rows (matrix row indices) to highlight as redundant / depended on. */
  redundantRows?: Set<number>;
  dependsRows?: Set<number>;
  symmetric?: boolean;
}

/** Coerces what may arrive through JSON (arrays, {"0":…} objects) into typed arrays. */
export function toF64(x: unknown): Float64Array {
  if (x instanceof Float64Array) return x;
  if (ArrayBuffer.isView(x)) return Float64Array.from(x as unknown as ArrayLike<number>);
  if (Array.isArray(x)) return Float64Array.from(x, (v) => (typeof v === 'number' ? v : Number(v)));
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    const n = Object.keys(o).filter((k) => /^\d+$/.test(k)).length;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = Number(o[String(i)]);
    return out;
  }
  return new Float64Array(0);
}
export function toI32(x: unknown): Int32Array {
  if (x instanceof Int32Array) return x;
  return Int32Array.from(toF64(x));
}

/** Normalises a snapshot received from the host so every typed array really is one. */
export function normalizeSnapshot(s: SystemSnapshot): SystemSnapshot {
  const csr = (m: SystemSnapshot['J'] | undefined): SystemSnapshot['J'] | undefined =>
    m && { rows: m.rows, cols: m.cols, rowPtr: toI32(m.rowPtr), colIdx: toI32(m.colIdx), values: toF64(m.values) };
  const f = (x: unknown): Float64Array => toF64(x);
  return {
    ...s,
    MinvBlocks: f(s.MinvBlocks),
    J: csr(s.J)!,
    A: csr(s.A),
    W: csr(s.W),
    Minv: csr(s.Minv),
    M: csr(s.M),
    ...(s.Rdiag ? { Rdiag: f(s.Rdiag) } : {}),
    F: f(s.F),
    v: f(s.v),
    rhs: f(s.rhs),
    a0: f(s.a0),
    b: f(s.b),
    lambda: f(s.lambda),
    a: f(s.a),
    C: f(s.C),
    Cdot: f(s.Cdot),
    constraintForce: f(s.constraintForce),
    B: s.B === undefined ? undefined : f(s.B),
    R: s.R === undefined ? undefined : f(s.R),
    singularValues: s.singularValues === undefined ? undefined : f(s.singularValues),
    redundant: Array.isArray(s.redundant) ? s.redundant : [],
    constraints: Array.isArray(s.constraints) ? s.constraints : [],
    bodyStates: Array.isArray(s.bodyStates) ? s.bodyStates : [],
    diagnostics: Array.isArray(s.diagnostics) ? s.diagnostics : [],
    islands: Array.isArray(s.islands) ? s.islands : [],
  };
}

function rowConstraintMap(s: SystemSnapshot): Int32Array {
  const n = s.rows.length;
  const out = new Int32Array(n).fill(-1);
  // rows[].modelIndex indexes the scene's valid constraint list, which is snapshot.constraints' order;
  // map through firstRow to be robust.
  s.constraints.forEach((c, ci) => {
    for (let r = c.firstRow; r < c.firstRow + c.rows && r < n; r++) out[r] = ci;
  });
  for (let r = 0; r < n; r++) if (out[r] < 0) out[r] = s.rows[r]?.modelIndex ?? -1;
  return out;
}

function constraintBlocks(s: SystemSnapshot, n: number): number[] {
  const set = new Set<number>([0]);
  for (const c of s.constraints) if (c.firstRow > 0 && c.firstRow < n) set.add(c.firstRow);
  if (set.size <= 1) {
    for (let r = 1; r < s.rows.length; r++) if (s.rows[r].constraint !== s.rows[r - 1].constraint) set.add(r);
  }
  return [...set].sort((a, b) => a - b);
}

const bodyBlocks = (cols: number, size = 6): number[] => Array.from({ length: Math.ceil(cols / size) }, (_, k) => k * size);

/** msd-sim's quaternion coordinates (`solver.coordinates: "quaternion"`): 7 position columns per body, x … qz. */
const quaternionCoordinates = (s: SystemSnapshot): boolean => s.producer?.name === 'msd-sim';

function redundancy(s: SystemSnapshot): { red: Set<number>; dep: Set<number> } {
  const red = new Set<number>();
  const dep = new Set<number>();
  const rowOf = (name: string, row: number): number => {
    const c = s.constraints.find((x) => x.name === name);
    if (c) return c.firstRow + row;
    const i = s.rows.findIndex((r) => r.constraint === name && r.row === row);
    return i;
  };
  for (const r of s.redundant) {
    const i = rowOf(r.constraint, r.row);
    if (i >= 0) red.add(i);
    for (const d of r.dependsOn) {
      const k = rowOf(d.constraint, d.row);
      if (k >= 0) dep.add(k);
    }
  }
  return { red, dep };
}

export function fromCsr(
  id: string,
  name: string,
  description: string,
  m: SystemSnapshot['J'],
  extra: Partial<MatrixSource> & { rowLabels: string[]; colLabels: string[]; rowBlocks: number[]; colBlocks: number[] },
): MatrixSource {
  const st = absRange(m.values);
  return {
    id,
    name,
    description,
    rows: m.rows,
    cols: m.cols,
    rowPtr: m.rowPtr,
    colIdx: m.colIdx,
    values: m.values,
    maxAbs: Float64Array.of(st.maxAbs),
    minAbs: st.minAbs,
    ...extra,
  };
}

/** Dense columns (equal lengths) → a CSR table with per-column colour scales. */
function vectorTable(id: string, name: string, description: string, cols: { label: string; data: Float64Array }[], rowLabels: string[], rowBlocks: number[], extra: Partial<MatrixSource> = {}): MatrixSource {
  const n = rowLabels.length;
  const k = cols.length;
  const rowPtr = new Int32Array(n + 1);
  const colIdx = new Int32Array(n * k);
  const values = new Float64Array(n * k);
  const maxAbs = new Float64Array(k);
  let minAbs = Infinity;
  for (let i = 0; i < n; i++) {
    rowPtr[i] = i * k;
    for (let j = 0; j < k; j++) {
      const v = cols[j].data[i] ?? 0;
      colIdx[i * k + j] = j;
      values[i * k + j] = v;
      const a = Math.abs(v);
      if (Number.isFinite(a)) {
        if (a > maxAbs[j]) maxAbs[j] = a;
        if (a > 0 && a < minAbs) minAbs = a;
      }
    }
  }
  rowPtr[n] = n * k;
  return {
    id,
    name,
    description,
    rows: n,
    cols: k,
    rowPtr,
    colIdx,
    values,
    rowLabels,
    colLabels: cols.map((c) => c.label),
    rowBlocks,
    colBlocks: [0],
    perColumnScale: true,
    maxAbs,
    minAbs: Number.isFinite(minAbs) ? minAbs : 1,
    ...extra,
  };
}

export function matricesOf(s: SystemSnapshot): MatrixSource[] {
  const rowLabels = s.rows.map((r) => r.label);
  const colLabels = s.columnLabels.slice();
  const nCols = s.J.cols;
  while (colLabels.length < nCols) colLabels.push(`c${colLabels.length}`);
  const nRows = s.J.rows;
  while (rowLabels.length < nRows) rowLabels.push(`r${rowLabels.length}`);
  const rc = rowConstraintMap(s);
  const rb = constraintBlocks(s, nRows);
  const quat = quaternionCoordinates(s);
  const cb = bodyBlocks(nCols, quat ? 7 : 6);
  const { red, dep } = redundancy(s);
  const velocity = s.formulation === 'velocity';
  const out: MatrixSource[] = [];

  out.push(
    fromCsr('J', 'J', `Constraint Jacobian: ${nRows} rows × ${nCols} ${quat ? 'position coordinates (x y z qw qx qy qz per body), J = ∂C/∂q' : 'body velocity coordinates'}`, s.J, {
      rowLabels,
      colLabels,
      rowBlocks: rb,
      colBlocks: cb,
      rowConstraint: rc,
      redundantRows: red,
      dependsRows: dep,
    }),
  );
  // Σ = compliance·I is shown beside A and W, never folded into them (Solfec's W = h·J·M⁻¹·Jᵀ)
  const sigma = s.compliance > 0 ? `; Σ = ${s.compliance}·I beside it (the matrix solved is ${velocity ? 'W' : 'A'} + Σ)` : '';
  const aDesc = velocity ? 'A = J·M⁻¹·Jᵀ' : `A = J·M⁻¹·Jᵀ, the matrix solved for λ${sigma}`;
  if (s.omitted?.A) out[0] = { ...out[0], description: `${out[0].description}. ${s.omitted.A}` };
  // A and W: rows and columns are both the constraint rows.
  const square = { rowLabels, colLabels: rowLabels, rowBlocks: rb, colBlocks: rb, rowConstraint: rc, colConstraint: rc, redundantRows: red, dependsRows: dep, symmetric: true };
  if (s.A) {
    out.push(
      fromCsr('A', 'A', `${aDesc}: ${s.A.rows} × ${s.A.cols}, symmetric`, s.A, square),
    );
  }
  if (s.W) {
    out.push(
      fromCsr('W', 'W', `W = h·J·M⁻¹·Jᵀ (the Delassus operator)${sigma}: ${s.W.rows} × ${s.W.cols}`, s.W, square),
    );
  }
  out.push(
    fromCsr('Minv', 'M⁻¹', quat && s.Minv ? `Inverse mass matrix as msd-sim builds it: one 7×7 block per body, ${s.Minv.rows} × ${s.Minv.cols}` : s.Minv ? `Inverse mass matrix in joint space: ${s.Minv.rows} × ${s.Minv.cols}` : `Inverse mass matrix: block diagonal, one 6×6 block per body (${s.bodies.length} bodies)`, s.Minv ?? blockDiagonalCsr(s.MinvBlocks, 6), {
      rowLabels: colLabels,
      colLabels,
      rowBlocks: cb,
      colBlocks: cb,
      symmetric: true,
    }),
  );

  // Vectors over the body coordinates (length 6n) and over the constraint rows.
  const bodyVecs: { label: string; data: Float64Array }[] = [];
  const rowVecs: { label: string; data: Float64Array }[] = [];
  const add = (label: string, data: Float64Array | undefined): void => {
    if (!data || data.length === 0) return;
    if (data.length === nCols) bodyVecs.push({ label, data });
    else if (data.length === nRows) rowVecs.push({ label, data });
  };
  add('F', s.F);
  add('v', s.v);
  add('a', s.a);
  add('Jᵀλ', s.constraintForce);
  add('λ', s.lambda);
  add('rhs', s.rhs);
  add('C', s.C);
  add('Ċ', s.Cdot);
  add('a₀', s.a0);
  add('b', s.b);
  add('B', s.B);
  add('R', s.R);
  if (bodyVecs.length) {
    out.push(
      vectorTable('bodyVectors', 'F, v, a', `Vectors over body coordinates: applied force F, velocity v, acceleration a, constraint force Jᵀλ (each column its own scale)`, bodyVecs, colLabels, cb),
    );
  }
  if (rowVecs.length) {
    out.push(
      vectorTable('rowVectors', 'λ, rhs, C', `Vectors over constraint rows: λ, right-hand side, violation C and Ċ (each column its own scale)`, rowVecs, rowLabels, rb, {
        rowConstraint: rc,
        redundantRows: red,
        dependsRows: dep,
      }),
    );
  }
  return out;
}
