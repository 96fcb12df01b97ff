// Closed loops and equality constraints from MJCF, against MuJoCo to 1e-12: a planar four-bar closed
// by a connect (one dependent row, named on the <connect> line with its coefficients; three when
// the loop is closed by a fourth hinge instead), a slider-crank, welds (relpose), joint equalities
// (couplers) and a keyframe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes } from '../../src/engine/core/codes';
import { inspectScene } from '../../src/engine/pipeline';
import { exportScene } from '../../src/import/index';
import { quatMul, quatToMat3 } from '../../src/engine/core/math';
import type { Quat, Vec3 } from '../../src/engine/types';
import { assertClose, assertRows, ballRows, checkMassProperties, hingePerpRows, importFixture, jRow, lineOf, mujocoReference, type MujocoReference, type RowSpec } from './import-helpers';

type Ref = MujocoReference;
const world = (ref: Ref, body: number, local: Vec3): Vec3 => {
  const R = ref.xmat[body], p = ref.xpos[body];
  return [0, 1, 2].map((i) => p[i] + R[i * 3] * local[0] + R[i * 3 + 1] * local[1] + R[i * 3 + 2] * local[2]) as Vec3;
};
const hingeRows = (ref: Ref, A: string, B: string, joint: string) => {
  const j = ref.jointNames.indexOf(joint);
  return [...ballRows(ref, A, B, ref.xanchor[j]), ...hingePerpRows(ref, A, B, ref.xaxis[j])];
};
/** Ball rows whose anchors differ (weld): r_A from x_A, r_B from x_B. */
function ballRows2(ref: Ref, A: string, B: string, xA: Vec3, xB: Vec3): RowSpec[] {
  const a = ballRows(ref, A, B, xA), b = ballRows(ref, A, B, xB);
  return a.map((row, i) => new Map([[A, row.get(A)!], [B, b[i].get(B)!]]));
}

test('four-bar closed by a connect: COM, M⁻¹ and rows match MuJoCo; one dependent row named on the <connect> line', async () => {
  const r = await importFixture('four-bar.xml');
  const ref = await mujocoReference('four-bar.xml');
  const snap = r.snapshot!;
  checkMassProperties(snap, ref);
  assertRows(snap, 'j_crank', hingeRows(ref, 'world', 'crank', 'j_crank'));
  assertRows(snap, 'j_coupler', hingeRows(ref, 'crank', 'coupler', 'j_coupler'));
  assertRows(snap, 'j_rocker', hingeRows(ref, 'world', 'rocker', 'j_rocker'));
  const coupler = ref.bodyNames.indexOf('coupler');
  assertRows(snap, 'close', ballRows(ref, 'coupler', 'rocker', world(ref, coupler, [1, 0, 0.2])));
  // 3 hinges (15 rows) + connect (3) = 18 rows on 18 DOFs, rank 17: the mechanism keeps 1 DOF.
  assert.deepEqual(snap.rank, { J: 17, rows: 18, dofs: 18 });
  assert.equal(snap.redundant.length, 1);
  assert.equal(snap.redundant[0].constraint, 'close');
  assert.equal(snap.redundant[0].row, 1);
  const d = r.diagnostics.find((x) => x.code === Codes.redundantConstraint)!;
  const line = lineOf(r.text, '<connect');
  assert.equal(d.range.start.line, line);
  assert.equal(r.text.split('\n')[line].slice(d.range.start.character, d.range.end.character), 'close', 'on the name attribute');
  assert.match(d.message, /close\.y = -1·j_crank\.y .*\+ 1·j_rocker\.y \+ 0\.6·j_rocker\.⊥1/);
  assert.deepEqual(d.related!.map((x) => x.range.start.line).sort(), ['j_crank', 'j_coupler', 'j_rocker'].map((n) => lineOf(r.text, `name="${n}"`)).sort());
  assert.equal(d.fixes, undefined, 'no JSON quick fixes on XML');
  assert.ok(r.diagnostics.every((x) => x.code !== Codes.initialViolation));

  // The same loop closed by a fourth hinge (edit the exported scene): three dependent rows.
  const doc = JSON.parse(exportScene({ scene: r.parse.scene! }).replace(/^\/\/.*$/gm, ''));
  const close = doc.constraints.find((c: { name: string }) => c.name === 'close');
  const Rc = quatToMat3(r.parse.scene!.bodies[1].orientation), Rr = quatToMat3(r.parse.scene!.bodies[2].orientation);
  Object.assign(close, { type: 'hinge', axisA: [Rc[3], Rc[4], Rc[5]], axisB: [Rr[3], Rr[4], Rr[5]] }); // world y in each frame
  const hinged = inspectScene(JSON.stringify(doc));
  assert.deepEqual(hinged.snapshot!.rank, { J: 17, rows: 20, dofs: 18 });
  assert.equal(hinged.snapshot!.redundant.length, 3);
});

