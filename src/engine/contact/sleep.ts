// Sleeping islands, as MuJoCo's (engine_sleep.c; docs "Sleeping islands"), opt-in with
// `solver.contacts.sleep`. A tree is a set of movable bodies joined by the scene's constraints (the
// kinematic tree of an imported model). Each step, an awake tree whose velocities at the start of the
// step are all below the tolerance (|v|, and |ω|·ℓ with ℓ the body's size, MuJoCo's dof_length: an
// infinity norm in m/s) counts up towards "ready"; a tree that is not resets. MuJoCo's counter is
// tree_asleep: −(1 + mjMINAWAKE) fully awake, −1 ready, ≥ 0 asleep (here: the island's smallest tree).
// Once every tree of an island (trees joined by this step's contacts) is ready, the island sleeps:
// it ends the step where it began, at rest, and from the next step its bodies are left out of
// detection against each other and the static world, so no contact of a sleeping island is solved.
// A contact between a sleeping and an awake body wakes the whole sleeping island, and detection runs
// again, so that the woken island's own contacts are solved in the same step (MuJoCo's second
// collision pass). A tree with an applied force or torque never sleeps (MuJoCo's xfrc_applied rule), nor
// one with an actuator unless a body of it says `sleep: "allowed"`, nor one that says `sleep: "never"`
// (MuJoCo's compiler policy and `body/sleep`).
import type { World } from '../assembly/assemble';
import type { Contact } from '../collision/contacts';
import type { BodyState } from '../model/body';
import type { SceneSpec } from '../scene/spec';
import { jointsOf } from '../scene/hingeGroups';

/** MuJoCo's mjMINAWAKE: steps below the tolerance before a tree is ready to sleep. */
export const MIN_AWAKE = 10;
/** The counter of a fully awake tree. */
export const AWAKE = -(1 + MIN_AWAKE);

/** What a step with sleeping islands starts from: its contacts, the counters it ends with, the bodies that do not move. */
export interface Nap {
  contacts: Contact[];
  /** Per tree: the counter after this step (see the file's head). */
  next: Int32Array;
  /** Per scene body: 1 when it is asleep at the end of this step (it keeps its pose, at rest). */
  hold: Uint8Array;
}

export class SleepModel {
  /** Per scene body: its tree, −1 for fixed bodies. */
  readonly treeOf: Int32Array;
  /** Per tree: its bodies. */
  readonly trees: number[][] = [];
  /** Per tree: 1 when it may never sleep. */
  readonly never: Uint8Array;
  /** Per scene body: the length that turns |ω| into a speed (the farthest point of its shapes from its origin, at least 1e-5 m). */
  readonly length: Float64Array;

