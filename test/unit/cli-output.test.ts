// The CLI's contract beyond the numbers: help, version, usage errors, unwritable outputs,
// terminal-safe text with hostile names, the one non-finite spelling, and the report's history.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeFromJson, type PanelModel } from '../../src/protocol';
import { simulateScene } from '../../src/engine';
import { frameAt, sceneData } from '../../webview/scene3d/model';

const root = join(__dirname, '../..');
const cli = join(root, 'dist/cli.js');
const ex = (f: string) => join(root, 'examples', f);
const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root });
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

before(() => {
  if (!existsSync(cli) || !existsSync(join(root, 'dist/webview.js'))) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});

test('no arguments: the usage on stderr, exit 2; --help and help COMMAND describe every command and option', () => {
  const none = run();
  assert.equal(none.status, 2);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /Usage:\n {2}constraint-lens inspect SCENE \[--json\]/);
  const help = run('--help');
  assert.equal(help.status, 0);
  for (const s of ['inspect SCENE', 'simulate SCENE', 'report SCENE', '--json', '--steps N', '--csv FILE', '-o, --output FILE', '--version', 'Exit status', 'docs/cli.md', 'SCENE.report.html'])
    assert.ok(help.stdout.includes(s), `--help mentions ${s}`);
  assert.ok(help.stdout.split('\n').every((l) => l.length <= 92), 'lines fit a terminal');
  const rep = run('report', '--help');
  assert.equal(rep.status, 0);
  assert.match(rep.stdout, /default: next to the scene, SCENE\s+with\s+\.scene\.json \(or \.json\) replaced by \.report\.html/);
  assert.doesNotMatch(rep.stdout, /--csv/);
  assert.equal(run('help', 'simulate').stdout, run('simulate', '--help').stdout);
  assert.equal(run('help', 'nothing').status, 2);
  assert.equal(run('inspect', ex('hanging-mass.scene.json'), '--csv', 'x.csv').status, 2, 'inspect takes only --json');
  assert.match(run('inspect', ex('hanging-mass.scene.json'), '--frob').stderr, /unknown option '--frob'/);
});

test('--version prints the package version, bundled at build time', () => {
  for (const flag of ['--version', '-V']) {
    const r = run(flag);
    assert.equal(r.status, 0);
    assert.equal(r.stdout, `constraint-lens ${version}\n`);
  }
});

test('an output path whose directory is a file: a clear message, exit 2, before any run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'));
  const file = join(dir, 'plain.txt');
  writeFileSync(file, 'not a directory');
  const rep = run('report', ex('chain.scene.json'), '--steps', '100000', '-o', join(file, 'sub', 'r.html'));
  assert.equal(rep.status, 2);
  assert.equal(rep.stdout, '', 'nothing ran');
  assert.equal(rep.stderr, `constraint-lens: cannot write ${join(file, 'sub', 'r.html')}: ${file} is a file, not a directory\n`);
  const csv = run('simulate', ex('hanging-mass.scene.json'), '--csv', join(file, 'run.csv'));
  assert.equal(csv.status, 2);
  assert.match(csv.stderr, /is a file, not a directory/);
  const isDir = run('simulate', ex('hanging-mass.scene.json'), '--csv', dir);
  assert.equal(isDir.status, 2);
  assert.match(isDir.stderr, /it is a directory/);
});

// Names that would clear the screen, retitle the window, recolour the terminal and reverse the text.
const HOSTILE = {
  name: 'Evil \u001b]0;pwned\u0007\u001b[2J\u001b[H scene \u202e',
  solver: { steps: 20 },
  bodies: [
    { name: 'A\u001b[31m', mass: 1, position: [0, 0, 0], fixed: true },
    { name: 'B\u009b2J\u202e\u2066', mass: 1, position: [1, 0, 0] },
  ],
  constraints: [{ name: 'rod\u001b]0;title\u0007\u007f', type: 'distance', bodyA: 'A\u001b[31m', bodyB: 'B\u009b2J\u202e\u2066', anchorA: [0, 0, 0], anchorB: [0, 0, 0] }],
};
/** Control characters (other than the line ends) and bidi controls. */
const unsafe = (s: string): boolean => /[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(s.replace(/\n/g, ''));

test('text output never carries control characters or bidi overrides from names (inspect, simulate, report, JSON, errors)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'));
  const scene = join(dir, 'evil.scene.json');
  writeFileSync(scene, JSON.stringify(HOSTILE, null, 1));
  const outputs = [
    run('inspect', scene),
    run('simulate', scene, '--steps', '5', '--csv', join(dir, 'run.csv')),
    run('report', scene, '--steps', '5', '-o', join(dir, 'r.html')),
    run('inspect', scene, '--json'),
    run('simulate', scene, '--steps', '5', '--json'),
    run('inspect', join(dir, 'missing\u001b[2J.scene.json')),
  ];
  for (const r of outputs) {
    assert.ok(!unsafe(r.stdout), r.stdout);
    assert.ok(!unsafe(r.stderr), r.stderr);
  }
  const [inspect, simulate, , json, simJson, missing] = outputs;
  assert.equal(inspect.status, 0, inspect.stderr);
  assert.ok(inspect.stdout.includes('Scene: Evil \\x1B]0;pwned\\x07\\x1B[2J\\x1B[H scene \\u202E'), 'escapes are visible');
  assert.ok(inspect.stdout.includes('rod\\x1B]0;title\\x07\\x7F [distance, A\\x1B[31m–B\\x9B2J\\u202E\\u2066]'));
  assert.ok(simulate.stdout.includes('B\\x9B2J\\u202E\\u2066: p = ('));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*missing\\x1B\[2J\.scene\.json/);
  // JSON keeps the exact names: escaped in the text, identical once parsed.
  assert.equal(JSON.parse(json.stdout).bodies[0], HOSTILE.bodies[1].name);
  assert.equal(JSON.parse(simJson.stdout).final.bodies[1].name, HOSTILE.bodies[1].name);
});

