// The records of a MuJoCo run as columns: one growing typed array per quantity (time, rows, energy,
// iterations, the blow-up watch, poses, velocities) and the elements' ‖λ‖ and violation as one ragged
// column indexed by step. A run to a blow-up takes hundreds of thousands of steps, each a few
// microseconds of MuJoCo on a small model: an object and five small arrays per step cost as much as the
// step itself and their garbage collection more, so a step writes numbers into these columns and a
// record object (MujocoStepRecord, with views into the columns) is made only when one is asked for.
import type { Energy } from '../engine';

/** What one mj_step left, as a consumer reads it (a view of the run's columns; no matrices). */
export interface MujocoStepRecord {
  /** 1-based: the n-th mj_step (0 = the initial state after mj_forward). */
  step: number;
  t: number;
  nefc: number;
  ncon: number;
  energy: Energy;
  /** MuJoCo's solver iterations on the step. */
  iterations: number;
  /** Per element with rows at this step (ids into the run's `elements`): ‖λ‖₂ and max |violation| of its rows. */
  elementIds: Int32Array;
  elementLambda: Float64Array;
  elementViolation: Float64Array;
  /** max |qacc| and max |qvel| after the step (the blow-up watch reads them). */
  maxQacc: number;
  maxQvel: number;
  /** MuJoCo's warnings that fired on this step, by name (badqacc, badqvel, …), with the DOF or element MuJoCo named. */
  warnings: { name: string; info: number }[];
  /** A NaN or infinity in qpos, qvel or qacc after the step. */
  nonFinite: boolean;
  /** The converted scene's bodies after the step, 7 per body in scene order (mujocoPoses.ts): what the 3D view draws. */
  poses: Float64Array;
  /** The same bodies' velocities, 6 per body: the centre of mass's v, then ω, in world axes (mujocoPoses.ts). */
  velocities: Float64Array;
}

type Typed = Float64Array | Int32Array | Uint8Array;

/** A typed array that doubles when full (the entries written stay where they are read from). */
class Grow<T extends Typed> {
  data: T;
  constructor(private readonly make: (n: number) => T, n = 256) {
    this.data = make(n);
  }
  /** Make room for index i (and the ones before it). */
  fit(i: number): T {
    if (i >= this.data.length) {
      let n = this.data.length * 2;
      while (n <= i) n *= 2;
      const next = this.make(n);
      next.set(this.data as never);
      this.data = next;
    }
    return this.data;
  }
}

const f64 = (n: number): Float64Array => new Float64Array(n);
const i32 = (n: number): Int32Array => new Int32Array(n);

/** The per-step columns of a run; step k's entries are at index k (strided for poses and velocities). */
export class MujocoRecordColumns {
  /** Steps recorded (step 0 included). */
  length = 0;
  /** Steps every per-step column has room for (the element columns: entries). */
  private capacity = 0;
  private elemCapacity = 0;
  /** The most solver iterations of any step recorded. */
  maxIterations = 0;
  private readonly tCol = new Grow(f64);
  private readonly nefcCol = new Grow(i32);
  private readonly nconCol = new Grow(i32);
  private readonly potentialCol = new Grow(f64);
  private readonly kineticCol = new Grow(f64);
  private readonly iterCol = new Grow(i32);
  private readonly qaccCol = new Grow(f64);
  private readonly qvelCol = new Grow(f64);
  private readonly nonFiniteCol = new Grow((n) => new Uint8Array(n));
  private readonly poseCol: Grow<Float64Array>;
  private readonly velCol: Grow<Float64Array>;
  /** Step k's elements are entries elemStart[k] … elemStart[k+1] − 1 of the three element columns. */
  private readonly elemStart = new Grow(i32);
  private readonly elemIds = new Grow(i32, 1024);
  private readonly elemLambda = new Grow(f64, 1024);
  private readonly elemViolation = new Grow(f64, 1024);
  /** Called before a step's poses or velocities are read: the run finishes the last step's bodies then. */
  settle: () => void = () => {};
  /** The few steps on which MuJoCo warned. */
  private readonly warningsAt = new Map<number, { name: string; info: number }[]>();

  constructor(
    /** Numbers per step in the poses column (7 per scene body) and in the velocities column (6 per body). */
    readonly poseStride: number,
    readonly velocityStride: number,
  ) {
    this.poseCol = new Grow(f64, Math.max(1, poseStride) * 64);
    this.velCol = new Grow(f64, Math.max(1, velocityStride) * 64);
    this.elemStart.data[0] = 0;
  }

  /**
   * Start step k = length: make room for its entries and `elements` element entries; the caller then
   * writes them with the setters below and the poses and velocities at `poseOffset`/`velocityOffset`
   * of `poses()`/`velocities()`, and ends with `commit()`.
   */
  begin(elements: number): void {
    const k = this.length;
    // one test on most steps: the per-step columns grow together, the element columns by their own count
    if (k + 1 >= this.capacity) {
      this.capacity = 2 * (k + 1);
      const top = this.capacity - 1;
      this.tCol.fit(top);
      this.nefcCol.fit(top);
      this.nconCol.fit(top);
      this.potentialCol.fit(top);
      this.kineticCol.fit(top);
      this.iterCol.fit(top);
      this.qaccCol.fit(top);
      this.qvelCol.fit(top);
      this.nonFiniteCol.fit(top);
      this.poseCol.fit(this.capacity * this.poseStride - 1);
      this.velCol.fit(this.capacity * this.velocityStride - 1);
      this.elemStart.fit(top);
    }
    const end = this.elemStart.data[k] + elements;
    if (end > this.elemCapacity) {
      this.elemIds.fit(end);
      this.elemLambda.fit(end);
      this.elemViolation.fit(end);
      this.elemCapacity = this.elemIds.data.length;
    }
  }