test('slider-crank: hinge, slider and connect rows match MuJoCo; the connect has the dependent row', async () => {
  const r = await importFixture('slider-crank.xml');
  const ref = await mujocoReference('slider-crank.xml');
  const snap = r.snapshot!;
  checkMassProperties(snap, ref);
  assert.equal(r.parse.scene!.solver.dt, 0.001);
  assertRows(snap, 'crank_pin', hingeRows(ref, 'world', 'crank', 'crank_pin'));
  assertRows(snap, 'rod_pin', hingeRows(ref, 'crank', 'rod', 'rod_pin'));
  // Slider along world x from the world: ⊥ rows n = z and −y (perpendicularBasis of x), then −I on ω.
  const p = ref.xipos[ref.bodyNames.indexOf('piston')], x = ref.xanchor[ref.jointNames.indexOf('stroke')];
  const r_: Vec3 = [x[0] - p[0], x[1] - p[1], x[2] - p[2]];
  const perp = (n: Vec3) => new Map([['piston', [...n.map((v) => -v), ...[r_[1] * n[2] - r_[2] * n[1], r_[2] * n[0] - r_[0] * n[2], r_[0] * n[1] - r_[1] * n[0]].map((v) => -v)]]]);
  const ang = (i: number) => new Map([['piston', [0, 0, 0, ...[0, 1, 2].map((k) => (k === i ? -1 : 0))]]]);
  assertRows(snap, 'stroke', [perp([0, 0, 1]), perp([0, -1, 0]), ang(0), ang(1), ang(2)]);
  assertRows(snap, 'wrist_pin', ballRows(ref, 'rod', 'piston', [0.4, 0, 0]));
  assert.deepEqual(snap.rank, { J: 17, rows: 18, dofs: 18 });
  assert.deepEqual(snap.redundant.map((x) => [x.constraint, x.row]), [['wrist_pin', 1]]);
  assert.equal(r.diagnostics.find((x) => x.code === Codes.redundantConstraint)!.range.start.line, lineOf(r.text, '<connect'));
});

