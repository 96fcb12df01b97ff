// The joint chain (model/chain.ts): C = 0 at every state the joints reach, far from the initial one,
// with full row rank there; the number of rows per pattern; the scene format (CL210); and the motion
// of public models whose joints only a chain represents, against MuJoCo (joints only, no contacts),
// converging to it at first order in dt. FD checks of J and J̇v: constraints.test.ts (every type).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Quat, Vec3 } from '../../src/engine/types';
import type { ChainJointSpec, ConstraintSpec } from '../../src/engine/scene/spec';
import { quatFromRotationVector, quatMul, quatNormalize, quatToMat3, mat3MulVec } from '../../src/engine/core/math';
import { makeEval, type Pose } from '../../src/engine/model/constraint';
import { ChainConstraint } from '../../src/engine/model/chain';
import { middleBranch } from '../../src/engine/model/hingeGroup';
import { Codes, parseScene } from '../../src/engine/index';
import { compareWithMujoco, loadModel, nodeFileAccess } from '../../src/import/index';
import { rng as prng } from './linalg-fixtures';
import { CHAIN_SHAPES, randomChain } from './chain-helpers';
import { FIXTURES } from './import-helpers';

type Rng = () => number;
const gauss = (rng: Rng): number => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
const rvec = (rng: Rng, s: number): Vec3 => [s * (2 * rng() - 1), s * (2 * rng() - 1), s * (2 * rng() - 1)];
const rquat = (rng: Rng): Quat => quatNormalize([gauss(rng), gauss(rng), gauss(rng), gauss(rng)]);
const pose = (p: Vec3, q: Quat): Pose => ({ p, q, R: quatToMat3(q), v: [0, 0, 0], w: [0, 0, 0] });
const conj = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

interface Rigid {
  q: Quat;
  p: Vec3;
}
const compose = (x: Rigid, y: Rigid): Rigid => ({ q: quatMul(x.q, y.q), p: add(x.p, mat3MulVec(quatToMat3(x.q), y.p)) });

/** The pose of B when the joints (given in A's frame at the reference) take the values `qs`: e^{ξ₁q₁}⋯e^{ξₙqₙ}·T₀. */
function reach(joints: readonly ChainJointSpec[], qs: readonly number[], a: Pose, a0: Pose, b0: Pose): Pose {
  let T: Rigid = { q: [0, 0, 0, 1], p: [0, 0, 0] };
  joints.forEach((j, k) => {
    const th = qs[k];
    if (j.type === 'slider') T = compose(T, { q: [0, 0, 0, 1], p: [j.axis[0] * th, j.axis[1] * th, j.axis[2] * th] });
    else {
      const q = quatFromRotationVector([j.axis[0] * th, j.axis[1] * th, j.axis[2] * th]);
      T = compose(T, { q, p: sub(j.anchor, mat3MulVec(quatToMat3(q), j.anchor)) });
    }
  });
  const rel0: Rigid = { q: quatMul(conj(a0.q), b0.q), p: mat3MulVec(quatToMat3(conj(a0.q)), sub(b0.p, a0.p)) };
  const b = compose({ q: a.q, p: a.p }, compose(T, rel0));
  return pose(b.p, quatNormalize(b.q));
}

const spec = (chain: ChainJointSpec[]): ConstraintSpec => ({ index: 0, name: 'chain0', type: 'chain', bodyA: 'A', bodyB: 'B', anchorA: [0, 0, 0], anchorB: [0, 0, 0], chain });

/** Rank of the rows [JA | JB] by Gram–Schmidt with a relative tolerance. */
function rank(JA: Float64Array, JB: Float64Array, rows: number): number {
  const basis: number[][] = [];
  for (let i = 0; i < rows; i++) {
    let r = [...JA.slice(i * 6, i * 6 + 6), ...JB.slice(i * 6, i * 6 + 6)];
    const n0 = Math.hypot(...r);
    for (const e of basis) {
      const d = r.reduce((s, x, k) => s + x * e[k], 0);
      r = r.map((x, k) => x - d * e[k]);
    }
    const n = Math.hypot(...r);
    if (n > 1e-6 * Math.max(1, n0)) basis.push(r.map((x) => x / n));
  }
  return basis.length;
}

