// AerisLab's current stabilisation, `stabilization: "aerislab-oscillator"`: assemble_system in
// src/aerislab/core/solver.py since its "standard Baumgarte" change writes
//   rhs = −J̇v − 2α·(J·v) − β²·C      (the error obeys C̈ + 2α·Ċ + β²·C = 0, critically damped at α = β)
// where the seed notebook's rule (`"aerislab"`, the default) is rhs = −(1 + β)·J·v − α·C. Both on the
// seed's two-body rod (examples/horizontal-rod.scene.json) moved off its constraint and set moving.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, recurrenceOf, stableGains, stableRanges } from '../../src/engine';

const seed = JSON.parse(
  readFileSync(join(__dirname, '../../examples/horizontal-rod.scene.json'), 'utf8')
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('//'))
    .join('\n'),
);

function close(actual: number, expected: number, what: string) {
  assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.abs(expected), `${what}: ${actual} vs ${expected}`);
}

test('the seed rod off its constraint: rhs = −J̇v − 2α·Ċ − β²·C (AerisLab now) and −(1 + β)·Ċ − α·C (the seed notebook), to 1e-12', () => {
  const pA = [0.1, -0.05, 0.02], pB = [2.1, 0.2, 0.3];
  const vA = [0.3, 0.1, -0.2], vB = [-0.4, 0.5, 0.25];
  const { alpha, beta } = seed.solver; // 5 and 1, as the seed
  const scene = (stabilization: string) => {
    const s = structuredClone(seed);
    s.solver.stabilization = stabilization;
    Object.assign(s.bodies[0], { position: pA, velocity: vA });
    Object.assign(s.bodies[1], { position: pB, velocity: vB });
    return JSON.stringify(s);
  };
  // the distance row (model/distance.ts, AerisLab's DistanceConstraint): C = ½(|d|² − L²), J = [−dᵀ, dᵀ], Ċ = d·ḋ, J̇v = |ḋ|²
  const d = pB.map((x, i) => x - pA[i]);
  const dd = vB.map((x, i) => x - vA[i]);
  const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
  const C = 0.5 * (dot(d, d) - 4);
  const Cdot = dot(d, dd);
  const Jdotv = dot(dd, dd);
  const now = inspectScene(scene('aerislab-oscillator')).snapshot!;
  close(now.C[0], C, 'C');
  close(now.Cdot[0], Cdot, 'Ċ');
  close(now.rhs[0], -Jdotv - 2 * alpha * Cdot - beta * beta * C, 'rhs (AerisLab now)');
  const old = inspectScene(scene('aerislab')).snapshot!;
  close(old.rhs[0], -(1 + beta) * Cdot - alpha * C, 'rhs (seed notebook)');
  assert.equal(now.stabilization, 'aerislab-oscillator');
});

test('its recurrence is Baumgarte\'s with the position gain β² and the velocity gain 2α; the stable ranges and gains follow', () => {
  const s = { dt: 0.01, alpha: 5, beta: 5, erp: 0.2, stabilization: 'aerislab-oscillator' as const, formulation: 'acceleration' as const };
  const rec = recurrenceOf(s);
  close(rec.a, 0.01 * 0.01 * 25, 'a = h²β²');
  close(rec.b, 2 * 0.01 * 5, 'b = 2hα');
  const same = recurrenceOf({ ...s, stabilization: 'baumgarte', alpha: 25, beta: 10 });
  assert.deepEqual(rec.M, same.M);
  const r = stableRanges(s);
  close(r.alpha!.hi, 100, 'α < 1/h');
  close(r.beta!.hi, (2 * Math.sqrt(1 - 0.05)) / 0.01, 'β < 2√(1 − hα)/h');
  // α = 150 puts 2hα = 3 out of (0, 2): the gains found are stable
  const g = stableGains({ ...s, alpha: 150 })!;
  assert.ok(g.rho < 1, JSON.stringify(g));
  assert.ok(recurrenceOf({ ...s, alpha: g.alpha, beta: g.beta! }).rho < 1);
});