test('welds: anchors and relpose as MuJoCo compiles them; a relpose away from the initial pose is an initial violation on its line', async () => {
  const r = await importFixture('weld.xml');
  const ref = await mujocoReference('weld.xml');
  const snap = r.snapshot!;
  checkMassProperties(snap, ref);
  const [base, tool, cap] = ['base', 'tool', 'cap'].map((n) => ref.bodyNames.indexOf(n));
  const quatOf = (b: number): Quat => {
    // MuJoCo's body quaternion from xmat (w ≥ 0), as [x, y, z, w]
    const m = ref.xmat[b];
    const w = Math.sqrt(Math.max(0, 1 + m[0] + m[4] + m[8])) / 2;
    return [(m[7] - m[5]) / (4 * w), (m[2] - m[6]) / (4 * w), (m[3] - m[1]) / (4 * w), w];
  };
  for (const [name, b1, b2, eq] of [['mount', base, tool, 0], ['tilted', base, cap, 1]] as const) {
    const d = ref.eqData[eq];
    const xA = world(ref, b1, [d[3], d[4], d[5]]), xB = world(ref, b2, [d[0], d[1], d[2]]);
    // q_err = q1 ⊗ relpose ⊗ q2⁻¹ (world frame), hemisphere w ≥ 0: J_A = [0, sI − [v]×], J_B = [0, −(sI + [v]×)].
    const q2 = quatOf(b2);
    let e = quatMul(quatMul(quatOf(b1), [d[7], d[8], d[9], d[6]]), [-q2[0], -q2[1], -q2[2], q2[3]]);
    if (e[3] < 0) e = e.map((x) => -x) as Quat;
    const [vx, vy, vz, s] = e;
    const skew = [[0, -vz, vy], [vz, 0, -vx], [-vy, vx, 0]];
    const angRows = [0, 1, 2].map((i) => new Map([
      [ref.bodyNames[b1], [0, 0, 0, ...[0, 1, 2].map((k) => (i === k ? s : 0) - skew[i][k])]],
      [ref.bodyNames[b2], [0, 0, 0, ...[0, 1, 2].map((k) => -((i === k ? s : 0) + skew[i][k]))]],
    ]));
    assertRows(snap, name, [...ballRows2(ref, ref.bodyNames[b1], ref.bodyNames[b2], xA, xB), ...angRows]);
    // C matches MuJoCo's efc_pos: position rows equal, rotation ours = (2/torquescale)·R₂·(MuJoCo's).
    const c = snap.constraints.find((x) => x.name === name)!;
    const mj = ref.efc.filter((x) => x.id === eq).map((x) => x.pos);
    const R2 = ref.xmat[b2];
    const rot = [0, 1, 2].map((i) => (2 / d[10]) * (R2[i * 3] * mj[3] + R2[i * 3 + 1] * mj[4] + R2[i * 3 + 2] * mj[5]));
    assertClose(Array.from(snap.C.slice(c.firstRow, c.firstRow + 6)), [...mj.slice(0, 3), ...rot], `${name} C vs MuJoCo efc_pos`);
  }
  assert.ok(snap.constraints.find((x) => x.name === 'mount')!.violation < 1e-15);
  const d = r.diagnostics.find((x) => x.code === Codes.initialViolation)!;
  assert.equal(d.range.start.line, lineOf(r.text, 'name="tilted"'));
  assert.ok(Math.abs(d.data!.violation as number - 2 * Math.sin(0.1)) < 1e-12, 'the relpose is 0.2 rad about x away: |C| = 2 sin(0.1)');
});

test('joint equalities → couplers, from a keyframe: C and Ċ equal MuJoCo\'s efc_pos and efc_vel; rows analytic; diagnostics on their lines', async () => {
  const r = await importFixture('joint-equality.xml', { keyframe: 'tilted' });
  const ref = await mujocoReference('joint-equality.xml', 'tilted');
  const snap = r.snapshot!;
  // The keyframe state: positions and velocities of the centres of mass.
  checkMassProperties(snap, ref);
  for (const b of snap.bodyStates) {
    const k = ref.bodyNames.indexOf(b.name);
    assertClose([...b.angularVelocity, ...b.velocity], ref.comVel[k], `${b.name} velocity`);
  }
  const gear = snap.constraints.find((c) => c.name === 'gear')!, screw = snap.constraints.find((c) => c.name === 'screw')!;
  assert.equal(gear.type, 'coupler');
  const mj = (eq: number) => ref.efc.find((x) => x.id === eq)!;
  assertClose([snap.C[gear.firstRow], snap.Cdot[gear.firstRow]], [mj(0).pos, mj(0).vel], 'gear C, Ċ');
  assertClose([snap.C[screw.firstRow], snap.Cdot[screw.firstRow]], [mj(1).pos, mj(1).vel], 'screw C, Ċ');
  assertClose([snap.C[gear.firstRow]], [0.2 - (0.05 - 2 * 0.3 + 0.3 * 0.09)], 'gear C by hand');
  // Rows: hinge coordinates turn about MuJoCo's axes (a pure twist: G = axis); P′(q_b) = c₁ + 2c₂q_b.
  const ax = (j: string) => ref.xaxis[ref.jointNames.indexOf(j)];
  const dP = -2 + 2 * 0.3 * 0.3;
  assertRows(snap, 'gear', [new Map([['left', [0, 0, 0, ...ax('a')]], ['right', [0, 0, 0, ...ax('b').map((v) => -dP * v)]]])]);
  const n = ax('s'), D = [0, 1, 2].map((i) => ref.xipos[ref.bodyNames.indexOf('nut')][i] - ref.xipos[ref.bodyNames.indexOf('right')][i]);
  const nxD = [n[1] * D[2] - n[2] * D[1], n[2] * D[0] - n[0] * D[2], n[0] * D[1] - n[1] * D[0]];
  assertRows(snap, 'screw', [new Map([['nut', [...n, 0, 0, 0]], ['right', [...n.map((v) => -v), ...nxD.map((v, i) => v - 0.1 * ax('b')[i])]]])]);
  assert.equal(r.parse.scene!.constraints.find((c) => c.name === 'screw')!.coupling!.joints[0].initial, 0.05);
  // Both start violated (the key does not satisfy them): CL304 on each <joint> equality's name.
  const viol = r.diagnostics.filter((x) => x.code === Codes.initialViolation);
  assert.deepEqual(viol.map((x) => x.range.start.line), [lineOf(r.text, 'name="gear"'), lineOf(r.text, 'name="screw"')]);
  // Another row of J sees the coupler's extra end: the screw row has columns of nut and right only.
  const row = jRow(snap, screw.firstRow);
  assert.deepEqual(row.slice(0, 6), [0, 0, 0, 0, 0, 0], 'left is not involved');
});

