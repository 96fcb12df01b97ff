// The contact examples (examples/*.scene.json with shapes): each parses without errors, runs its
// first 100 steps (the bouncing balls 500: up to their first impact) with the contact solver of its
// formulation, and reports no diagnostic at all.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { simulateScene } from '../../src/engine';

const DIR = join(__dirname, '..', '..', 'examples');
const files = readdirSync(DIR).filter((f) => f.endsWith('.scene.json') && /"shapes"/.test(readFileSync(join(DIR, f), 'utf8')));

test('there are contact examples in both formulations', () => {
  const names = files.map((f) => f.replace(/(\.velocity)?\.scene\.json$/, ''));
  for (const n of ['box-on-plane', 'box-incline', 'bouncing-ball', 'box-stack', 'pendulum-ground', 'chain-ground']) {
    assert.ok(files.includes(`${n}.scene.json`), `${n} (nonlinear)`);
    assert.ok(files.includes(`${n}.velocity.scene.json`), `${n} (velocity)`);
  }
  // and a velocity one of sleeping islands
  assert.ok(files.includes('box-drop.velocity.scene.json'), 'box-drop (sleeping islands)');
  assert.equal(names.length, 13);
});

for (const f of files) {
  const n = f.startsWith('bouncing-ball') ? 500 : 100;
  test(`${f}: parses without errors, runs ${n} steps with contacts, no diagnostics`, () => {
    const text = readFileSync(join(DIR, f), 'utf8');
    const out = simulateScene(text, n);
    assert.equal(out.inspect.parse.hasErrors, false);
    assert.deepEqual(out.inspect.diagnostics.map((d) => `${d.code}: ${d.message}`), []);
    const steps = out.result!.steps;
    assert.equal(steps.length, n);
    const nonlinear = out.inspect.parse.scene!.solver.formulation === 'nonlinear';
    assert.equal(out.inspect.parse.scene!.solver.formulation, f.includes('.velocity.') ? 'velocity' : 'nonlinear');
    if (nonlinear) assert.ok(steps.every((s) => s.method === 'newton' && s.newton!.converged), 'Newton converges at every step');
    else assert.ok(steps.some((s) => s.method === 'pgs'), 'PGS solves the steps with contacts');
    assert.ok(steps.some((s) => (s.contactCount ?? 0) > 0), 'something touches');
    assert.ok(steps.every((s) => s.poses.every(Number.isFinite)));
  });
}
