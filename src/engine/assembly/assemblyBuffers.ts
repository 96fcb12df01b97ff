// The stepping path's assembly buffers: `assemble(world, states, evaluated, into)` writes into
// them instead of fresh arrays (see AssemblyBuffers for who may do that).
import type { Assembly, World } from './world';
import type { Pose } from '../model/constraint';
import { slotsCoverJ } from './jProducts';

/**
 * Arrays an Assembly can be written into instead of fresh ones (`assemble`'s `into`): every array of
 * the result (minvCompact, F, v, J's and A's values, C, Ċ, J̇v) and the poses with their R. Only for a
 * caller that is done with the Assembly before it assembles into the same buffers again — the next
 * assembly overwrites all of it — and that never lets it (or anything aliasing it) escape.
 */
export interface AssemblyBuffers {
  minvCompact: Float64Array;
  F: Float64Array;
  v: Float64Array;
  Jvals: Float64Array;
  Avals: Float64Array;
  C: Float64Array;
  Cdot: Float64Array;
  Jdotv: Float64Array;
  poses: Pose[];
  /**
   * The Assembly returned by the last assembly into these buffers: its J, A and itself are made once
   * and returned again by every later one (all their fields are these buffers and the world's
   * patterns, the same every time), so a step allocates none of the three objects. As safe as the
   * buffers themselves: the caller is done with the previous Assembly before it assembles again.
   */
  assembly?: Assembly;
  /**
   * a₀ = M⁻¹F and J·a₀, formed on the way (a₀ per body after its F, J·a₀ in the Ċ pass over J's rows) for
   * `solveSystem`, which otherwise makes two more passes: only for the acceleration formulation and a J whose
   * every row has row slots (jProducts.ts `slotsCoverJ`), where the sums are jMulVec's in its order.
   */
  a0?: Float64Array;
  Ja0?: Float64Array;
  /**
   * Σ|x| of the last assembly into these buffers, summed while it wrote them (nonFinite.ts
   * `checkSystem` takes them instead of reading the arrays again): over J's values, over M⁻¹ (compact),
   * and over F, C, Ċ and J̇v. NaN or ∞ when an entry is; valid while the Assembly is unmodified.
   */
  absJ: number;
  absM: number;
  absRest: number;
}

/** Fresh buffers for `assemble(world, states, evaluated, into)`, sized for `world`. */
export function assemblyBuffers(world: World): AssemblyBuffers {
  return {
    minvCompact: new Float64Array(world.colBodies.length * 10),
    F: new Float64Array(world.nCols),
    v: new Float64Array(world.nCols),
    Jvals: new Float64Array(world.jColIdx.length),
    Avals: new Float64Array(world.aColIdx.length),
    C: new Float64Array(world.nRows),
    Cdot: new Float64Array(world.nRows),
    Jdotv: new Float64Array(world.nRows),
    poses: world.bodies.map(() => ({ p: [0, 0, 0], q: [0, 0, 0, 1], R: [1, 0, 0, 0, 1, 0, 0, 0, 1], v: [0, 0, 0], w: [0, 0, 0] })),
    ...(world.scene.solver.formulation !== 'velocity' && slotsCoverJ(world) ? { a0: new Float64Array(world.nCols), Ja0: new Float64Array(world.nRows) } : {}),
    absJ: NaN,
    absM: NaN,
    absRest: NaN,
  };
}