test('non-finite values: the same spelling in simulate --json and --csv; κ is null without constraints; 1e155 never reaches a record', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'));
  // κ of a singular A is the one non-finite number a run records: "Infinity" in JSON and CSV alike
  const csvPath = join(dir, 'run.csv');
  const red = run('simulate', ex('redundant-rods.scene.json'), '--steps', '2', '--json', '--csv', csvPath);
  assert.equal(JSON.parse(red.stdout).steps[0].cond.A, 'Infinity');
  const cellsOf = (file: string) => {
    const [head, row] = readFileSync(file, 'utf8').split('\n');
    return Object.fromEntries(head.split(',').map((h, i) => [h, row.split(',')[i]]));
  };
  assert.equal(cellsOf(csvPath).cond_A, 'Infinity');
  const free = join(dir, 'free.scene.json');
  writeFileSync(free, JSON.stringify({ name: 'free', bodies: [{ name: 'B', mass: 1, velocity: [1, 0, 0] }], constraints: [] }));
  const freeCsv = join(dir, 'free.csv');
  const f = run('simulate', free, '--steps', '2', '--json', '--csv', freeCsv);
  assert.equal(JSON.parse(f.stdout).steps[0].cond.A, null, 'no constraints: κ is not defined');
  assert.equal(cellsOf(freeCsv).cond_A, '');
  // a body at 1e155 m/s: its energy would overflow, so step 0 is an error and no step is recorded
  const scene = join(dir, 'fast.scene.json');
  writeFileSync(scene, JSON.stringify({ name: 'fast', bodies: [{ name: 'B', mass: 1, position: [0, 0, 0], velocity: [1e155, 0, 0] }], constraints: [] }));
  const r = run('simulate', scene, '--steps', '2', '--json');
  assert.equal(r.status, 1, 'nothing can be simulated from a state beyond ±1e150');
  const j = JSON.parse(r.stdout);
  const bad = (j.diagnostics as { code: string; message: string }[]).find((d) => d.code === 'CL403-overflow');
  assert.ok(bad, 'CL403 names the overflow');
  assert.match(bad.message, /initial state \(step 0\).*velocity of body `B`/);
  assert.deepEqual(j.steps, []);
  const text = run('inspect', scene);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /κ₂\(A\) = – \(no constraints\)/);
  assert.match(text.stdout, /CL403-overflow .*velocity of body `B`/);
  assert.doesNotMatch(text.stdout, /singular/);
});

test('report embeds the run: at a late step of the double pendulum the hinges are drawn joined, as the engine has them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-cli-'));
  const out = join(dir, 'dp.html');
  const r = run('report', ex('double-pendulum.scene.json'), '--steps', '400', '-o', out);
  assert.equal(r.status, 0, r.stderr);
  const html = readFileSync(out, 'utf8');
  const m = decodeFromJson<PanelModel>(/<script type="application\/json" id="cl-model">([\s\S]*?)<\/script>/.exec(html)![1]);
  assert.equal(m.history.length, 400);
  assert.ok(m.snapshots && m.snapshots.length > 2, 'snapshots of several steps are embedded');
  assert.equal(m.snapshot.step, 400, 'the last step is shown');
  assert.match(m.generator ?? '', /^Constraint Lens \S+ \(CLI\), \d{4}-\d{2}-\d{2}$/);
  assert.equal(m.conditionWarning, 1e6, 'the κ band threshold travels with the model');
  const truth = simulateScene(readFileSync(ex('double-pendulum.scene.json'), 'utf8'), 400).simulation!;
  // The 3D view's frame (webview/scene3d) of a late embedded step, and of late steps between two
  // embedded ones (drawn from the history's poses and the scene's local anchors).
  const data = sceneData(m);
  for (const step of [400, 399, 397]) {
    const frame = frameAt(m, data, step);
    const real = truth.snapshotAt(step);
    for (const c of real.constraints.filter((x) => x.type === 'hinge')) {
      const i = data.constraintIndex.get(c.name)!;
      const [a, b] = [frame.anchorA[i], frame.anchorB[i]];
      for (let k = 0; k < 3; k++) {
        assert.ok(Math.abs(a[k] - c.anchorAWorld[k]) < 1e-9, `${c.name} anchor A at step ${step}`);
        assert.ok(Math.abs(b[k] - c.anchorBWorld[k]) < 1e-9, `${c.name} anchor B at step ${step}`);
      }
      // The two anchors of the hinge coincide up to the hinge's own positional violation.
      const gap = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      const Cxyz = Math.hypot(real.C[c.firstRow], real.C[c.firstRow + 1], real.C[c.firstRow + 2]);
      assert.ok(Math.abs(gap - Cxyz) < 1e-9, `${c.name} at step ${step}: gap ${gap} = |C_xyz| ${Cxyz}`);
    }
  }
});
