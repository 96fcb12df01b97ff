// The engine's public API (src/engine/index.ts): what a script can do with it without a scene file.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { Codes, emptySourceMap, inspectScene, parseScene, Simulation, type SceneSpec } from '../../src/engine';

const ROOT = join(__dirname, '..', '..');
const read = (f: string): string => readFileSync(join(ROOT, f), 'utf8');

before(() => {
  // `npm test` builds before the unit tests; a bare run of this file builds when dist is missing.
  if (!existsSync(join(ROOT, 'dist/engine.js')) || !existsSync(join(ROOT, 'dist/types/engine/index.d.ts'))) {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});

/** The ```js blocks of docs/engine-api.md, in order. */
const docBlocks = (): string[] => [...read('docs/engine-api.md').matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);

/** Run a block as a plain Node script from the root of the checkout (`constraint-lens/engine` refers to the package itself). */
function runBlock(code: string, esm: boolean): string {
  const r = spawnSync(process.execPath, [...(esm ? ['--input-type=module'] : []), '-e', code], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  return r.stdout;
}

const numbers = (list: string): number[] => (list.trim() === '' ? [] : list.split(', ').map(Number));

test('package.json exposes the built engine as constraint-lens/engine, with its types', () => {
  const pkg = JSON.parse(read('package.json')) as { main: string; bin: Record<string, string>; exports: Record<string, unknown> };
  assert.deepEqual(pkg.exports['./engine'], { types: './dist/types/engine/index.d.ts', default: './dist/engine.js' });
  assert.equal(pkg.exports['.'], pkg.main, 'the extension stays the package main');
  for (const f of ['dist/engine.js', 'dist/types/engine/index.d.ts', pkg.main, pkg.bin['constraint-lens']]) assert.ok(existsSync(join(ROOT, f)), f);
});

test('docs/engine-api.md: the Node example runs against dist/engine.js and prints the engine\'s λ and κ', () => {
  const [cjs] = docBlocks();
  assert.match(cjs, /require\('constraint-lens\/engine'\)/);
  const out = runBlock(cjs, false);
  // The same analysis in this process (from the sources): the printed numbers must be exactly these.
  const ins = inspectScene(read('examples/double-pendulum.scene.json'));
  const snap0 = ins.snapshot!;
  const head = /^step 0: κ\(A\) = (\S+), rank (\d+) of (\d+) rows, method (\w+)$/m.exec(out);
  assert.ok(head, out);
  assert.equal(Number(head[1]), snap0.cond.A);
  assert.deepEqual([Number(head[2]), Number(head[3]), head[4]], [snap0.rank.J, snap0.rank.rows, snap0.method]);
  const lines = out.split('\n');
  const at0 = lines.slice(lines.indexOf(head[0]) + 1, lines.indexOf(head[0]) + 1 + snap0.constraints.length);
  snap0.constraints.forEach((c, k) => {
    const m = /^ {2}(\S+): λ = \[(.*)\]$/.exec(at0[k]);
    assert.ok(m, at0[k]);
    assert.equal(m[1], c.name);
    assert.deepEqual(numbers(m[2]), c.lambda);
  });

  const sim = new Simulation(ins.parse.scene!, ins.parse.sourceMap);
  sim.step(100);
  const last = sim.records[99];
  const tail = /^step 100 \(t = (\S+) s\): κ\(A\) = (\S+), λ = \[(.*)\]$/m.exec(out);
  assert.ok(tail, out);
  assert.equal(Number(tail[1]), last.t);
  assert.equal(Number(tail[2]), last.cond.A);
  assert.deepEqual(numbers(tail[3]), last.lambda);
  const snap = sim.snapshotAt(100);
  const at100 = lines.slice(lines.indexOf(tail[0]) + 1).filter((l) => l !== '');
  assert.equal(at100.length, snap.constraints.length);
  snap.constraints.forEach((c, k) => {
    const m = /^ {2}(\S+): λ = \[(.*)\], \|C\| = (\S+)$/.exec(at100[k]);
    assert.ok(m, at100[k]);
    assert.equal(m[1], c.name);
    assert.deepEqual(numbers(m[2]), c.lambda);
    assert.equal(Number(m[3]), c.violation);
  });
  // κ and λ are real numbers here: a finite κ ≥ 1 and the shoulder carrying both links.
  assert.ok(Number.isFinite(last.cond.A) && last.cond.A! >= 1);
  assert.ok(last.lambda.some((l) => l !== 0));
});

test('docs/engine-api.md: the ESM example imports the named exports', () => {
  const esm = docBlocks()[1];
  assert.match(esm, /^import \{ inspectScene \} from 'constraint-lens\/engine';$/m);
  const out = runBlock(esm, true);
  const s = inspectScene(read('examples/hanging-mass.scene.json')).snapshot!;
  assert.equal(out, `κ(A) = ${s.cond.A}, λ(rod) = ${s.constraints[0].lambda[0]}\n`);
  // The seed's closed form: a 5 kg mass on a 2 m rod, λ = −m·g/|d| per metre of d.
  assert.ok(Math.abs(s.constraints[0].lambda[0] + (5 * 9.81) / 2) < 1e-3);
});

test('emptySourceMap: every path maps to the first character, no node exists', () => {
  const sm = emptySourceMap('{ "bodies": [] }');
  const first = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  assert.deepEqual(sm.rangeOf(['bodies', 0, 'mass']), first);
  assert.deepEqual(sm.keyRangeOf(['bodies']), first);
  assert.equal(sm.nodeSpan(['bodies']), undefined);
  assert.deepEqual(sm.positionAt(5), { line: 0, character: 5 });
  const none = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  assert.deepEqual(emptySourceMap().rangeOf(['constraints', 3]), none);
});

test('a scene built in code runs without a source map; its run diagnostics point at 0:0', () => {
  const parsed = parseScene(JSON.stringify({ bodies: [{ name: 'rocket', mass: 0.5 }] }));
  assert.ok(parsed.scene);
  // Built in code from the parsed defaults, then given a force the file never had.
  const scene: SceneSpec = { ...parsed.scene, bodies: [{ ...parsed.scene.bodies[0], force: [Infinity, 0, 0] }] };
  const sim = new Simulation(scene);
  assert.equal(sim.step(3).length, 0);
  assert.equal(sim.stopped, true);
  const d = sim.diagnostics.find((x) => x.code === Codes.nonFinite);
  assert.ok(d, JSON.stringify(sim.diagnostics));
  assert.equal(d.data?.step, 0, 'a run never starts from a non-finite state');
  assert.equal(d.data?.quantity, 'F');
  assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  assert.equal(sim.sourceMap.nodeSpan(['bodies', 0]), undefined);
});
