// The engine's own trace export: any SystemSource (a run of the engine, MuJoCo, a trace) saved in the
// .npz format that readTrace reads back. Every step gets suffixed keys (J_k, Minv_k or M_k, lambda_k,
// rhs_k, C_k, R_k, row_names_k), since rows come and go between steps (contacts), and dof_names and t
// are written once. Block-diagonal masses are written as the full n × n M⁻¹.
import { zipSync } from 'fflate';
import { csrToDenseFlat } from '../core/csr';
import type { SystemSource } from '../system/contract';
import { writeNpy, writeNpyStrings } from './npy';

/** The .npz bytes of the steps [0, steps) of a source (default: all of them). */
export function exportTraceNpz(source: SystemSource, steps = source.steps): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const t: number[] = [];
  for (let k = 0; k < steps; k++) {
    const s = source.systemAt(k);
    const m = s.J.rows, n = s.J.cols;
    t.push(s.t);
    if (k === 0) files['dof_names.npy'] = writeNpyStrings(s.dofLabels);
    files[`J_${k}.npy`] = writeNpy([m, n], csrToDenseFlat(s.J));
    if (s.mass.kind === 'blocks') {
      const { blockSize: b, Minv } = s.mass;
      const dense = new Float64Array(n * n);
      for (let blk = 0; blk < n / b; blk++)
        for (let r = 0; r < b; r++) for (let c = 0; c < b; c++) dense[(blk * b + r) * n + blk * b + c] = Minv[blk * b * b + r * b + c];
      files[`Minv_${k}.npy`] = writeNpy([n, n], dense);
    } else files[`${s.mass.kind}_${k}.npy`] = writeNpy([n, n], csrToDenseFlat(s.mass.matrix));
    for (const [key, v] of [['lambda', s.lambda], ['rhs', s.b], ['C', s.C], ['R', s.R]] as const) if (v) files[`${key}_${k}.npy`] = writeNpy([m], v);
    files[`row_names_${k}.npy`] = writeNpyStrings(s.rows.map((r) => r.label));
  }
  files['t.npy'] = writeNpy([t.length], t);
  return zipSync(files, { level: 6 });
}
