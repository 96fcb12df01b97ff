// The rest penetration of MuJoCo's contacts (CL704): predicted from solref/solimp and the load, measured
// as MuJoCo's own efc_pos once the bodies have settled; a sphere on one contact point against the closed
// form written out here (gravity, solref and solimp only: the mass does not enter).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes, type Diagnostic } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { solveWithMujoco } from '../../src/import/mujocoSolver';
import { FIXTURES, lineOf } from './import-helpers';

async function solve(name: string, steps: number) {
  const path = join(FIXTURES, name);
  const text = readFileSync(path, 'utf8');
  const parse = await loadModel(path, text, { files: nodeFileAccess(FIXTURES) });
  const out = await solveWithMujoco(parse, steps);
  return { ...out, text };
}

interface Depth {
  geom1: string;
  geom2: string;
  predicted: number;
  measured: number;
  step: number;
}
const depths = (ds: readonly Diagnostic[]) => ds.filter((d) => d.code === Codes.restPenetration);
const dataOf = (d: Diagnostic): Depth => d.data as unknown as Depth;

/**
 * The closed form at rest on one contact point, written out from MuJoCo's documentation: k·d(r)·r = R·f
 * with R = (1 − d)/d·Â and Â·f = g, k = 1/(dmax²·τ²·ζ²), d(r) the solimp sigmoid; solved by bisection.
 */
function sphereDepth(g: number, tau: number, zeta: number, [dmin, dmax, width, mid, power]: number[]): number {
  const d = (r: number) => {
    const x = r / width;
    if (x >= 1) return dmax;
    const y = x <= mid ? Math.pow(x, power) / Math.pow(mid, power - 1) : 1 - Math.pow(1 - x, power) / Math.pow(1 - mid, power - 1);
    return dmin + y * (dmax - dmin);
  };
  const k = 1 / (dmax * dmax * tau * tau * zeta * zeta);
  let lo = 0, hi = 1;
  for (let i = 0; i < 200; i++) {
    const r = (lo + hi) / 2;
    if (r * k * d(r) * d(r) < (1 - d(r)) * g) lo = r;
    else hi = r;
  }
  return lo;
}

test('CL704: a sphere resting on one contact sinks the closed form’s depth, whatever its mass; MuJoCo measures the same', async () => {
  const { run, diagnostics, text } = await solve('mujoco/ball-rest.xml', 1500);
  try {
    const ds = depths(diagnostics);
    assert.equal(ds.length, 2);
    const solimp = [0.9, 0.95, 0.001, 0.5, 2];
    const light = ds.find((d) => dataOf(d).geom2 === 'light_ball');
    const heavy = ds.find((d) => dataOf(d).geom2 === 'heavy_ball');
    assert.ok(light && heavy);
    const l = dataOf(light), h = dataOf(heavy);
    // the light ball: solref 0.02 (the default), 0.3 kg; the heavy one: 30 kg, its solref 0.01 mixed by
    // MuJoCo with the floor's 0.02 at equal solmix weights: the contact's is 0.015
    const expectLight = sphereDepth(9.81, 0.02, 1, solimp), expectHeavy = sphereDepth(9.81, 0.015, 1, solimp);
    assert.deepEqual((heavy.data as { solref: number[] }).solref, [0.015, 1]);
    assert.ok(Math.abs(l.predicted - expectLight) <= 1e-6 * expectLight, `${l.predicted} vs ${expectLight}`);
    assert.ok(Math.abs(h.predicted - expectHeavy) <= 1e-6 * expectHeavy, `${h.predicted} vs ${expectHeavy}`);
    // MuJoCo's own depth once settled (efc_pos at the last step)
    assert.ok(Math.abs(l.measured - expectLight) <= 1e-6 * expectLight, `${l.measured} vs ${expectLight}`);
    assert.ok(Math.abs(h.measured - expectHeavy) <= 1e-6 * expectHeavy, `${h.measured} vs ${expectHeavy}`);
    // on the moving geom's line
    assert.equal(light.range.start.line, lineOf(text, 'name="light_ball"'));
    assert.equal(heavy.range.start.line, lineOf(text, 'name="heavy_ball"'));
    assert.equal(light.severity, 'information');
    assert.match(light.message, /at rest, as predicted/);
  } finally {
    run?.dispose();
  }
});

test('CL704 on the box stack: each pair’s predicted depth is MuJoCo’s efc_pos at rest, and a run that has not settled says so', async () => {
  const settled = await solve('mujoco/box-stack.xml', 1500);
  try {
    const ds = depths(settled.diagnostics);
    assert.deepEqual(ds.map((d) => [dataOf(d).geom1, dataOf(d).geom2]), [['floor', 'crate1_box'], ['crate1_box', 'crate2_box'], ['crate2_box', 'crate3_box']]);
    const { d } = settled.run!.raw();
    // MuJoCo's deepest contact of each pair, straight from its efc rows (efc_pos − efc_margin of the contact's first row)
    const pos = d.efc_pos as Float64Array, margin = d.efc_margin as Float64Array, id = d.efc_id as Int32Array, type = d.efc_type as Int32Array;
    const deepest = new Map<number, number>();
    for (let r = 0; r < pos.length; r++) if (type[r] >= 5) deepest.set(id[r], Math.max(deepest.get(id[r]) ?? 0, margin[r] - pos[r]));
    const measured = [...deepest.values()];
    for (const x of ds) {
      const data = dataOf(x);
      assert.equal(data.step, 1500);
      assert.ok(measured.some((m) => Math.abs(m - data.measured) <= 1e-12), `${data.measured} among MuJoCo's ${measured}`);
      assert.ok(Math.abs(data.predicted - data.measured) <= 1e-4 * data.measured, `${data.geom2}: predicted ${data.predicted}, measured ${data.measured}`);
      assert.equal(x.range.start.line, lineOf(settled.text, `name="${data.geom2}"`));
    }
    // the bottom crate carries three crates, the top one one: the top rests shallowest
    const top = dataOf(ds[2]), bottom = dataOf(ds[0]);
    assert.ok(top.measured < bottom.measured);
  } finally {
    settled.run?.dispose();
  }
  const falling = await solve('mujoco/box-stack.xml', 3);
  try {
    const ds = depths(falling.diagnostics);
    assert.ok(ds.length > 0);
    assert.ok(ds.some((x) => /not at rest yet/.test(x.message)));
  } finally {
    falling.run?.dispose();
  }
});
