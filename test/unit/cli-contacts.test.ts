// The CLI with contacts: `contacts`, `newton` and `pgs` in `inspect --json` and `simulate --json`,
// exactly the documented fields, and the short text summaries.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const cli = join(root, 'dist/cli.js');
const ex = (f: string) => join(root, 'examples', f);
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root });

// always rebuild: a stale dist/cli.js would test an older CLI
before(() => {
  const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

const CONTACT_FIELDS = ['bodyA', 'bodyB', 'frictionForce', 'gap', 'normal', 'normalForce', 'point', 'shapeA', 'shapeB', 'state'];

test('inspect --json, nonlinear: contacts (the documented fields) and newton {iterations, converged, residuals, blocks}', () => {
  const r = run('inspect', ex('box-stack.scene.json'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.method, 'newton');
  assert.equal(j.pgs, undefined);
  assert.deepEqual(Object.keys(j.newton).sort(), ['blocks', 'converged', 'iterations', 'residuals']);
  assert.deepEqual(Object.keys(j.newton.blocks).sort(), ['b', 'dyn', 'f', 'kin', 'n']);
  assert.equal(j.newton.converged, true);
  assert.equal(j.newton.residuals.length, j.newton.iterations + 1);
  assert.equal(j.contacts.length, 12);
  for (const c of j.contacts) {
    assert.deepEqual(Object.keys(c).sort(), CONTACT_FIELDS);
    assert.equal(c.frictionForce.length, 2);
    assert.ok(['open', 'stick', 'slip'].includes(c.state));
  }
  const ground = j.contacts.filter((c: { bodyB: string }) => c.bodyB === 'world').reduce((s: number, c: { normalForce: number }) => s + c.normalForce, 0);
  assert.ok(Math.abs(ground - 3 * 9.81) < 1e-8, `ground force ${ground}`);
});

test('simulate --json, velocity: every step has contacts and pgs {iterations, residual}; text summaries', () => {
  const r = run('simulate', ex('box-on-plane.velocity.scene.json'), '--steps', '5', '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.steps.length, 5);
  for (const s of j.steps) {
    assert.equal(s.method, 'pgs');
    assert.deepEqual(Object.keys(s.pgs).sort(), ['iterations', 'residual']);
    assert.equal(s.contacts.length, 4);
    for (const c of s.contacts) assert.deepEqual(Object.keys(c).sort(), CONTACT_FIELDS);
  }
  // a scene without shapes keeps exactly the old fields
  const plain = JSON.parse(run('simulate', ex('hanging-mass.scene.json'), '--steps', '2', '--json').stdout);
  assert.deepEqual(Object.keys(plain.steps[0]).sort(), ['C', 'cond', 'energy', 'lambda', 'method', 't']);

  const text = run('simulate', ex('box-stack.scene.json'), '--steps', '10');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /Contacts: 10 of 10 steps with contacts, at most 12; largest penetration [\d.e-]+ m/);
  assert.match(text.stdout, /Newton: [\d.]+ iterations per step on average, at most \d+; every step converged/);
  const ins = run('inspect', ex('box-on-plane.velocity.scene.json'));
  assert.match(ins.stdout, /Contacts: 4; complementarity/);
  assert.match(ins.stdout, /box\/cube – world\/ground \[stick\]/);
  assert.match(ins.stdout, /PGS( \(NNCG\))?: \d+ sweeps, residual/);
  // the cold stack's step: its sweeps took NNCG's conjugate steps, and the line names it
  const stack = run('inspect', ex('box-stack.velocity.scene.json'));
  assert.match(stack.stdout, /PGS \(NNCG\): \d+ sweeps, residual/);
});