test('chain: C = 0 and J has full row rank at states the joints reach far from the initial one (every pattern)', () => {
  const rng = prng(20);
  for (const shape of CHAIN_SHAPES) {
    for (let k = 0; k < 20; k++) {
      const joints = randomChain(rng, shape);
      const a0 = pose(rvec(rng, 2), rquat(rng)), b0 = pose(rvec(rng, 2), rquat(rng));
      const m = new ChainConstraint(spec(joints), a0, b0);
      assert.notEqual(m.pattern.kind, 'error', shape);
      const a = pose(rvec(rng, 2), rquat(rng));
      // three hinges: the middle angle on the root of its equation that the initial state is on (the
      // other root reaches the same rotation by other angles and another translation)
      let qs = joints.map(() => 3 * (2 * rng() - 1));
      const hinges = joints.flatMap((j, k) => (j.type === 'hinge' ? [k] : []));
      const axes = hinges.map((k) => joints[k].axis);
      while (shape.startsWith('r') && middleBranch(axes, qs[hinges[1]]) !== middleBranch(axes, 0)) qs = joints.map(() => 3 * (2 * rng() - 1));
      const b = reach(joints, qs, a, a0, b0);
      const out = makeEval(m.rows);
      m.evaluate(a, b, out);
      const worst = Math.max(...Array.from(out.C, Math.abs));
      assert.ok(worst < 1e-11, `${shape}: |C| = ${worst} on the chain's motion`);
      assert.equal(rank(out.JA, out.JB, m.rows), m.rows, `${shape}: rows dependent`);
      // A motion the chain does not allow is seen: B displaced along a constrained direction.
      const off = pose(add(b.p, [1e-3 * gauss(rng), 1e-3 * gauss(rng), 1e-3 * gauss(rng)]), quatNormalize(quatMul(quatFromRotationVector(rvec(rng, 1e-3)), b.q)));
      m.evaluate(a, off, out);
      assert.ok(Math.max(...Array.from(out.C, Math.abs)) > 1e-6, `${shape}: a generic displacement leaves C = 0`);
    }
  }
});

test('chain: rows per pattern = 6 − (motion the joints allow); labels', () => {
  const id = pose([0, 0, 0], [0, 0, 0, 1]);
  const rows = (joints: ChainJointSpec[]) => {
    const m = new ChainConstraint(spec(joints), id, id);
    return [m.rows, m.rowLabels.join(' ')];
  };
  const h = (axis: Vec3, anchor: Vec3 = [0, 0, 0]): ChainJointSpec => ({ type: 'hinge', axis, anchor });
  const s = (axis: Vec3): ChainJointSpec => ({ type: 'slider', axis, anchor: [0, 0, 0] });
  // A planar root (hopper, walker2d, cheetah): slide x, slide z, hinge y.
  assert.deepEqual(rows([s([1, 0, 0]), s([0, 0, 1]), h([0, 1, 0])]), [3, '⊥1 ⊥2 a']);
  // Reacher's target: two slides.
  assert.deepEqual(rows([s([1, 0, 0]), s([0, 1, 0])]), [4, 'θx θy θz n1']);
  assert.deepEqual(rows([s([1, 0, 0]), s([0, 1, 0]), s([0, 0, 1])]), [3, 'θx θy θz']);
  // Cylindrical: a hinge and a slide along its axis.
  assert.deepEqual(rows([h([0, 0, 1], [1, 0, 0]), s([0, 0, 1])]), [4, '⊥1 ⊥2 e1 e2']);
  // Two parallel hinges (a planar two-link), slide-then-hinge, hinge-then-slide.
  assert.deepEqual(rows([h([0, 0, 1]), h([0, 0, 1], [1, 0, 0])]), [4, '⊥1 ⊥2 a ρ']);
  assert.deepEqual(rows([s([1, 0, 0]), h([0, 0, 1])]), [4, '⊥1 ⊥2 a ℓ']);
  assert.deepEqual(rows([h([0, 0, 1]), s([1, 0, 0])]), [4, '⊥1 ⊥2 a ℓ']);
  // MuJoCo's humanoid ankle: two hinges whose axes miss by 1.8 cm.
  assert.deepEqual(rows([h([1, 0, 0], [0, 0, 0]), h([0, 1, 0], [0, 0, 0.018])]), [4, '∠ h t m']);
  // dm_control's dog's scapula: three hinges whose axes miss, every rotation allowed.
  assert.deepEqual(rows([h([0, 0, 1], [-0.03, -0.02, 0]), h([1, 0, 0], [0, -0.05, -0.07]), h([0.3, 1, 0], [0, 0, 0])]), [3, 'x y z']);
  // ... with one or two slides among the hinges
  assert.deepEqual(rows([h([0, 0, 1], [-0.03, -0.02, 0]), s([1, 0, 0]), h([1, 0, 0], [0, -0.05, -0.07]), h([0.3, 1, 0], [0, 0, 0])]), [2, 'n1 n2']);
  assert.deepEqual(rows([s([0, 0, 1]), h([0, 0, 1], [-0.03, -0.02, 0]), h([1, 0, 0], [0, -0.05, -0.07]), s([1, 0, 0]), h([0.3, 1, 0], [0, 0, 0])]), [1, 'n1']);
});

