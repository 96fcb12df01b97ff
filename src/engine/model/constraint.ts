// The contract every constraint type implements (one file per type in this folder).
import type { Mat3, Quat, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';

/**
 * The world-frame state of one end of a constraint. For the world frame: p = 0, q = identity,
 * R = I, v = w = 0. For `fixed: true` bodies: their pose, v = w = 0.
 */
export interface Pose {
  p: Vec3;
  q: Quat;
  /** Rotation matrix of q (row-major), precomputed by the caller. */
  R: Mat3;
  v: Vec3;
  /** Angular velocity, world frame. */
  w: Vec3;
}

/** Output buffers for one constraint evaluation (length `rows` or `rows*6`). */
export interface ConstraintEval {
  /** C(q), length rows. */
  C: Float64Array;
  /** Jacobian block of body A, rows×6 row-major, columns [vx,vy,vz,ωx,ωy,ωz]. */
  JA: Float64Array;
  /** Jacobian block of body B, rows×6 row-major. */
  JB: Float64Array;
  /** J̇·v (the velocity-product term of C̈ = J·a + J̇·v), length rows. */
  Jdotv: Float64Array;
  /** Jacobian blocks of the model's `extraBodies`, in that order (rows×6 each); empty for two-body types. */
  JX: Float64Array[];
}

export interface ConstraintModel {
  readonly spec: ConstraintSpec;
  /** Number of scalar rows this constraint contributes to J. */
  readonly rows: number;
  /** A short label per row, e.g. `['d']`, `['x','y','z']`, `['x','y','z','⊥1','⊥2']`. */
  readonly rowLabels: readonly string[];
  /**
   * Optional, per row: a 6-bit mask (bit j: column j of a block, [vx,vy,vz,ωx,ωy,ωz]) outside which
   * every evaluation writes exact zeros (+0) in each of the row's blocks — structurally, at every
   * state, not because of the current configuration. The solve's products with J skip the other
   * entries (jProducts.ts); J itself keeps every entry of its pattern (what users see). Absent: no promise.
   */
  readonly rowMasks?: readonly number[];
  /**
   * Bodies beyond bodyA and bodyB whose motion the rows depend on (the coupler: the bodies of the
   * coupled joints), never "world", bodyA or bodyB; absent for two-body types. Their poses are passed
   * to `evaluate` as `extra`, in this order, and their Jacobian blocks are written to `out.JX`.
   */
  readonly extraBodies?: readonly string[];
  /**
   * Evaluate C, the two Jacobian blocks and J̇v at the given end states. Ċ = JA·[vA;ωA] + JB·[vB;ωB]
   * must hold exactly (checked against finite differences of C in tests).
   * Must not allocate per call beyond small temporaries, and never throw.
   */
  evaluate(a: Pose, b: Pose, out: ConstraintEval, extra?: readonly Pose[]): void;
}

/** Allocate output buffers for a constraint with `rows` rows (and `extra` further bodies). */
export function makeEval(rows: number, extra = 0): ConstraintEval {
  return {
    C: new Float64Array(rows),
    JA: new Float64Array(rows * 6),
    JB: new Float64Array(rows * 6),
    Jdotv: new Float64Array(rows),
    JX: Array.from({ length: extra }, () => new Float64Array(rows * 6)),
  };
}
