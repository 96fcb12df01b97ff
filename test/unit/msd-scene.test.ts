// Quaternion coordinates (`solver.coordinates: "quaternion"`, msd-sim's Lagrange framework) through the
// engine's public path: the scene option (CL005 on a wrong value), `inspectScene` (7 labelled columns
// per body, the unit-quaternion rows as constraints, msd-sim's M⁻¹, A, b, λ, κ), CL117 for what the
// framework does not model, `simulateScene` (records, snapshots replayed exactly) and closed forms of
// a run: a free body keeps |Q| = 1 and its ω; a pendulum at rest hangs with λ = −m·g/(2d).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Codes, csrToDense, inspectScene, parseScene, simulateScene } from '../../src/engine';
import { inspectJson } from '../../src/cli/json';

const close = (a: number, b: number, tol = 1e-12, what = ''): void => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const scene = (o: Record<string, unknown>): string => JSON.stringify({ solver: { dt: 0.01, steps: 10, alpha: 10, beta: 10, coordinates: 'quaternion' }, ...o });

test('solver.coordinates: "twist" by default, "quaternion" read, anything else CL005 with its range', () => {
  assert.equal(parseScene('{ "bodies": [] }').scene!.solver.coordinates, 'twist');
  assert.equal(parseScene('{ "solver": { "coordinates": "quaternion" }, "bodies": [] }').scene!.solver.coordinates, 'quaternion');
  const text = '{ "solver": { "coordinates": "quaternions" }, "bodies": [] }';
  const r = parseScene(text);
  assert.deepEqual(r.diagnostics.map((d) => d.code), [Codes.invalidValue]);
  const at = text.indexOf('"quaternions"');
  assert.deepEqual(r.diagnostics[0].range, { start: { line: 0, character: at }, end: { line: 0, character: at + '"quaternions"'.length } });
  assert.equal(r.scene!.solver.coordinates, 'twist');
});

test('examples/msd-tether: J with 7 labelled columns, the unit-quaternion row named as a constraint, msd-sim\'s M⁻¹ and A, κ = 10/2.4', () => {
  const r = inspectScene(readFileSync('examples/msd-tether.scene.json', 'utf8'));
  assert.deepEqual(r.diagnostics, []);
  const s = r.snapshot!;
  assert.deepEqual(s.columnLabels, ['Cube.x', 'Cube.y', 'Cube.z', 'Cube.qw', 'Cube.qx', 'Cube.qy', 'Cube.qz']);
  assert.deepEqual(s.rows.map((x) => x.label), ['Cube.QᵀQ−1', 'tether.|Δ|²−d²']);
  assert.deepEqual(s.constraints.map((c) => [c.name, c.type]), [['Cube unit quaternion', 'unit-quaternion'], ['tether', 'distance']]);
  assert.deepEqual(csrToDense(s.J), [[0, 0, 0, 2, 0, 0, 0], [10, 0, 0, 0, 0, 0, 0]]);
  const Minv = csrToDense(s.Minv!);
  const I = 1 / 1.6666666666666667;
  [0.1, 0.1, 0.1, I, I, I, 1].forEach((x, i) => close(Minv[i][i], x, 1e-15, `M⁻¹(${i}, ${i})`));
  assert.equal(s.Minv!.values.length, 7);
  const A = csrToDense(s.A!);
  [[4 * I, 0], [0, 10]].forEach((row, i) => row.forEach((x, j) => close(A[i][j], x, 1e-15, `A(${i}, ${j})`)));
  close(s.cond.A!, 10 / (4 * I), 1e-12, 'κ');
  assert.deepEqual(s.rank, { J: 2, rows: 2, dofs: 7 });
  assert.equal(s.producer?.name, 'msd-sim');
  // F = [m·g, τ, 0]: 10·(−9.81)
  assert.deepEqual(Array.from(s.F), [0, 0, 10 * -9.81, 0, 0, 0, 0]);
});

test('inspect: a hanging body at rest, λ = −m·g/(2d) on the distance row and 0 on the unit quaternion', () => {
  const m = 3, d = 2, g = 9.81;
  const r = inspectScene(scene({ bodies: [{ name: 'Bob', mass: m, inertia: [0.1, 0.2, 0.3], position: [0, 0, -d] }], constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'Bob', length: d }] }));
  const s = r.snapshot!;
  close(s.lambda[1], (-m * g) / (2 * d), 1e-14, 'λ');
  assert.equal(Math.abs(s.lambda[0]), 0);
  close(s.constraints[1].forceB[2], m * g, 1e-14, 'F_c on Bob');
  close(s.a[2], 0, 1e-14, 'a_z = (F + F_c)/m');
});

