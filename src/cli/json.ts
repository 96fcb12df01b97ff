// The CLI's JSON documents (`inspect --json`, `simulate --json`), field by field as docs/cli.md
// describes them. Non-finite numbers are spelled as the shared module does ("NaN", "Infinity",
// "-Infinity"); κ(A) is "Infinity" when A is singular and null without constraints.
import { type CsrMatrix, type Diagnostic, type IntegratorInfo, type SimulationResult, type SystemSnapshot, wBlocks } from '../engine';
import { blockDiagonalCsr, csrToDense, jsonCond, stringifyJson } from '../shared';
import { contactFieldsJson } from './contacts';

/** Matrices up to this many entries are written densely; larger ones as CSR objects. */
const DENSE_JSON_LIMIT = 4_000_000;

type JsonMatrix = number[][] | { format: 'csr'; rows: number; cols: number; rowPtr: number[]; colIdx: number[]; values: number[] };

export function matrixJson(m: CsrMatrix): JsonMatrix {
  if (m.rows * m.cols <= DENSE_JSON_LIMIT) return csrToDense(m);
  return { format: 'csr', rows: m.rows, cols: m.cols, rowPtr: Array.from(m.rowPtr), colIdx: Array.from(m.colIdx), values: Array.from(m.values) };
}

const diagnosticsJson = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, range: d.range }));

/** The `inspect --json` object: exactly the documented fields. `dt`: the scene's step h (W's blocks are h·J_kα·M_k⁻¹·J_kβᵀ). */
export function inspectJson(snap: SystemSnapshot | undefined, diagnostics: readonly Diagnostic[], dt?: number): string {
  const diags = diagnosticsJson(diagnostics);
  if (!snap) return stringifyJson({ diagnostics: diags });
  const out: Record<string, unknown> = {
    bodies: snap.bodies,
    rows: snap.rows.map((r) => ({ constraint: r.constraint, row: r.row })),
    Minv: matrixJson(snap.Minv ?? blockDiagonalCsr(snap.MinvBlocks, 6, true)),
    ...(snap.M ? { M: matrixJson(snap.M) } : {}),
    ...(snap.producer ? { producer: snap.producer } : {}),
    // quaternion coordinates: the 7 columns per body are not the bodies' 6, so they are named
    ...(snap.producer?.name === 'msd-sim' ? { columns: snap.columnLabels } : {}),
    J: matrixJson(snap.J),
    ...(snap.A ? { A: matrixJson(snap.A) } : {}),
    ...(snap.omitted ? { omitted: snap.omitted } : {}),
    compliance: snap.compliance,
    F: snap.F,
    v: snap.v,
    rhs: snap.rhs,
    a0: snap.a0,
    b: snap.b,
    lambda: snap.lambda,
    a: snap.a,
    C: snap.C,
    Cdot: snap.Cdot,
    constraintForce: snap.constraintForce,
    cond: { A: jsonCond(snap.cond.A, snap.rank.rows) },
    rank: { J: snap.rank.J },
    redundant: snap.redundant,
    method: snap.method,
    diagnostics: diags,
  };
  if (snap.condEstimated) out.condEstimated = true;
  if (snap.integrator) out.integrator = snap.integrator;
  if (snap.drives) out.drives = snap.drives;
  if (snap.W) out.W = matrixJson(snap.W);
  // Solfec's W in 3×3 blocks W_αβ per pair of local frames (engine/analysis/wBlocks.ts)
  const wb = snap.W && dt !== undefined ? wBlocks(snap, dt) : undefined;
  if (wb) out.Wblocks = wb.blocks.map((b) => ({ alpha: b.alpha, beta: b.beta, frames: b.frames, body: b.body, sign: b.sign, block: b.block }));
  if (wb) out.Wframes = wb.frames;
  if (snap.B) out.B = snap.B;
  if (snap.R) out.R = snap.R;
  Object.assign(out, contactFieldsJson(snap));
  return stringifyJson(out);
}

/** The `simulate --json` object. `rows`: constraint rows of the system (κ is null without any). */
export function simulateJson(res: SimulationResult | undefined, rows: number, diagnostics: readonly Diagnostic[], integrator?: IntegratorInfo): string {
  return stringifyJson({
    ...(integrator ? { integrator } : {}),
    steps: (res?.steps ?? []).map((s) => ({
      t: s.t,
      C: s.C,
      lambda: s.lambda,
      cond: { A: jsonCond(s.cond.A, rows) },
      ...(s.condEstimated ? { condEstimated: true } : {}),
      energy: s.energy,
      method: s.method,
      ...contactFieldsJson(s),
    })),
    final: res?.final ?? { bodies: [] },
    diagnostics: diagnosticsJson(diagnostics),
  });
}