test('chain in a scene: parsed with its joints (three hinges whose axes miss among them); CL210 on `joints` for a chain without a closed form; CL205 on a zero axis', () => {
  const scene = (joints: unknown) =>
    JSON.stringify({ bodies: [{ name: 'B', mass: 1, position: [0, 0, 1] }], constraints: [{ type: 'chain', bodyA: 'world', bodyB: 'B', joints }] }, null, 1);
  const ok = parseScene(scene([{ type: 'slider', axis: [2, 0, 0] }, { type: 'slider', axis: [0, 0, 1] }, { type: 'hinge', axis: [0, 1, 0], anchor: [0, 0, 1], name: 'rooty' }]));
  assert.deepEqual(ok.diagnostics, []);
  assert.deepEqual(ok.scene!.constraints[0].chain, [
    { type: 'slider', axis: [1, 0, 0], anchor: [0, 0, 0] },
    { type: 'slider', axis: [0, 0, 1], anchor: [0, 0, 0] },
    { type: 'hinge', axis: [0, 1, 0], anchor: [0, 0, 1], name: 'rooty' },
  ]);
  const text = scene([{ type: 'hinge', axis: [1, 0, 0] }, { type: 'hinge', axis: [0, 1, 0] }, { type: 'slider', axis: [0, 0, 1] }]);
  const bad = parseScene(text);
  assert.deepEqual(bad.diagnostics.map((d) => d.code), [Codes.degenerateChain]);
  assert.equal(bad.diagnostics[0].range.start.line, text.split('\n').findIndex((l) => l.includes('"joints"')));
  assert.equal(bad.scene!.constraints.length, 0);
  // three hinges whose axes span space and miss each other, with a drive and limits on one of them
  const three = parseScene(scene([
    { type: 'hinge', axis: [0, 0, 1], anchor: [-0.03, -0.02, 0], name: 'supinate' },
    { type: 'hinge', axis: [1, 0, 0], anchor: [0, -0.05, -0.07], name: 'abduct', limits: [-0.26, 0.35], damping: 1.5 },
    { type: 'hinge', axis: [0.3, 1, 0], name: 'extend' },
  ]));
  // the acceleration formulation (the default here) leaves the limit out, and says which
  assert.deepEqual(three.diagnostics.map((d) => d.code), [Codes.jointRowsNotSolved]);
  assert.match(three.diagnostics[0].message, /does not solve joint limits: constraint `chain0`/);
  assert.equal(three.scene!.constraints[0].chain!.length, 3);
  assert.deepEqual(three.scene!.constraints[0].chain![1].limits, [-0.26, 0.35]);
  // three hinges in one plane have no closed form
  const flat = parseScene(scene([{ type: 'hinge', axis: [1, 0, 0] }, { type: 'hinge', axis: [0, 1, 0], anchor: [0, 0, 0.1] }, { type: 'hinge', axis: [1, 1, 0] }]));
  assert.deepEqual(flat.diagnostics.map((d) => d.code), [Codes.degenerateChain]);
  assert.match(flat.diagnostics[0].message, /lie in one plane/);
  const zero = parseScene(scene([{ type: 'hinge', axis: [0, 0, 0] }]));
  assert.deepEqual(zero.diagnostics.map((d) => d.code), [Codes.zeroAxis]);
  const missing = parseScene(JSON.stringify({ bodies: [{ name: 'B', mass: 1 }], constraints: [{ type: 'chain', bodyA: 'world', bodyB: 'B' }] }));
  assert.deepEqual(missing.diagnostics.map((d) => d.code), [Codes.missingField]);
});

