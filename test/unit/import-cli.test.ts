// The model commands of the CLI: inspect/simulate/report on MJCF/URDF (same JSON contract as scenes,
// --keyframe), `compare` against MuJoCo (with an agreement check: with nearly hard constraints,
// MuJoCo's efc_force converges to our λ), and `export-scene` (the scene parser reads it back).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codes, parseScene } from '../../src/engine';
import { runImportCommand } from '../../src/import/cli';
import type { CompareResult } from '../../src/import/compare';
import { FIXTURES, importFixture, lineOf } from './import-helpers';

const root = join(__dirname, '../..');
const cli = join(root, 'dist/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root });
const fx = (f: string) => join(FIXTURES, f);

before(() => {
  if (!existsSync(cli) || !existsSync(join(root, 'dist/webview.js'))) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});

/** runImportCommand with captured output. */
async function command(...argv: string[]): Promise<{ code: number | undefined; out: string; err: string }> {
  let out = '', err = '';
  const code = await runImportCommand(argv, (s) => (out += s + '\n'), (s) => (err += s + '\n'));
  return { code, out, err };
}

test('inspect MODEL --json: the scene contract, diagnostics with XML ranges; exit 0 with warnings only', () => {
  const r = run('inspect', fx('four-bar.xml'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.bodies, ['crank', 'coupler', 'rocker']);
  assert.equal(j.rows.length, 18);
  assert.equal(j.redundant.length, 1);
  const text = readFileSync(fx('four-bar.xml'), 'utf8');
  const d = j.diagnostics.find((x: { code: string }) => x.code === Codes.redundantConstraint);
  assert.equal(d.range.start.line, lineOf(text, '<connect'));
});

test('simulate MODEL --keyframe NAME runs from the key; an unknown key or a refused include exits 1', () => {
  const r = run('simulate', fx('joint-equality.xml'), '--keyframe', 'tilted', '--steps', '5', '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.steps.length, 5);
  assert.ok(Math.abs(j.steps[0].C[3] - 0.723) < 0.05, `gear starts violated by ≈ 0.723: ${j.steps[0].C[3]}`);
  const bad = run('inspect', fx('joint-equality.xml'), '--keyframe', 'nope');
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /CL609-unknown-keyframe/);
  const escape = run('inspect', fx('include-escape.xml'));
  assert.equal(escape.status, 1);
  assert.match(escape.stdout, /include-escape\.xml:3:3: error CL603-file-refused/);
  const scene = run('inspect', join(root, 'examples', 'hanging-mass.scene.json'), '--keyframe', 'k');
  assert.equal(scene.status, 1, '--keyframe on a scene file is an error');
});

test('report MODEL writes MODEL.report.html next to it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-import-report-'));
  const out = join(dir, 'four-bar.report.html');
  const r = run('report', fx('four-bar.xml'), '-o', out, '--steps', '3');
  assert.equal(r.status, 0, r.stderr);
  assert.ok(readFileSync(out, 'utf8').includes('<html'));
});

test('compare --json: per equality MuJoCo\'s efc_force, R and A next to our λ and A, violations over the run, solver figures', async () => {
  const r = await command('compare', fx('four-bar.xml'), '--steps', '20', '--json');
  assert.equal(r.code, 0, r.err);
  const c = JSON.parse(r.out) as CompareResult & { diagnostics: unknown[] };
  assert.equal(c.steps, 20);
  assert.equal(c.times.length, 21);
  assert.equal(c.equalities.length, 1);
  const e = c.equalities[0];
  assert.deepEqual([e.name, e.type, e.constraint], ['close', 'connect', 'close']);
  assert.deepEqual(e.rows, ['close.x', 'close.y', 'close.z']);
  for (const k of ['mujocoForce', 'ourLambda', 'mujocoR', 'mujocoDiagA', 'ourDiagA'] as const) assert.equal(e[k].length, 3, k);
  assert.ok(e.mujocoR.every((x) => x > 0));
  assert.deepEqual(e.solref, [0.02, 1]);
  assert.equal(e.violation.mujoco.length, 21);
  assert.equal(e.violation.ours.length, 21);
  // MuJoCo's soft connect sags under gravity; the exact solve holds it to round-off.
  assert.ok(e.violation.mujocoMax > 1e-4 && e.violation.oursMax < 1e-9, `${e.violation.mujocoMax} vs ${e.violation.oursMax}`);
  assert.ok(c.solver.iterationsMin >= 1);
  assert.deepEqual(c.otherRows, { contacts: { max: 0, states: 0 }, limits: { max: 0, states: 0 }, friction: { max: 0, states: 0 } });
  assert.deepEqual(c.diagnostics, [], 'the import itself is clean (the redundancy is an analysis diagnostic)');
  const text = await command('compare', fx('four-bar.xml'), '--steps', '5');
  assert.match(text.out, /connect close → close/);
  assert.match(text.out, /MuJoCo efc_force +our λ +MuJoCo R +MuJoCo A_ii +our A_ii/);
  assert.match(text.out, /violation \|C\|: MuJoCo max/);
});