test('keyframes: qpos0 by default, a key by name, an unknown key is an error on <keyframe> and falls back to qpos0', async () => {
  const rest = await importFixture('joint-equality.xml');
  const ref0 = await mujocoReference('joint-equality.xml');
  checkMassProperties(rest.snapshot!, ref0);
  assert.ok(rest.snapshot!.bodyStates.every((b) => b.velocity.every((v) => v === 0)));
  // At qpos0 the gear's offset c₀ = 0.05 is violated (as in MuJoCo); the screw holds.
  assert.deepEqual(rest.diagnostics.filter((d) => d.code === Codes.initialViolation).map((d) => [d.data!.constraint, d.data!.violation]), [['gear', 0.05]]);
  const bad = await importFixture('joint-equality.xml', { keyframe: 'tilt' });
  const d = bad.diagnostics.find((x) => x.code === Codes.unknownKeyframe)!;
  assert.equal(d.severity, 'error');
  assert.match(d.message, /No <key> named "tilt" \(keys: rest, tilted\)/);
  assert.equal(d.range.start.line, lineOf(bad.text, '<keyframe>'));
  checkMassProperties(bad.snapshot!, ref0);
  assert.equal(bad.parse.model?.keyframe, undefined, 'the keyframe in use is qpos0');
});

test('defaultKeyframe (the extension\'s setting): used when the model has that key, silently qpos0 otherwise; an explicit keyframe wins', async () => {
  const refTilted = await mujocoReference('joint-equality.xml', 'tilted');
  const ref0 = await mujocoReference('joint-equality.xml');
  const byDefault = await importFixture('joint-equality.xml', { defaultKeyframe: 'tilted' });
  assert.equal(byDefault.parse.model?.keyframe, 'tilted');
  checkMassProperties(byDefault.snapshot!, refTilted);
  const missing = await importFixture('joint-equality.xml', { defaultKeyframe: 'nope' });
  assert.equal(missing.parse.model?.keyframe, undefined);
  assert.ok(!missing.diagnostics.some((x) => x.code === Codes.unknownKeyframe), 'no error for a setting the model does not use');
  checkMassProperties(missing.snapshot!, ref0);
  const explicit = await importFixture('joint-equality.xml', { keyframe: 'rest', defaultKeyframe: 'tilted' });
  assert.equal(explicit.parse.model?.keyframe, 'rest');
  // The URDF has no keys: the setting changes nothing.
  const urdf = await importFixture('arm-gripper.urdf', { defaultKeyframe: 'tilted' });
  assert.equal(urdf.parse.model?.keyframe, undefined);
  assert.ok(!urdf.diagnostics.some((x) => x.code === Codes.unknownKeyframe));
});