  /** Write step `length`'s scalars (after `begin`). */
  setScalars(t: number, nefc: number, ncon: number, potential: number, kinetic: number, iterations: number, maxQacc: number, maxQvel: number, nonFinite: boolean): void {
    const k = this.length;
    this.tCol.data[k] = t;
    this.nefcCol.data[k] = nefc;
    this.nconCol.data[k] = ncon;
    this.potentialCol.data[k] = potential;
    this.kineticCol.data[k] = kinetic;
    this.iterCol.data[k] = iterations;
    if (iterations > this.maxIterations) this.maxIterations = iterations;
    this.qaccCol.data[k] = maxQacc;
    this.qvelCol.data[k] = maxQvel;
    this.nonFiniteCol.data[k] = nonFinite ? 1 : 0;
  }

  /** Write the i-th element entry of step `length` (after `begin` with room for it). */
  setElement(i: number, id: number, lambda: number, violation: number): void {
    const at = this.elemStart.data[this.length] + i;
    this.elemIds.data[at] = id;
    this.elemLambda.data[at] = lambda;
    this.elemViolation.data[at] = violation;
  }

  /** The poses column, where step `length` writes at `poseOffset` (valid until the next `begin`). */
  poses(): Float64Array {
    return this.poseCol.data;
  }
  get poseOffset(): number {
    return this.length * this.poseStride;
  }
  velocities(): Float64Array {
    return this.velCol.data;
  }
  get velocityOffset(): number {
    return this.length * this.velocityStride;
  }

  /** End step `length` with its `elements` element entries. */
  commit(elements: number): void {
    const k = this.length;
    this.elemStart.data[k + 1] = this.elemStart.data[k] + elements;
    this.length = k + 1;
  }

  setWarnings(k: number, warnings: { name: string; info: number }[]): void {
    if (warnings.length) this.warningsAt.set(k, warnings);
    else this.warningsAt.delete(k);
  }

  t(k: number): number {
    return this.tCol.data[k];
  }
  nefc(k: number): number {
    return this.nefcCol.data[k];
  }
  ncon(k: number): number {
    return this.nconCol.data[k];
  }
  iterations(k: number): number {
    return this.iterCol.data[k];
  }
  maxQacc(k: number): number {
    return this.qaccCol.data[k];
  }
  maxQvel(k: number): number {
    return this.qvelCol.data[k];
  }
  nonFinite(k: number): boolean {
    return this.nonFiniteCol.data[k] === 1;
  }
  potential(k: number): number {
    return this.potentialCol.data[k];
  }
  kinetic(k: number): number {
    return this.kineticCol.data[k];
  }
  warnings(k: number): readonly { name: string; info: number }[] {
    return this.warningsAt.get(k) ?? [];
  }
  /** The steps with warnings, ascending. */
  warnedSteps(): number[] {
    return [...this.warningsAt.keys()].sort((a, b) => a - b);
  }

  /** Step k's element entries: ids, ‖λ‖ and violations from `start` to `end` (exclusive) of the arrays given. */
  elementsOf(k: number): { start: number; end: number; ids: Int32Array; lambda: Float64Array; violation: Float64Array } {
    return { start: this.elemStart.data[k], end: this.elemStart.data[k + 1], ids: this.elemIds.data, lambda: this.elemLambda.data, violation: this.elemViolation.data };
  }

  /** The poses column with every step's bodies finished: step k's are at k·poseStride (valid while the column does not grow). */
  poseData(): Float64Array {
    this.settle();
    return this.poseCol.data;
  }

  /** Step k's poses, 7 per scene body, as a view (valid while the column does not grow; copy to keep). */
  posesOf(k: number): Float64Array {
    this.settle();
    return this.poseCol.data.subarray(k * this.poseStride, (k + 1) * this.poseStride);
  }
  velocitiesOf(k: number): Float64Array {
    this.settle();
    return this.velCol.data.subarray(k * this.velocityStride, (k + 1) * this.velocityStride);
  }

  /**
   * Step k as a record object. Its arrays are views of the columns' current storage: the numbers of a
   * step never change once written, so a view stays right even after the columns grew into new storage.
   */
  at(k: number): MujocoStepRecord {
    const e = this.elementsOf(k);
    const potential = this.potential(k), kinetic = this.kinetic(k);
    return {
      step: k,
      t: this.t(k),
      nefc: this.nefc(k),
      ncon: this.ncon(k),
      energy: { potential, kinetic, total: potential + kinetic },
      iterations: this.iterations(k),
      elementIds: e.ids.subarray(e.start, e.end),
      elementLambda: e.lambda.subarray(e.start, e.end),
      elementViolation: e.violation.subarray(e.start, e.end),
      maxQacc: this.maxQacc(k),
      maxQvel: this.maxQvel(k),
      warnings: [...this.warnings(k)],
      nonFinite: this.nonFinite(k),
      poses: this.posesOf(k),
      velocities: this.velocitiesOf(k),
    };
  }
}