test('agreement: with nearly hard constraints (solimp 0.99999) MuJoCo\'s efc_force converges to our λ', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-import-stiff-'));
  const cases: [string, string[]][] = [
    ['four-bar.xml', []],
    ['slider-crank.xml', []],
    ['joint-equality.xml', ['--keyframe', 'tilted']],
  ];
  for (const [file, extra] of cases) {
    const stiff = readFileSync(fx(file), 'utf8').replace(/<mujoco model="[^"]*">/, (m) => `${m}\n  <default><equality solimp="0.99999 0.99999 0.001 0.5 2"/></default>`);
    writeFileSync(join(dir, file), stiff);
    const r = await command('compare', join(dir, file), '--steps', '0', '--json', ...extra);
    const c = JSON.parse(r.out) as CompareResult;
    for (const e of c.equalities) {
      assert.ok(e.mujocoR.every((R, i) => R < 1e-3 * e.mujocoDiagA[i]), `${file}: nearly hard`);
      const diff = Math.hypot(...e.mujocoForce.map((f, i) => f - e.ourLambda[i]));
      const size = Math.hypot(...e.ourLambda);
      assert.ok(size > 0.1, `${file} ${e.name}: a real force`);
      assert.ok(diff < 2e-3 * size, `${file} ${e.name}: |f_MuJoCo − λ| = ${diff} of |λ| = ${size}`);
    }
  }
});

test('agreement, welds: loaded welds (force and torque, rotated frames) match MuJoCo nearly hard, rotational rows converted', async () => {
  // weld-load.xml: a rotated arm welded to the world and a tip welded to the arm, both with their centres of mass
  // off the weld point. MuJoCo clamps solimp's d at 0.9999 (mjMAXIMP), so R ≥ 1e-4·diagApprox: on the tip's
  // weld, coupled to the root's, that still leaves ~1 % of softness, on the root's well under 1 %.
  const dir = mkdtempSync(join(tmpdir(), 'cl-import-weld-'));
  const stiff = readFileSync(fx('weld-load.xml'), 'utf8').replace(/<mujoco model="[^"]*">/, (m) => `${m}\n  <default><equality solimp="0.99999 0.99999 0.001 0.5 2"/></default>`);
  writeFileSync(join(dir, 'weld-load.xml'), stiff);
  const r = await command('compare', join(dir, 'weld-load.xml'), '--steps', '0', '--json');
  const c = JSON.parse(r.out) as CompareResult;
  assert.deepEqual(c.equalities.map((e) => [e.type, e.name, e.constraint]), [['weld', 'root', 'root'], ['weld', 'tipweld', 'tipweld']]);
  const tol: Record<string, number> = { root: 5e-3, tipweld: 1.2e-2 };
  for (const e of c.equalities) {
    assert.equal(e.mujocoForce.length, 6);
    assert.ok(e.mujocoR.every((R, i) => R < 2e-4 * e.mujocoDiagA[i]), `${e.name}: nearly hard`);
    const diff = Math.hypot(...e.mujocoForce.map((f, i) => f - e.ourLambda[i]));
    const size = Math.hypot(...e.ourLambda);
    assert.ok(size > 0.1, `${e.name}: a real force`);
    assert.ok(diff < tol[e.name] * size, `${e.name}: |f_MuJoCo − λ| = ${diff} of |λ| = ${size}`);
    // the rotational rows carry a real torque in both, with the same sign (the convention conversion)
    const torque = e.ourLambda.slice(3);
    const big = torque.map((t, i) => [Math.abs(t), i] as const).sort((a, b) => b[0] - a[0])[0][1];
    assert.ok(Math.abs(torque[big]) > 0.1, `${e.name}: a real torque`);
    assert.ok(Math.abs(e.mujocoForce[3 + big] - torque[big]) < 2e-2 * Math.abs(torque[big]), `${e.name}: torque row ${big}`);
  }
});

test('export-scene writes a scene the scene parser reads back exactly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-import-export-'));
  for (const [file, extra] of [['joint-equality.xml', ['--keyframe', 'tilted']], ['weld.xml', []], ['arm-gripper.urdf', []], ['defaults-childclass.xml', []]] as const) {
    const out = join(dir, file + '.scene.json');
    const r = await command('export-scene', fx(file), '-o', out, ...extra);
    assert.ok(r.code === 0, r.err + r.out);
    assert.match(r.out, /Scene written to/);
    const parsed = parseScene(readFileSync(out, 'utf8'));
    // The scene format reads everything (shapes, world, contacts) without a single diagnostic, except
    // CL210 on joint limits where the formulation does not solve them (as the import's CL606 said).
    const unsolved = parsed.scene!.solver.formulation !== 'velocity' ? (d: { code: string }) => d.code !== Codes.jointRowsNotSolved : () => true;
    assert.deepEqual(parsed.diagnostics.filter(unsolved), [], file);
    const imported = (await importFixture(file, { keyframe: extra[1] })).parse.scene!;
    const scene = parsed.scene!;
    // Numbers round-trip exactly, except that the parser normalises quaternions again (1 ulp).
    const near = (x: unknown): unknown => (typeof x === 'number' ? Number(x.toPrecision(15)) : Array.isArray(x) ? x.map(near) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, near(v)])) : x);
    const bodyOf = (b: (typeof scene.bodies)[number]) => near([b.name, b.mass, b.inertia, b.position, b.orientation, b.velocity, b.angularVelocity, b.fixed, b.gravity]);
    assert.deepEqual(scene.bodies.map(bodyOf), imported.bodies.map(bodyOf), file);
    const strip = (c: (typeof scene.constraints)[number]) => near({ ...c, index: 0 });
    assert.deepEqual(scene.constraints.map(strip), imported.constraints.map(strip), file);
    assert.deepEqual(scene.solver, imported.solver);
    // Shapes are valid ShapeSpec: the parser reads back the same shapes, per body and in the world.
    assert.deepEqual(scene.bodies.map((b) => near(b.shapes)), imported.bodies.map((b) => near(b.shapes)), file);
    assert.deepEqual(near(scene.world.shapes), near(imported.world.shapes), file);
    assert.deepEqual(scene.gravity, imported.gravity);
  }
  const bad = await command('export-scene', join(root, 'examples', 'hanging-mass.scene.json'));
  assert.equal(bad.code, 2);
  assert.match(bad.err, /needs an MJCF model/);
});