test('CL117: a hinge, an offset anchor and shapes are left out of quaternion coordinates, each on its own range', () => {
  const text = scene({
    bodies: [{ name: 'A', mass: 1, inertia: [1, 1, 1], position: [0, 0, -1], shapes: [{ type: 'sphere', radius: 0.1 }] }, { name: 'B', mass: 1, inertia: [1, 1, 1], position: [1, 0, -1] }],
    constraints: [
      { name: 'h', type: 'hinge', bodyA: 'world', bodyB: 'A', anchorA: [0, 0, 0], anchorB: [0, 0, 1] },
      { name: 'off', type: 'distance', bodyA: 'A', bodyB: 'B', anchorA: [0.1, 0, 0], length: 1 },
      { name: 'ok', type: 'distance', bodyA: 'A', bodyB: 'B', length: 1 },
    ],
  });
  const r = inspectScene(text);
  const q = r.diagnostics.filter((d) => d.code === Codes.quaternionCoordinates);
  assert.equal(q.length, 3);
  const at = (needle: string) => text.indexOf(needle);
  assert.ok(q.some((d) => d.message.includes('"h"') && d.range.start.character === at('"h"')));
  assert.ok(q.some((d) => d.message.includes('"off"') && d.range.start.character === at('"off"')));
  assert.ok(q.some((d) => d.message.includes('shape') && d.range.start.character === at('"quaternion"')));
  assert.ok(q.every((d) => d.severity === 'warning'));
  const s = r.snapshot!;
  assert.deepEqual(s.constraints.map((c) => c.name), ['A unit quaternion', 'B unit quaternion', 'ok']);
  assert.equal(s.columnLabels.length, 14);
  // the two-body distance row: J_A = 2Δ, J_B = −2Δ with Δ = X_A − X_B = (−1, 0, 0)
  assert.deepEqual(csrToDense(s.J)[2], [-2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]);
});

test('a redundant pair of distance rows: rank 2 of 3, the LLT fails, no constraint force (msd-sim\'s converged = false)', () => {
  const r = inspectScene(scene({
    bodies: [{ name: 'P', mass: 1, inertia: [1, 1, 1], position: [3, 4, 0] }],
    constraints: [{ name: 'r1', type: 'distance', bodyA: 'world', bodyB: 'P', length: 5 }, { name: 'r2', type: 'distance', bodyA: 'world', bodyB: 'P', length: 5 }],
  }));
  const s = r.snapshot!;
  assert.equal(s.rank.J, 2);
  assert.equal(s.cond.A, null);
  assert.equal(s.method, 'none');
  assert.deepEqual(Array.from(s.lambda, Math.abs), [0, 0, 0]);
  assert.ok(s.redundant.some((x) => x.constraint === 'r2'));
  assert.ok(r.diagnostics.some((d) => d.code === Codes.redundantConstraint && d.message.includes('r2')));
});

test('simulate: a free body spinning about z keeps |Q| = 1, and with α = β = 0 its ω follows msd-sim\'s step in closed form', () => {
  const body = { name: 'S', mass: 2, inertia: [0.5, 0.5, 0.5], position: [0, 0, 0], angularVelocity: [0, 0, 1.5] };
  const dt = 0.01, w0 = 1.5, steps = 200;
  const free = simulateScene(JSON.stringify({ solver: { dt, alpha: 0, beta: 0, coordinates: 'quaternion' }, gravity: [0, 0, 0], bodies: [body] }), steps).result!;
  // ω = 2·Q̄_new ⊗ Q̇_old with Q̇ computed before Q moves by the half-angle atan(ω·dt/2): each step
  // ω ← ω / √(1 + (ω·dt/2)²), and the final state's ω (from its Q and Q̇) has had it 200 times; the
  // rotation stays about z
  let w = w0;
  for (let k = 0; k < steps; k++) {
    const f = free.steps[k];
    close(Math.hypot(...f.poses.slice(3)), 1, 1e-15, `|Q| at ${k + 1}`);
    assert.equal(Math.abs(f.lambda[0]), 0);
    w = w / Math.sqrt(1 + ((w * dt) / 2) ** 2);
  }
  close(free.final.bodies[0].angularVelocity[2], w, 1e-12, 'ω_z');
  assert.equal(Math.hypot(free.final.bodies[0].angularVelocity[0], free.final.bodies[0].angularVelocity[1]), 0);
  // msd-sim's gains (α = β = 10): Ċ = J·q̇ pairs J's (w, x, y, z) columns with Q̇'s stored (x, y, z, w), which
  // is 2·Q_z·Q̇_w ≠ 0 once Q_z ≠ 0 — a unit-quaternion force from the third step on turns ω off the z axis
  const held = simulateScene(JSON.stringify({ solver: { dt, alpha: 10, beta: 10, coordinates: 'quaternion' }, gravity: [0, 0, 0], bodies: [body] }), steps).result!;
  assert.equal(Math.abs(held.steps[1].lambda[0]), 0);
  assert.notEqual(held.steps[2].lambda[0], 0);
  close(Math.hypot(...held.final.bodies[0].orientation), 1, 1e-15, '|Q|');
  const wf = held.final.bodies[0].angularVelocity;
  assert.ok(Math.hypot(wf[0], wf[1]) > 0.1, `ω = ${wf}`);
});