  constructor(
    world: World,
    scene: SceneSpec,
    readonly tolerance: number,
  ) {
    const n = world.bodies.length;
    const parent = Int32Array.from({ length: n }, (_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]];
      return i;
    };
    const byName = new Map(scene.bodies.map((b, i) => [b.name, i]));
    const movable = (i: number | undefined): i is number => i !== undefined && world.bodies[i].column >= 0;
    for (const c of scene.constraints) {
      const a = byName.get(c.bodyA), b = byName.get(c.bodyB);
      if (movable(a) && movable(b)) parent[find(a)] = find(b);
    }
    this.treeOf = new Int32Array(n).fill(-1);
    const index = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      if (world.bodies[i].column < 0) continue;
      const root = find(i);
      let t = index.get(root);
      if (t === undefined) index.set(root, (t = this.trees.push([]) - 1));
      this.treeOf[i] = t;
      this.trees[t].push(i);
    }
    this.never = new Uint8Array(this.trees.length);
    this.length = new Float64Array(n);
    // MuJoCo's policies: a body's own `sleep` decides for its tree ('never' wins); without one an actuated
    // tree never sleeps (its compiler's rule): a joint's bodies, and for an actuated tendon every tree
    const policy = new Int8Array(this.trees.length); // 0 auto, 1 allowed, 2 never
    scene.bodies.forEach((b, i) => {
      const t = this.treeOf[i];
      if (t >= 0 && b.sleep) policy[t] = Math.max(policy[t], b.sleep === 'never' ? 2 : 1);
    });
    const actuated = new Uint8Array(this.trees.length);
    const joints = new Map(scene.constraints.flatMap(jointsOf).map((c) => [c.name, c]));
    for (const a of scene.actuators ?? []) {
      if (a.tendon) actuated.fill(1);
      const spec = joints.get(a.joint);
      for (const name of spec ? [spec.bodyA, spec.bodyB] : []) {
        const i = byName.get(name);
        if (i !== undefined && this.treeOf[i] >= 0) actuated[this.treeOf[i]] = 1;
      }
    }
    for (let t = 0; t < this.trees.length; t++) this.never[t] = policy[t] === 2 || (policy[t] === 0 && actuated[t]) ? 1 : 0;
    scene.bodies.forEach((b, i) => {
      let r = 0;
      for (const s of b.shapes) r = Math.max(r, Math.hypot(...s.position) + shapeRadius(s));
      this.length[i] = Math.max(r, 1e-5);
      // an applied force or torque keeps the tree awake whatever its policy (MuJoCo's xfrc_applied test)
      const t = this.treeOf[i];
      if (t >= 0 && (b.force.some((x) => x !== 0) || b.torque.some((x) => x !== 0))) this.never[t] = 1;
    });
  }

  /** Every tree fully awake. */
  initial(): Int32Array {
    return new Int32Array(this.trees.length).fill(AWAKE);
  }

  /** Per scene body: 1 when its tree is asleep under `counters`; undefined when none is. */
  mask(counters: Int32Array): Uint8Array | undefined {
    let mask: Uint8Array | undefined;
    for (let t = 0; t < counters.length; t++) {
      if (counters[t] < 0) continue;
      mask ??= new Uint8Array(this.treeOf.length);
      for (const b of this.trees[t]) mask[b] = 1;
    }
    return mask;
  }

  /** What a snapshot says of them under `counters` (absent: every tree awake): how many sleep, and which. */
  snapshotFields(counters: Int32Array | undefined, names: readonly string[]): { asleep: number; sleeping: string[] } {
    const mask = counters && this.mask(counters);
    const sleeping = mask ? names.filter((_, i) => mask[i] === 1) : [];
    return { asleep: sleeping.length, sleeping };
  }

  /** Bodies asleep under `counters`. */
  asleepBodies(counters: Int32Array): number {
    let n = 0;
    for (let t = 0; t < counters.length; t++) if (counters[t] >= 0) n += this.trees[t].length;
    return n;
  }

  /**
   * The step from `states` (velocities u⁻) with the counters of the step before (`warm`, absent at the
   * start): detection with the sleeping bodies left out, the wakes and the new counters.
   * `detect(mask)` answers the contacts with the bodies of `mask` asleep.
   */
  nap(states: readonly BodyState[], warm: Int32Array | undefined, detect: (mask: Uint8Array | undefined) => Contact[]): Nap {
    const cur = warm && warm.length === this.trees.length ? warm.slice() : this.initial();
    // with every tree asleep no pair is left to test (a sleeping body meets only awake ones)
    const detectAwake = (mask: Uint8Array | undefined): Contact[] => (mask && cur.every((c) => c >= 0) ? [] : detect(mask));
    let contacts = detectAwake(this.mask(cur));
    // a contact across the boundary wakes the sleeping island, with the awake tree's counter (MuJoCo's
    // wakeval); the woken island may touch another sleeping one, so detection runs until nothing wakes
    for (let pass = 0; pass <= this.trees.length; pass++) {
      let woke = 0;
      for (const c of contacts) {
        const ta = c.bodyA >= 0 ? this.treeOf[c.bodyA] : -1, tb = c.bodyB >= 0 ? this.treeOf[c.bodyB] : -1;
        if (ta < 0 || tb < 0 || (cur[ta] < 0) === (cur[tb] < 0)) continue;
        const [sleeping, awake] = cur[ta] >= 0 ? [ta, tb] : [tb, ta];
        woke += this.wake(cur, sleeping, cur[awake]);
      }
      if (woke === 0) break;
      contacts = detectAwake(this.mask(cur));
    }
    // the counters of the awake trees, from the velocities the step starts with
    for (let t = 0; t < cur.length; t++) {
      if (cur[t] >= 0) continue;
      cur[t] = this.still(t, states) ? Math.min(cur[t] + 1, -1) : AWAKE;
    }
    // islands of awake trees joined by this step's contacts; an island whose trees are all ready sleeps
    const parent = Int32Array.from({ length: cur.length }, (_, i) => i);
    const find = (i: number): number => {
      while (parent[i] !== i) i = parent[i] = parent[parent[i]];
      return i;
    };
    for (const c of contacts) {
      const ta = c.bodyA >= 0 ? this.treeOf[c.bodyA] : -1, tb = c.bodyB >= 0 ? this.treeOf[c.bodyB] : -1;
      if (ta >= 0 && tb >= 0) {
        const ra = find(ta), rb = find(tb);
        // the smaller root, so that an island's name is its smallest tree
        if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
      }
    }
    const ready = new Uint8Array(cur.length).fill(1);
    for (let t = 0; t < cur.length; t++) if (cur[t] < 0 && cur[t] !== -1) ready[find(t)] = 0;
    for (let t = 0; t < cur.length; t++) if (cur[t] === -1 && ready[find(t)]) cur[t] = find(t);
    const hold = this.mask(cur) ?? new Uint8Array(this.treeOf.length);
    return { contacts, next: cur, hold };
  }

  /** Wake the sleeping island of tree `t` (every tree with its name) to `value`; the trees woken. */
  private wake(cur: Int32Array, t: number, value: number): number {
    const island = cur[t];
    let n = 0;
    for (let k = 0; k < cur.length; k++) {
      if (cur[k] !== island) continue;
      cur[k] = value;
      n++;
    }
    return n;
  }

  /** Tree t may sleep and all its velocities are below the tolerance (exactly zero for tolerance 0). */
  private still(t: number, states: readonly BodyState[]): boolean {
    if (this.never[t]) return false;
    const tol = this.tolerance;
    for (const b of this.trees[t]) {
      const { v, w, q } = states[b];
      // ω in the body's frame, as MuJoCo's free joint has it (an infinity norm is not rotation invariant)
      const wl = toBody(q, w);
      const l = this.length[b];
      const m = Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2]), l * Math.abs(wl[0]), l * Math.abs(wl[1]), l * Math.abs(wl[2]));
      if (tol > 0 ? !(m < tol) : m !== 0) return false;
    }
    return true;
  }
}

