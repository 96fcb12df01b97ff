// The coupler (polynomial coupling of two joint coordinates) over up to four bodies: Jacobian blocks
// and J̇v against finite differences along the rigid motion, the coordinates against their meaning,
// the scene format (joints by name), and the assembled J and A with extra ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Quat, Vec3 } from '../../src/engine/types';
import type { ConstraintSpec, CoupledJoint } from '../../src/engine/scene/spec';
import { quatFromRotationVector, quatMul, quatNormalize, quatToMat3 } from '../../src/engine/core/math';
import { makeEval, type Pose } from '../../src/engine/model/constraint';
import { createConstraint, extraBodiesOf } from '../../src/engine/model/index';
import { rng as prng } from './linalg-fixtures';
import { parseScene } from '../../src/engine/scene/parse';
import { assemble, buildWorld } from '../../src/engine/assembly/assemble';
import { initialState } from '../../src/engine/model/body';
import { islandsOf } from '../../src/engine/kkt/kkt';
import { Codes } from '../../src/engine/core/codes';
import { inspectScene } from '../../src/engine/pipeline';

type Rng = () => number;
const uni = (r: Rng, lo: number, hi: number) => lo + (hi - lo) * r();
const rvec = (r: Rng, s = 1): Vec3 => [uni(r, -s, s), uni(r, -s, s), uni(r, -s, s)];
const runit = (r: Rng): Vec3 => {
  const v = rvec(r);
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};
const rquat = (r: Rng): Quat => quatNormalize([uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)]);
const pose = (p: Vec3, q: Quat, v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0]): Pose => ({ p: [...p] as Vec3, q: [...q] as Quat, R: quatToMat3(q), v, w });
const rpose = (r: Rng): Pose => pose(rvec(r, 2), rquat(r), rvec(r, 1.5), rvec(r, 1.5));
/** Move for time t with constant v, ω. */
const advance = (x: Pose, t: number): Pose =>
  pose([x.p[0] + t * x.v[0], x.p[1] + t * x.v[1], x.p[2] + t * x.v[2]], quatMul(quatFromRotationVector([t * x.w[0], t * x.w[1], t * x.w[2]]), x.q), x.v, x.w);
/** A pose near `x0` (small rotation and offset), so hinge twists stay away from ±π. */
const near = (r: Rng, x0: Pose): Pose => pose([x0.p[0] + uni(r, -0.3, 0.3), x0.p[1], x0.p[2]], quatMul(quatFromRotationVector(rvec(r, 0.8)), x0.q), rvec(r, 1.5), rvec(r, 1.5));

const BODY_SETS: [string, string, string, string][] = [
  ['C1', 'P1', 'C2', 'P2'], // four bodies
  ['C1', 'P', 'C2', 'P'], // a gripper: two fingers on one hand
  ['C1', 'P', 'P', 'world'], // a chain: the second joint moves the first joint's parent
  ['C1', 'world', 'C2', 'world'], // both on the ground
];

function couplerCase(r: Rng, bodies: [string, string, string, string]) {
  const kind = (): CoupledJoint['kind'] => (r() < 0.5 ? 'hinge' : 'slider');
  const j1: CoupledJoint = { joint: 'j1', kind: kind(), body: bodies[0], parent: bodies[1], axis: runit(r), initial: uni(r, -1, 1) };
  const j2: CoupledJoint = { joint: 'j2', kind: kind(), body: bodies[2], parent: bodies[3], axis: runit(r), initial: uni(r, -1, 1) };
  const spec: ConstraintSpec = {
    index: 0, name: 'c', type: 'coupler', bodyA: j1.body, bodyB: j1.parent, anchorA: [0, 0, 0], anchorB: [0, 0, 0],
    coupling: { joints: [j1, j2], coefficients: [uni(r, -1, 1), uni(r, -2, 2), uni(r, -1, 1), uni(r, -0.5, 0.5), uni(r, -0.2, 0.2)] },
  };
  const names = [spec.bodyA, spec.bodyB, ...extraBodiesOf(spec)];
  const init = new Map<string, Pose>(names.filter((n) => n !== 'world').map((n) => [n, rpose(r)]));
  const now = new Map<string, Pose>([...init].map(([n, p]) => [n, near(r, p)]));
  const W = pose([0, 0, 0], [0, 0, 0, 1]);
  const get = (m: Map<string, Pose>, n: string) => m.get(n) ?? W;
  const m = createConstraint(spec, get(init, spec.bodyA), get(init, spec.bodyB), extraBodiesOf(spec).map((n) => get(init, n)));
  const evalAt = (state: Map<string, Pose>) => {
    const out = makeEval(m.rows, extraBodiesOf(spec).length);
    m.evaluate(get(state, spec.bodyA), get(state, spec.bodyB), out, extraBodiesOf(spec).map((n) => get(state, n)));
    return out;
  };
  const moved = (t: number) => new Map([...now].map(([n, p]) => [n, advance(p, t)]));
  /** Σ over ends of J_end·[v; ω] (world ends contribute nothing). */
  const jv = (state: Map<string, Pose>, out = evalAt(state)) => {
    const blocks = [out.JA, out.JB, ...out.JX];
    return names.reduce((s, n, e) => {
      const p = get(state, n);
      const vel = [...p.v, ...p.w];
      return s + vel.reduce((acc, x, c) => acc + blocks[e][c] * x, 0);
    }, 0);
  };
  return { spec, m, names, evalAt, moved, jv, now };
}

