// Test helpers for the contact solvers (no collision detection in this branch): scenes built in
// code, and analytic box-corner / sphere contacts against planes and box top faces.
import { buildWorld, type World } from '../../src/engine/assembly/assemble';
import type { Contact } from '../../src/engine/collision/contacts';
import { initialState, type BodyState } from '../../src/engine/model/body';
import { perpendicularBasis, quatToMat3 } from '../../src/engine/core/math';
import { DEFAULT_SOLVER } from '../../src/engine/scene/fields';
import type { BodySpec, ConstraintSpec, SceneSpec } from '../../src/engine/scene/spec';
import type { Quat, Vec3 } from '../../src/engine/types';
import { defaultNonlinearSettings, defaultVelocitySettings } from '../../src/engine/contact/settings';

export function body(name: string, mass: number, inertia: Vec3, position: Vec3, extra: Partial<BodySpec> = {}): BodySpec {
  const [a, b, c] = inertia;
  return {
    index: 0,
    name,
    mass,
    inertia: [a, 0, 0, 0, b, 0, 0, 0, c],
    position,
    orientation: [0, 0, 0, 1],
    velocity: [0, 0, 0],
    angularVelocity: [0, 0, 0],
    force: [0, 0, 0],
    torque: [0, 0, 0],
    gravity: true,
    fixed: false,
    ...extra,
    shapes: extra.shapes ?? [],
  };
}

/** Box inertia (diagonal) of mass m and half extents e. */
export const boxInertia = (m: number, e: Vec3): Vec3 => [
  (m / 3) * (e[1] * e[1] + e[2] * e[2]),
  (m / 3) * (e[0] * e[0] + e[2] * e[2]),
  (m / 3) * (e[0] * e[0] + e[1] * e[1]),
];

export function joint(type: ConstraintSpec['type'], bodyA: string, bodyB: string, extra: Partial<ConstraintSpec> = {}): ConstraintSpec {
  return { index: 0, name: `${type}`, type, bodyA, bodyB, anchorA: [0, 0, 0], anchorB: [0, 0, 0], ...extra };
}

export function scene(bodies: BodySpec[], constraints: ConstraintSpec[] = [], gravity: Vec3 = [0, 0, -9.81], dt = 0.01): SceneSpec {
  return {
    name: 'test',
    gravity,
    solver: { ...DEFAULT_SOLVER, dt, formulation: 'velocity' },
    world: { shapes: [] },
    bodies: bodies.map((b, i) => ({ ...b, index: i })),
    constraints: constraints.map((c, i) => ({ ...c, index: i, name: `${c.type}${i}` })),
  };
}

export function worldOf(s: SceneSpec): { world: World; states: BodyState[] } {
  return { world: buildWorld(s), states: s.bodies.map(initialState) };
}

/** The solvers' defaults (exact friction Jacobian), with overrides. */
export const nonlinearSettings = defaultNonlinearSettings;
export const velocitySettings = defaultVelocitySettings;

const mulT = (R: number[], v: Vec3): Vec3 => [
  R[0] * v[0] + R[3] * v[1] + R[6] * v[2],
  R[1] * v[0] + R[4] * v[1] + R[7] * v[2],
  R[2] * v[0] + R[5] * v[1] + R[8] * v[2],
];
const mul = (R: number[], v: Vec3): Vec3 => [
  R[0] * v[0] + R[1] * v[1] + R[2] * v[2],
  R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
  R[6] * v[0] + R[7] * v[1] + R[8] * v[2],
];
const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

function contactOf(bodyA: number, bodyB: number, n: Vec3, xA: Vec3, gap: number, localA: Vec3, localB: Vec3, mu: number, e: number): Contact {
  const [t1, t2] = perpendicularBasis(n);
  return {
    bodyA,
    bodyB,
    shapeA: 0,
    shapeB: 0,
    point: [xA[0] - 0.5 * gap * n[0], xA[1] - 0.5 * gap * n[1], xA[2] - 0.5 * gap * n[2]],
    normal: n,
    gap,
    t1,
    t2,
    localA,
    localB,
    friction: mu,
    restitution: e,
  };
}