/**
 * A solve's u⁺ (and its a = (u⁺ − u)/h, where given) with the bodies asleep at the end of the step at rest,
 * as they are stepped: a sleeping body shows no free fall it does not take. `uPlus` is changed in place.
 */
export function holdVelocities(world: World, hold: Uint8Array, uPlus: Float64Array, a?: { a: Float64Array; v: ArrayLike<number>; h: number }): void {
  for (let i = 0; i < hold.length; i++) {
    const col = world.bodies[i].column;
    if (!hold[i] || col < 0) continue;
    for (let d = 0; d < 6; d++) {
      uPlus[col + d] = 0;
      if (a) a.a[col + d] = -a.v[col + d] / a.h;
    }
  }
}

/** Rᵀ·w for the unit quaternion q = [x, y, z, w]. */
function toBody(q: readonly number[], w: readonly number[]): [number, number, number] {
  const [x, y, z, s] = q;
  // v' = v − 2s(u×v) + 2u×(u×v), u the vector part: the inverse rotation
  const cx = y * w[2] - z * w[1], cy = z * w[0] - x * w[2], cz = x * w[1] - y * w[0];
  const dx = y * cz - z * cy, dy = z * cx - x * cz, dz = x * cy - y * cx;
  return [w[0] - 2 * s * cx + 2 * dx, w[1] - 2 * s * cy + 2 * dy, w[2] - 2 * s * cz + 2 * dz];
}

/** A length that bounds a shape around its own centre. */
export function shapeRadius(s: SceneSpec['bodies'][number]['shapes'][number]): number {
  switch (s.type) {
    case 'sphere':
      return s.radius;
    case 'capsule':
      return s.radius + s.halfLength;
    case 'cylinder':
      return Math.hypot(s.radius, s.halfLength);
    case 'box':
      return Math.hypot(...s.halfExtents);
    case 'ellipsoid':
      return Math.max(...s.radii);
    case 'convex':
      return s.vertices.reduce((r, v) => Math.max(r, Math.hypot(...v)), 0);
    default:
      return 0;
  }
}