test('coupler: Ċ = Σ J_end·[v;ω] and J̇v by finite differences, over 4, 3 and 2 moving bodies', () => {
  const r = prng(501);
  const H = 1e-5;
  let n = 0;
  for (const bodies of BODY_SETS) {
    for (let i = 0; i < 40; i++) {
      const c = couplerCase(r, bodies);
      const e = c.evalAt(c.now);
      const fdC = (c.evalAt(c.moved(H)).C[0] - c.evalAt(c.moved(-H)).C[0]) / (2 * H);
      const an = c.jv(c.now, e);
      assert.ok(Math.abs(an - fdC) < 1e-7 * (1 + Math.abs(an)), `${bodies}: J·v ${an} vs FD ${fdC}`);
      const fdJv = (c.jv(c.moved(H)) - c.jv(c.moved(-H))) / (2 * H);
      assert.ok(Math.abs(e.Jdotv[0] - fdJv) < 1e-6 * (1 + Math.abs(fdJv)), `${bodies}: J̇v ${e.Jdotv[0]} vs FD ${fdJv}`);
      // A wrong sign on any end's block is seen.
      const blocks = [e.JA, e.JB, ...e.JX];
      for (const blk of blocks) {
        if (Math.hypot(...blk) < 1e-3) continue;
        const saved = Float64Array.from(blk);
        for (let k = 0; k < 6; k++) blk[k] = -blk[k];
        const flipped = c.jv(c.now, e);
        blk.set(saved);
        if (Math.abs(flipped - an) > 1e-3) n++;
      }
    }
  }
  assert.ok(n > 200, `sign flips exercised: ${n}`);
});

test('coupler: the hinge coordinate is the rotation angle about the axis, the slider coordinate the displacement', () => {
  const r = prng(502);
  for (let i = 0; i < 50; i++) {
    const P0 = rpose(r), C0 = rpose(r);
    const u = runit(r), q10 = uni(r, -1, 1);
    const theta = uni(r, -3, 3), s = uni(r, -2, 2);
    const mk = (kind: CoupledJoint['kind']): ConstraintSpec => ({
      index: 0, name: 'c', type: 'coupler', bodyA: 'C', bodyB: 'P', anchorA: [0, 0, 0], anchorB: [0, 0, 0],
      coupling: { joints: [{ joint: 'j', kind, body: 'C', parent: 'P', axis: u, initial: q10 }], coefficients: [0.25] },
    });
    // Parent moved rigidly to P; child = P ∘ (rotation θ about u in P's frame) ∘ initial relative pose, or slid by s along u.
    const P = rpose(r);
    const rel = quatMul([-P0.q[0], -P0.q[1], -P0.q[2], P0.q[3]], C0.q);
    const Ru = quatToMat3(P.q);
    const qC = quatMul(quatMul(P.q, quatFromRotationVector([theta * u[0], theta * u[1], theta * u[2]])), rel);
    const out = makeEval(1);
    createConstraint(mk('hinge'), pose(C0.p, C0.q), P0).evaluate(pose([5, 5, 5], qC), P, out);
    const wrapped = Math.atan2(Math.sin(theta), Math.cos(theta));
    assert.ok(Math.abs(out.C[0] - (q10 + wrapped - 0.25)) < 1e-12, `hinge q ${out.C[0] + 0.25} vs ${q10 + wrapped}`);
    // slider: C's offset in P's frame is the initial one plus s·u
    const R0 = quatToMat3(P0.q);
    const d0 = [0, 1, 2].map((k) => R0[k] * (C0.p[0] - P0.p[0]) + R0[3 + k] * (C0.p[1] - P0.p[1]) + R0[6 + k] * (C0.p[2] - P0.p[2]));
    const local = [d0[0] + s * u[0], d0[1] + s * u[1], d0[2] + s * u[2]];
    const pC: Vec3 = [0, 1, 2].map((k) => P.p[k] + Ru[k * 3] * local[0] + Ru[k * 3 + 1] * local[1] + Ru[k * 3 + 2] * local[2]) as Vec3;
    createConstraint(mk('slider'), pose(C0.p, C0.q), P0).evaluate(pose(pC, qC), P, out);
    assert.ok(Math.abs(out.C[0] - (q10 + s - 0.25)) < 1e-12, `slider q ${out.C[0] + 0.25} vs ${q10 + s}`);
  }
});