/** The model with its joints only: no actuators, limits, damping, armature or stiffness; contacts off; Euler at dt; a key with velocities. */
function jointsOnly(text: string, qvel: string, dt: number): string {
  let t = text.replace(/<actuator>[\s\S]*?<\/actuator>/, '').replace(/<tendon>[\s\S]*?<\/tendon>/, '').replace(/<keyframe>[\s\S]*?<\/keyframe>/, '');
  t = t.replace(/<(joint|default|motor)\b[^>]*>/g, (tag) => tag.replace(/\s(armature|damping|stiffness|limited|range|frictionloss)="[^"]*"/g, ''));
  t = t.replace(/<option\b[^>]*\/>/, '').replace(/<option\b[^>]*>[\s\S]*?<\/option>/, '');
  return t.replace(/(<mujoco[^>]*>)/, `$1<option timestep="${dt}"><flag contact="disable"/></option><keyframe><key name="swing" qvel="${qvel}"/></keyframe>`);
}

async function worstDistance(name: string, qvel: string, dt: number): Promise<number> {
  const dir = join(FIXTURES, 'public', name);
  const path = join(dir, `${name}.xml`);
  const r = await loadModel(path, jointsOnly(readFileSync(path, 'utf8'), qvel, dt), { files: nodeFileAccess(dir), keyframe: 'swing' });
  assert.ok(!r.diagnostics.some((d) => d.code === Codes.unsupportedJoint || d.severity === 'error'), JSON.stringify(r.diagnostics.filter((d) => d.severity === 'error')));
  assert.ok(r.scene!.constraints.some((c) => c.type === 'chain'), 'no chain constraint');
  const c = await compareWithMujoco(r, Math.round(0.1 / dt));
  assert.equal(c.stoppedAt, undefined);
  return Math.max(...c.bodies.map((b) => b.distance));
}

const humanoidQvel = Array.from({ length: 27 }, (_, k) => ((k * 37) % 17) / 4 - 2).join(' ');
for (const [name, qvel] of [
  ['hopper', '0.5 1 2 -3 4 -5'],
  ['reacher', '2 -3 0.5 -0.7'],
  ['humanoid', humanoidQvel],
] as const) {
  test(`chain: ${name} (joints only, no contacts) follows MuJoCo, converging at first order in dt`, async () => {
    const coarse = await worstDistance(name, qvel, 0.002);
    const fine = await worstDistance(name, qvel, 0.0005);
    // Semi-implicit Euler in maximal coordinates against MuJoCo's Euler in joint coordinates: O(dt).
    assert.ok(fine < 3e-4, `${name}: ${fine} m from MuJoCo after 0.1 s at dt = 0.0005`);
    assert.ok(coarse / fine > 3 && coarse / fine < 5.5, `${name}: error ratio ${coarse / fine} for dt / 4 (${coarse} → ${fine})`);
  });
}
