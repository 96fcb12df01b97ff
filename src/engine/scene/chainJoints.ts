// Whether the joints of a chain can each have a coordinate (model/chainCoordinate.ts gives it): a
// question on the scene's own numbers, asked where the scene is read (scene/chains.ts, hingeGroups.ts),
// so it lives below the model; the model's chain coordinate solves with the same small systems.
import type { Vec3 } from '../types';
import type { ChainJointSpec } from './spec';
import { cross, dot, normalize } from '../core/math';

/**
 * Whether each joint of the chain can have a coordinate here: at most three hinges, two only with
 * independent axes and three only with axes that span space (their rotation then fixes every angle, on
 * the branch of the initial state); the slides' directions independent.
 */
export function chainHasCoordinates(joints: readonly ChainJointSpec[]): boolean {
  const hinges = joints.filter((j) => j.type === 'hinge').map((j) => normalize(j.axis));
  if (hinges.length > 3) return false;
  if (hinges.length >= 2) {
    const c = cross(hinges[0], hinges[1]);
    if (!(Math.hypot(...c) > 1e-6)) return false;
    if (hinges.length === 3 && !(Math.abs(dot(c, hinges[2])) > 1e-6)) return false;
  }
  const slides = joints.filter((j) => j.type === 'slider').map((j) => normalize(j.axis));
  if (slides.length > 3) return false;
  // checked at the initial state: a hinge between two slides turns the later one, and at a state where it
  // turns them parallel the chain itself loses a degree of freedom (chainDeltas keeps their δ at 0 there)
  return solveSym(gram(slides), slides.map(() => 0)) !== undefined;
}

export function gram(cols: readonly Vec3[]): number[][] {
  return cols.map((x) => cols.map((y) => dot(x, y)));
}

/** Solve the small symmetric system G·x = b (Gaussian elimination with partial pivoting); undefined when singular. */
export function solveSym(G: number[][], b: number[]): number[] | undefined {
  const n = b.length;
  const A = G.map((r, i) => [...r, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
    if (!(Math.abs(A[p][c]) > 1e-12 * Math.max(1, Math.abs(A[0][0])))) return undefined;
    [A[c], A[p]] = [A[p], A[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let k = c; k <= n; k++) A[r][k] -= f * A[c][k];
    }
  }
  return A.map((r, i) => r[n] / r[i]);
}