test('simulate: records carry C, λ, κ and poses; snapshotAt(k) replays the run exactly', () => {
  const out = simulateScene(readFileSync('examples/msd-tether.scene.json', 'utf8'), 150);
  const sim = out.simulation!;
  const recs = out.result!.steps;
  assert.equal(recs.length, 150);
  assert.equal(recs[0].poses.length, 7);
  assert.equal(recs[0].C.length, 2);
  for (const k of [1, 63, 64, 65, 130, 150]) {
    const snap = sim.snapshotAt(k);
    assert.equal(snap.step, k);
    // the snapshot's state is the record's pose after step k
    const pose = recs[k - 1].poses;
    close(snap.C[1], recs[k - 1].C[1], 1e-15, `C at ${k}`);
    close(Math.sqrt(snap.C[1] + 25), Math.hypot(pose[0], pose[1], pose[2]), 1e-12, `|X| at ${k}`);
  }
  // msd-sim's b has no −J̇·q̇: the tether drifts outwards as the cube swings (2|Ẋ|² is left out),
  // reported once (CL402) on the tether, never on the unit quaternion the normalisation holds
  assert.ok(recs[149].C[1] > 1, `C = ${recs[149].C[1]}`);
  const drift = out.result!.diagnostics.filter((d) => d.code === Codes.drift);
  assert.equal(drift.length, 1);
  assert.equal(drift[0].data?.constraint, 'tether');
  const first = recs.findIndex((r) => r.C[1] > 1e-3);
  assert.equal(drift[0].data?.step, first + 1);
  sim.reset();
  assert.equal(sim.currentStep, 0);
  sim.step(3);
  assert.deepEqual(sim.records[2].poses, recs[2].poses);
});

test('extreme values in quaternion coordinates: a snapshot or CL401, never an exception or an internal error', () => {
  const cases = [
    { position: [1e150, 0, 0], mass: 1 },
    { position: [1e100, 1e100, 0], mass: 1e-140 },
    { position: [0, 0, -1], mass: 1e-150, velocity: [1e150, 0, 0] },
    { position: [0, 0, -1], mass: 1, angularVelocity: [1e150, 1e150, 0] },
  ];
  for (const c of cases) {
    const text = scene({ bodies: [{ name: 'P', inertia: [1, 1, 1], ...c }], constraints: [{ name: 'r', type: 'distance', bodyA: 'world', bodyB: 'P', length: 1 }] });
    const out = simulateScene(text, 50);
    const codes = out.inspect.diagnostics.map((d) => d.code);
    assert.ok(!codes.includes(Codes.internalError), JSON.stringify(c));
    assert.ok(out.inspect.snapshot || codes.includes(Codes.nonFinite), `${JSON.stringify(c)}: ${codes}`);
    for (const s of out.result?.steps ?? []) assert.ok(s.C.every((x) => Number.isFinite(x)) && s.lambda.every((x) => Number.isFinite(x)));
    if (out.simulation) out.simulation.snapshotAt(out.simulation.currentStep);
  }
});

test('inspect --json in quaternion coordinates: producer msd-sim, the 7 column labels, J, A, λ, κ and rank', () => {
  const r = inspectScene(readFileSync('examples/msd-tether.scene.json', 'utf8'));
  const j = JSON.parse(inspectJson(r.snapshot, r.diagnostics));
  assert.deepEqual(j.producer, { kind: 'engine', name: 'msd-sim', method: 'llt' });
  assert.deepEqual(j.columns, ['Cube.x', 'Cube.y', 'Cube.z', 'Cube.qw', 'Cube.qx', 'Cube.qy', 'Cube.qz']);
  assert.deepEqual(j.bodies, []);
  assert.deepEqual(j.rows, [{ constraint: 'Cube unit quaternion', row: 0 }, { constraint: 'tether', row: 0 }]);
  assert.deepEqual(j.J, [[0, 0, 0, 2, 0, 0, 0], [10, 0, 0, 0, 0, 0, 0]]);
  assert.equal(j.Minv.length, 7);
  assert.equal(j.rank.J, 2);
  assert.equal(j.method, 'cholesky');
  close(j.cond.A, 10 / 2.4, 1e-12, 'κ');
  assert.deepEqual(j.lambda.map(Math.abs), [0, 0]);
});
