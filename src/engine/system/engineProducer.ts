// The engine as the first producer of the seam: one of its analysed steps as a ConstrainedSystem.
// Its M⁻¹ is block-diagonal (6×6 per free body); the acceleration formulation solves A·λ = b and the
// velocity formulation W·λ = b with W = h·A (Solfec's Delassus operator), which is the same algebra with
// M⁻¹ scaled by h. Σ = compliance·I is the producer's R.
import type { SystemSnapshot } from '../result';
import type { ConstrainedSystem, SystemRow } from './contract';

/** The system the engine solved at the snapshot's step. */
export function systemOfSnapshot(snap: SystemSnapshot, name = 'engine'): ConstrainedSystem {
  const m = snap.J.rows;
  const scale = snap.formulation === 'velocity' ? velocityScale(snap) : 1;
  const Minv = scale === 1 ? snap.MinvBlocks : Float64Array.from(snap.MinvBlocks, (x) => x * scale);
  const byName = new Map(snap.constraints.map((c) => [c.name, c.type]));
  const rows: SystemRow[] = snap.rows.map((r) => ({ constraint: r.constraint, type: byName.get(r.constraint) ?? 'constraint', row: r.row, label: r.label }));
  return {
    producer: { kind: 'engine', name, method: snap.method },
    step: snap.step,
    t: snap.t,
    dofLabels: snap.columnLabels,
    rows,
    J: snap.J,
    // a producer's general M⁻¹ (quaternion coordinates: 7×7 blocks) where the snapshot has one
    mass: snap.Minv ? { kind: 'Minv', matrix: snap.Minv } : { kind: 'blocks', blockSize: 6, Minv },
    lambda: snap.lambda,
    b: snap.b,
    ...(snap.compliance > 0 ? { R: new Float64Array(m).fill(snap.compliance) } : {}),
    C: snap.C,
    ...(snap.contacts ? { contacts: snap.contacts } : {}),
  };
}

/**
 * The time step of a velocity-formulation snapshot: W = h·A, so W's first stored value over A's gives h
 * as the engine formed it (t = step·h says nothing at step 0). Without rows either is absent and h does not matter.
 */
function velocityScale(snap: SystemSnapshot): number {
  const W = snap.W, A = snap.A;
  if (W && A) for (let p = 0; p < A.values.length && p < W.values.length; p++) if (A.values[p] !== 0) return W.values[p] / A.values[p];
  return 1;
}
