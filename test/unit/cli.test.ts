// The CLI as a user runs it: exit codes, human output, the exact --json fields, CSV, reports.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const cli = join(root, 'dist/cli.js');
const ex = (f: string) => join(root, 'examples', f);
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root });

before(() => {
  if (!existsSync(cli) || !existsSync(join(root, 'dist/webview.js'))) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});

test('inspect prints labelled matrices, κ, rank, λ and exits 0 for a clean scene', () => {
  const r = run('inspect', ex('hanging-mass.scene.json'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Method: cholesky/);
  assert.match(r.stdout, /rank\(J\) = 1\/1/);
  assert.match(r.stdout, /-24\.5248773756/);
  assert.match(r.stdout, /Hanging_Mass/);
  assert.match(r.stdout, /Diagnostics: none/);
});

test('inspect --json has exactly the documented fields', () => {
  const r = run('inspect', ex('horizontal-rod.scene.json'), '--json');
  assert.equal(r.status, 0);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(j).sort(), ['A', 'C', 'Cdot', 'F', 'J', 'Minv', 'a', 'a0', 'b', 'bodies', 'compliance', 'cond', 'constraintForce', 'diagnostics', 'integrator', 'lambda', 'method', 'rank', 'redundant', 'rhs', 'rows', 'v'].sort());
  assert.deepEqual(j.integrator, { runs: 'semi-implicit Euler' });
  assert.deepEqual(j.bodies, ['Body_A', 'Body_B']);
  assert.deepEqual(j.rows, [{ constraint: 'rod', row: 0 }]);
  assert.equal(j.Minv.length, 12);
  assert.deepEqual(j.J[0].map((x: number) => x + 0), [-2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0]);
  assert.ok(Math.abs(j.A[0][0] - 1.2) < 1e-15);
  assert.deepEqual(j.cond, { A: 1 });
  assert.deepEqual(j.rank, { J: 1 });
  assert.equal(j.method, 'cholesky');
});

test('inspect --json on the velocity formulation adds W, B, R; singular A gives cond.A = "Infinity"', () => {
  const v = JSON.parse(run('inspect', ex('velocity-pendulum.scene.json'), '--json').stdout);
  assert.ok(Array.isArray(v.W) && Array.isArray(v.B) && Array.isArray(v.R));
  const red = run('inspect', ex('redundant-rods.scene.json'), '--json');
  assert.equal(red.status, 0, 'a redundancy is a warning');
  const j = JSON.parse(red.stdout);
  assert.equal(j.cond.A, 'Infinity', 'the one spelling of non-finite values (was null)');
  assert.equal(j.method, 'lstsq');
  assert.deepEqual(j.redundant, [{ constraint: 'rod2', row: 0, dependsOn: [{ constraint: 'rod1', row: 0, coefficient: 1 }] }]);
  assert.equal(j.diagnostics[0].code, 'CL301-redundant-constraint');
  assert.deepEqual(Object.keys(j.diagnostics[0].range.start), ['line', 'character']);
});

test('errors: exit 1 with file:line:col diagnostics; usage and I/O errors exit 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'));
  const bad = join(dir, 'bad.scene.json');
  writeFileSync(bad, '{\n  "bodies": [ { "name": "a", "mass": -1 } ],\n  "constraints": [ { "type": "ball", "bodyA": "a", "bodyB": "nobody" } ]\n}\n');
  const r = run('inspect', bad);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /bad\.scene\.json:2:\d+: error CL103-non-positive-mass/);
  assert.equal(run('inspect').status, 2);
  assert.equal(run('frobnicate', bad).status, 2);
  assert.equal(run('inspect', join(dir, 'missing.scene.json')).status, 2);
  assert.equal(run('simulate', bad, '--steps', 'many').status, 2);
});