test('coupler: C = q₁ − (c₀ + c₁q₂ + c₂q₂²) at the initial state, and the default coupling is q₁ = q₂', () => {
  const P = pose([0, 0, 0], [0, 0, 0, 1]);
  const j = (name: string, body: string, initial: number): CoupledJoint => ({ joint: name, kind: 'hinge', body, parent: 'P', axis: [0, 0, 1], initial });
  const spec: ConstraintSpec = {
    index: 0, name: 'c', type: 'coupler', bodyA: 'L', bodyB: 'P', anchorA: [0, 0, 0], anchorB: [0, 0, 0],
    coupling: { joints: [j('a', 'L', 0.7), j('b', 'R', -0.3)], coefficients: [0.1, 2, 3] },
  };
  const m = createConstraint(spec, P, P, [P]);
  const out = makeEval(1, 1);
  m.evaluate(P, P, out, [P]);
  assert.ok(Math.abs(out.C[0] - (0.7 - (0.1 + 2 * -0.3 + 3 * 0.09))) < 1e-15);
  const r = parseScene(JSON.stringify({
    bodies: [{ name: 'hand', mass: 1 }, { name: 'L', mass: 1, position: [0, 1, 0] }, { name: 'R', mass: 1, position: [0, -1, 0] }],
    constraints: [
      { name: 'jl', type: 'slider', bodyA: 'hand', bodyB: 'L', axisA: [0, 1, 0] },
      { name: 'mimic', type: 'coupler', joints: ['jl', 'jr'] },
      { name: 'jr', type: 'slider', bodyA: 'hand', bodyB: 'R', axisA: [0, -1, 0] },
    ],
  }));
  assert.deepEqual(r.diagnostics, []);
  const c = r.scene!.constraints[1];
  assert.equal(c.name, 'mimic');
  assert.deepEqual(c.coupling!.coefficients, [0, 1]);
  assert.deepEqual(c.coupling!.joints.map((x) => [x.joint, x.kind, x.body, x.parent, x.initial]), [['jl', 'slider', 'L', 'hand', 0], ['jr', 'slider', 'R', 'hand', 0]]);
  assert.deepEqual([c.bodyA, c.bodyB], ['L', 'hand']);
});

test('coupler in the scene format: unknown joints, wrong types and bad fields are diagnosed on their values', () => {
  const scene = (coupler: object) => JSON.stringify({
    bodies: [{ name: 'A', mass: 1 }, { name: 'B', mass: 1, position: [1, 0, 0] }],
    constraints: [{ name: 'h', type: 'hinge', bodyA: 'world', bodyB: 'A' }, { name: 'b', type: 'ball', bodyA: 'A', bodyB: 'B' }, { name: 'c', type: 'coupler', ...coupler }],
  });
  const codes = (text: string) => parseScene(text).diagnostics.map((d) => [d.code, text.slice(0, 0) + d.message]);
  const unknown = parseScene(scene({ joints: ['hh'] }));
  assert.equal(unknown.diagnostics[0].code, Codes.couplerJoint);
  assert.equal(unknown.diagnostics[0].fixes?.[0].title, 'Rename to `h`');
  assert.equal(unknown.scene!.constraints.length, 2);
  assert.match(String(codes(scene({ joints: ['h', 'b'] }))[0][1]), /`b` is a ball constraint/);
  assert.equal(parseScene(scene({ joints: ['h', 'h'] })).diagnostics[0].code, Codes.couplerJoint);
  assert.equal(parseScene(scene({})).diagnostics[0].code, Codes.missingField);
  assert.equal(parseScene(scene({ joints: ['h'], coefficients: [] })).diagnostics[0].code, Codes.schemaType);
  assert.equal(parseScene(scene({ joints: ['h'], initial: [1, 2] })).diagnostics[0].code, Codes.schemaType);
  assert.equal(parseScene(scene({ joints: ['h'], bodyA: 'A' })).diagnostics[0].code, Codes.unknownField);
  const ok = parseScene(scene({ joints: ['h'], coefficients: [0.5], initial: [0.2] }));
  assert.deepEqual(ok.diagnostics, []);
  assert.equal(ok.scene!.constraints[2].coupling!.joints[0].initial, 0.2);
});

