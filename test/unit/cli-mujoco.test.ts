// `--solver mujoco` through the built CLI: the documented JSON contract of MuJoCo's system and run,
// the exit status of a blow-up, and the usage errors.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeFromJson, isPanelModel, type PanelModel } from '../../src/protocol';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist/cli.js');
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root });
const fixture = (name: string) => join('test', 'fixtures', 'import', name);

before(() => {
  if (!existsSync(cli)) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});

test('inspect --solver mujoco --json: MuJoCo’s system named and analysed, with the documented fields', () => {
  const r = run('inspect', fixture('four-bar.xml'), '--solver', 'mujoco', '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(j).sort(), ['A', 'C', 'J', 'M', 'Minv', 'R', 'b', 'cond', 'contacts', 'diagnostics', 'dofs', 'integrator', 'lambda', 'rank', 'redundant', 'rows', 'solver', 'timestep'].sort());
  assert.equal(j.solver, 'mujoco');
  assert.deepEqual(j.dofs, ['j_crank', 'j_coupler', 'j_rocker']);
  assert.deepEqual(j.rows.map((x: { constraint: string; type: string; row: number }) => [x.constraint, x.type, x.row]), [['close', 'equality', 0], ['close', 'equality', 1], ['close', 'equality', 2]]);
  assert.equal(j.cond.A, 'Infinity');
  assert.ok(typeof j.cond.AR === 'number' && j.cond.AR > 1);
  assert.equal(j.rank.J, 2);
  assert.deepEqual(j.redundant, [{ constraint: 'close', row: 1, dependsOn: [] }]);
});

test('simulate --solver mujoco --json: one record per mj_step; a blow-up is CL701 at its step and exit 1', () => {
  const ok = run('simulate', fixture('four-bar.xml'), '--solver', 'mujoco', '--steps', '20', '--json');
  assert.equal(ok.status, 0, ok.stderr);
  const j = JSON.parse(ok.stdout);
  assert.equal(j.steps.length, 21);
  assert.deepEqual(j.steps.map((s: { step: number }) => s.step).slice(0, 3), [0, 1, 2]);
  assert.equal(j.steps[20].elements.close.type, 'equality');
  const bad = run('simulate', fixture('mujoco/gear-blowup.xml'), '--solver', 'mujoco', '--steps', '200', '--json');
  assert.equal(bad.status, 1);
  const b = JSON.parse(bad.stdout);
  const d = b.diagnostics.find((x: { code: string }) => x.code === 'CL701-mujoco-blow-up');
  assert.ok(d, bad.stdout.slice(0, 400));
  assert.match(d.message, new RegExp(`step ${d.data.step}\\b`));
});

test('report --solver mujoco: one HTML file embedding MuJoCo’s run (history by element, the blow-up’s CL701)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-mjreport-'));
  try {
    const out = join(dir, 'gear.report.html');
    const r = run('report', fixture('mujoco/gear-blowup.xml'), '--solver', 'mujoco', '--steps', '300', '-o', out);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /Report written to .*MuJoCo/);
    assert.match(r.stdout, /CL701-mujoco-blow-up/);
    const html = readFileSync(out, 'utf8');
    const m = /<script type="application\/json" id="cl-model">([\s\S]*?)<\/script>/.exec(html);
    assert.ok(m, 'the model is embedded');
    const model = decodeFromJson<PanelModel>(m[1]);
    assert.ok(isPanelModel(model));
    assert.ok(model.mujocoRun && model.historyColumns);
    assert.equal(model.history.length, model.steps);
    assert.ok(model.diagnostics.some((d) => d.code === 'CL701-mujoco-blow-up'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--solver: a scene file, an unknown solver and --csv with mujoco are usage errors (exit 2)', () => {
  assert.equal(run('inspect', 'examples/hanging-mass.scene.json', '--solver', 'mujoco').status, 2);
  const r = run('inspect', fixture('four-bar.xml'), '--solver', 'bullet');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--solver must be engine or mujoco/);
  assert.equal(run('simulate', fixture('four-bar.xml'), '--solver', 'mujoco', '--csv', join(tmpdir(), 'x.csv')).status, 2);
  assert.equal(run('inspect', fixture('four-bar.xml'), '--solver', 'engine', '--json').status, 0);
});