test('simulate --json: steps with t, C, λ, κ, energy, method and the final bodies; --csv writes a table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'));
  const csv = join(dir, 'run.csv');
  const r = run('simulate', ex('hybrid-anchor-payload.scene.json'), '--steps', '100', '--json', '--csv', csv);
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.steps.length, 100);
  assert.deepEqual(Object.keys(j.steps[0]).sort(), ['C', 'cond', 'energy', 'lambda', 'method', 't']);
  assert.ok(Math.abs(j.steps[99].t - 1) < 1e-12);
  const [a, p] = j.final.bodies;
  assert.ok(Math.abs(Math.hypot(a.position[0] - p.position[0], a.position[1] - p.position[1], a.position[2] - p.position[2]) - 2) < 1e-12);
  const lines = readFileSync(csv, 'utf8').trim().split('\n');
  assert.equal(lines.length, 101);
  // The shared run-export dialect, the same as the extension's Export Step Data.
  assert.match(lines[0], /^step,t,cond_A,cond_estimated,method,kinetic,potential,total_energy,quat_drift,C\[/);
  assert.equal(lines[1].split(',').length, lines[0].split(',').length);
});

test('report writes one self-contained HTML file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'));
  const out = join(dir, 'r.html');
  const r = run('report', ex('square-diagonals.scene.json'), '-o', out);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const html = readFileSync(out, 'utf8');
  assert.match(html, /Content-Security-Policy/);
  assert.doesNotMatch(html, /(src|href)=["']https?:/);
  assert.match(html, /diagonal2/);
});

test('--limits: steps clamped (CL010) and the history capped (CL405), exit 0; a malformed list is a usage error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-limits-'));
  const f = join(dir, 'big.scene.json');
  writeFileSync(f, JSON.stringify({ solver: { dt: 0.01, steps: 1e12 }, bodies: [{ name: 'a', mass: 1 }] }, null, 2));
  const r = run('simulate', f, '--limits', 'steps=4,history=100');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Ran 2 steps .*stopped there: the history is full \(CL405\)/);
  assert.match(r.stdout, /CL405-history-full/);
  assert.match(r.stdout, /CL010-too-many-steps `solver\.steps` = 1,000,000,000,000 is above the limit of 4 steps/);
  const bad = run('inspect', f, '--limits', 'steps=0');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--limits: limit steps must be a whole number/);
  assert.match(run('inspect', '--help').stdout, /--limits L/);
});

test('inspect of a tall island (600 rods on one body): A not formed, the reason printed and in the JSON; Σ beside W', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-tall-'));
  const f = join(dir, 'tall.scene.json');
  const constraints = Array.from({ length: 600 }, (_, i) => ({ type: 'distance', bodyA: 'world', bodyB: 'B', anchorA: [3 * Math.cos(i * 2.4), 3 * Math.sin(i * 2.4), 3 - i / 100], anchorB: [0.1 * Math.cos(i), 0.1 * Math.sin(i), 0] }));
  writeFileSync(f, JSON.stringify({ bodies: [{ name: 'B', mass: 1 }], constraints }));
  const r = run('inspect', f);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /A \(600×600\): A = J·M⁻¹·Jᵀ is not formed for the 600 rows of a tall island on 6 velocity columns/);
  assert.match(r.stdout, /rank\(J\) = 6\/600/);
  const j = JSON.parse(run('inspect', f, '--json').stdout);
  assert.equal(j.A, undefined);
  assert.match(j.omitted.A, /not formed/);
  assert.equal(j.rank.J, 6);
  // velocity formulation with compliance: W printed as the Delassus operator, Σ on its own line
  const v = join(dir, 'pendulum.scene.json');
  writeFileSync(v, JSON.stringify({ solver: { formulation: 'velocity', compliance: 0.001 }, bodies: [{ name: 'P', mass: 2, position: [1, 0, 0] }], constraints: [{ type: 'distance', bodyA: 'world', bodyB: 'P' }] }));
  const out = run('inspect', v).stdout;
  assert.match(out, /W = h·J·M⁻¹·Jᵀ \(Delassus operator\) \(1×1\)/);
  assert.match(out, /Σ = 0\.001·I \(solver\.compliance\): the matrix solved is W \+ Σ/);
  assert.doesNotMatch(out, /\+Σ\)/);
});