test('assembly with extra ends: J has one block per moving end, A = J·M⁻¹·Jᵀ, one island', () => {
  const text = JSON.stringify({
    gravity: [0, 0, -9.81],
    bodies: [
      { name: 'hand', mass: 2, inertia: [0.1, 0.2, 0.3], position: [0, 0, 1], angularVelocity: [0.1, 0.2, 0.3] },
      { name: 'L', mass: 0.5, inertia: [0.01, 0.02, 0.03], position: [0, 0.1, 1], velocity: [0, 0.2, 0], orientation: [0, 0, 0.3826834323650898, 0.9238795325112867] },
      { name: 'R', mass: 0.7, inertia: [0.02, 0.02, 0.01], position: [0, -0.1, 1], velocity: [0, -0.1, 0.05] },
    ],
    constraints: [
      { name: 'arm', type: 'ball', bodyA: 'world', bodyB: 'hand', anchorA: [0, 0, 1] },
      { name: 'jl', type: 'slider', bodyA: 'hand', bodyB: 'L', axisA: [0, 1, 0] },
      { name: 'jr', type: 'hinge', bodyA: 'hand', bodyB: 'R', axisA: [1, 0, 0] },
      { name: 'mimic', type: 'coupler', joints: ['jl', 'jr'], coefficients: [0, 0.5, 0.1], initial: [0.1, 0.2] },
    ],
  });
  const r = parseScene(text);
  assert.deepEqual(r.diagnostics, []);
  const world = buildWorld(r.scene!);
  const c = world.constraints.findIndex((x) => x.spec.name === 'mimic');
  assert.deepEqual(Array.from(world.endX[c]), [2]);
  const asm = assemble(world, r.scene!.bodies.map(initialState));
  const row = world.rowStart[c];
  const cols = Array.from(asm.J.colIdx.slice(asm.J.rowPtr[row], asm.J.rowPtr[row + 1]));
  assert.deepEqual(cols, Array.from({ length: 18 }, (_, k) => k), 'coupler row spans hand, L and R');
  // The row equals the model's own blocks.
  const ev = world.evals[c];
  const vals = Array.from(asm.J.values.slice(asm.J.rowPtr[row], asm.J.rowPtr[row + 1]));
  const expected = [...ev.JB, ...ev.JA, ...ev.JX[0]]; // column order: hand (B), L (A), R (extra)
  assert.deepEqual(vals, expected);
  // A against a dense J·M⁻¹·Jᵀ.
  const n = world.nCols, m = world.nRows;
  const Jd = Array.from({ length: m }, (_, i) => {
    const rowv = new Array(n).fill(0);
    for (let k = asm.J.rowPtr[i]; k < asm.J.rowPtr[i + 1]; k++) rowv[asm.J.colIdx[k]] = asm.J.values[k];
    return rowv;
  });
  const Minv = (i: number, j: number) => {
    const b = Math.floor(i / 6);
    if (Math.floor(j / 6) !== b) return 0;
    const li = i % 6, lj = j % 6;
    if (li < 3 || lj < 3) return li === lj && li < 3 ? asm.minvCompact[b * 10] : 0;
    return asm.minvCompact[b * 10 + 1 + (li - 3) * 3 + (lj - 3)];
  };
  let worst = 0;
  for (let i = 0; i < m; i++) {
    for (let k = asm.A.rowPtr[i]; k < asm.A.rowPtr[i + 1]; k++) {
      const j = asm.A.colIdx[k];
      let s = 0;
      for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) s += Jd[i][a] * Minv(a, b) * Jd[j][b];
      worst = Math.max(worst, Math.abs(s - asm.A.values[k]));
    }
  }
  assert.ok(worst < 1e-12, `A vs dense: ${worst}`);
  // Ċ of the coupler row = J·v.
  assert.ok(Math.abs(asm.Cdot[row] - Jd[row].reduce((s: number, x: number, k: number) => s + x * asm.v[k], 0)) < 1e-14);
  assert.equal(islandsOf(world).length, 1);
  // The pipeline solves it, and the coupling holds in acceleration: J·a = rhs.
  const res = inspectScene(text);
  assert.ok(res.snapshot);
  assert.ok(res.snapshot!.residual < 1e-9, `residual ${res.snapshot!.residual}`);
});