/** Corners of a box (half extents e) on body `bi` against the world plane n·x = offset; gap ≤ margin. */
export function boxPlaneContacts(states: BodyState[], bi: number, e: Vec3, n: Vec3, offset: number, margin: number, mu: number, rest = 0): Contact[] {
  const s = states[bi];
  const R = quatToMat3(s.q as Quat);
  const out: Contact[] = [];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
    const local: Vec3 = [sx * e[0], sy * e[1], sz * e[2]];
    const r = mul(R, local);
    const x: Vec3 = [s.p[0] + r[0], s.p[1] + r[1], s.p[2] + r[2]];
    const gap = dot(n, x) - offset;
    if (gap > margin) continue;
    const onPlane: Vec3 = [x[0] - gap * n[0], x[1] - gap * n[1], x[2] - gap * n[2]];
    out.push(contactOf(bi, -1, n, x, gap, local, onPlane, mu, rest));
  }
  return out;
}

/** Sphere (radius r, centred on body bi) against the world plane n·x = offset. */
export function spherePlaneContacts(states: BodyState[], bi: number, radius: number, n: Vec3, offset: number, margin: number, mu: number, rest = 0): Contact[] {
  const s = states[bi];
  const R = quatToMat3(s.q as Quat);
  const gap = dot(n, s.p as Vec3) - offset - radius;
  if (gap > margin) return [];
  const x: Vec3 = [s.p[0] - radius * n[0], s.p[1] - radius * n[1], s.p[2] - radius * n[2]];
  const localA = mulT(R, [-radius * n[0], -radius * n[1], -radius * n[2]]);
  const onPlane: Vec3 = [x[0] - gap * n[0], x[1] - gap * n[1], x[2] - gap * n[2]];
  return [contactOf(bi, -1, n, x, gap, localA, onPlane, mu, rest)];
}

/** Bottom corners of box `upper` against the top face (local +z) of box `lower` (nearly aligned stacks). */
export function boxOnBoxContacts(states: BodyState[], upper: number, eu: Vec3, lower: number, el: Vec3, margin: number, mu: number): Contact[] {
  const su = states[upper], sl = states[lower];
  const Ru = quatToMat3(su.q as Quat), Rl = quatToMat3(sl.q as Quat);
  const n = mul(Rl, [0, 0, 1]);
  const top: Vec3 = [sl.p[0] + el[2] * n[0], sl.p[1] + el[2] * n[1], sl.p[2] + el[2] * n[2]];
  const out: Contact[] = [];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) {
    const local: Vec3 = [sx * eu[0], sy * eu[1], -eu[2]];
    const r = mul(Ru, local);
    const x: Vec3 = [su.p[0] + r[0], su.p[1] + r[1], su.p[2] + r[2]];
    const gap = dot(n, [x[0] - top[0], x[1] - top[1], x[2] - top[2]]);
    if (gap > margin) continue;
    const onFace: Vec3 = [x[0] - gap * n[0] - sl.p[0], x[1] - gap * n[1] - sl.p[1], x[2] - gap * n[2] - sl.p[2]];
    out.push(contactOf(upper, lower, n, x, gap, local, mulT(Rl, onFace), mu, 0));
  }
  return out;
}

/** Total normal force of the contacts whose body B is `b` (−1: the ground). */
export function normalSum(contacts: Contact[], forces: { normalForce: number }[], b: number): number {
  let s = 0;
  contacts.forEach((c, i) => {
    if (c.bodyB === b) s += forces[i].normalForce;
  });
  return s;
}

/** A box on a 20° incline (plane through the origin, normal (−sin θ, 0, cos θ)); acceleration down the slope. */
export function incline(step: (world: World, states: BodyState[], cs: Contact[]) => { states: BodyState[]; converged: boolean }, mu: number, steps: number) {
  const th = (20 * Math.PI) / 180;
  const n: Vec3 = [-Math.sin(th), 0, Math.cos(th)];
  const e: Vec3 = [0.2, 0.1, 0.05], m = 2;
  const s = scene([body('box', m, boxInertia(m, e), [n[0] * e[2], 0, n[2] * e[2]], { orientation: [0, Math.sin(-th / 2), 0, Math.cos(th / 2)] })]);
  const { world, states: initial } = worldOf(s);
  let states = initial;
  let unconverged = 0;
  for (let k = 0; k < steps; k++) {
    const r = step(world, states, boxPlaneContacts(states, 0, e, n, 0, 0.01, mu));
    states = r.states;
    if (!r.converged) unconverged++;
  }
  const v = states[0].v;
  const along = -(v[0] * Math.cos(th) + v[2] * Math.sin(th));
  return { a: along / (steps * 0.01), expected: Math.max(0, 9.81 * (Math.sin(th) - mu * Math.cos(th))), unconverged, normalSpeed: v[0] * n[0] + v[2] * n[2] };
}
