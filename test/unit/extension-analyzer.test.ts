// The extension's analysis pipeline without vscode: the worker's request handling (and that its
// replica simulation reproduces the host's run exactly), and the Analyzer's versioned, off-thread
// inspection of a large scene (latest wins, the event loop stays responsive).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Analyzer, InspectWorker, type Log } from '../../src/extension/analyzer';
import { handle } from '../../src/extension/worker';
import { Lru, type WorkerInspectResult, type WorkerSnapshotResult } from '../../src/extension/logic/workerProtocol';
import { analyseInWorker, DEFAULT_INLINE_MAX_WORK, sceneWorkload } from '../../src/extension/logic/workload';
import { parseScene, Simulation } from '../../src/engine';

function chainScene(n: number): string {
  const bodies = [];
  const constraints = [];
  for (let i = 0; i < n; i++) bodies.push({ name: `B${i}`, mass: 1 + (i % 3), inertia: [0.1, 0.1, 0.1], position: [i + 1, 0, 0] });
  constraints.push({ name: 'c0', type: 'ball', bodyA: 'world', bodyB: 'B0', anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0] });
  for (let i = 1; i < n; i++) constraints.push({ name: `c${i}`, type: i % 2 ? 'hinge' : 'ball', bodyA: `B${i - 1}`, bodyB: `B${i}`, anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0] });
  return `// generated chain\n${JSON.stringify({ name: `chain ${n}`, solver: { dt: 0.01, steps: 100 }, bodies, constraints }, null, 1)}`;
}

const quietLog: Log & { errors: string[] } = {
  errors: [],
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error(m: string) {
    this.errors.push(m);
  },
} as Log & { errors: string[] };

test('worker handle: inspect returns a cloneable result with diagnostics', () => {
  const r = handle({ id: 1, kind: 'inspect', text: chainScene(3) });
  assert.equal(r.ok, true);
  if (!r.ok) return;
  const res = r.result as WorkerInspectResult;
  assert.ok(res.snapshot);
  assert.equal(res.snapshot.rank.rows, 3 + 5 + 3);
  assert.ok(Array.isArray(res.diagnostics));
  structuredClone(r); // what postMessage does
});

test('worker handle: a broken scene answers ok with errors, never throws', () => {
  const r = handle({ id: 2, kind: 'inspect', text: '{ "bodies": [ { "name": 1 } ' });
  assert.equal(r.ok, true);
  if (r.ok) assert.equal((r.result as WorkerInspectResult).hasErrors, true);
});

test('worker replica snapshots equal the host simulation (determinism)', () => {
  const text = chainScene(4);
  const p = parseScene(text);
  const sim = new Simulation(p.scene!, p.sourceMap);
  sim.step(12);
  for (const k of [12, 5, 7]) {
    const r = handle({ id: 3, kind: 'snapshot', key: 'k', version: 1, text, step: k });
    assert.equal(r.ok, true);
    if (!r.ok) return;
    const w = (r.result as WorkerSnapshotResult).snapshot!;
    const h = sim.snapshotAt(k);
    assert.equal(w.step, k);
    assert.deepEqual(Array.from(w.lambda), Array.from(h.lambda));
    assert.deepEqual(Array.from(w.C), Array.from(h.C));
    assert.deepEqual(w.bodyStates.map((b) => b.position), h.bodyStates.map((b) => b.position));
  }
  // a step beyond the replica's run is clamped to what was reached (here: stepped to it)
  const r = handle({ id: 4, kind: 'snapshot', key: 'k', version: 1, text, step: 20 });
  assert.equal(r.ok && (r.result as WorkerSnapshotResult).snapshot!.step, 20);
});

test('LRU keeps the most recently used entries', () => {
  const l = new Lru<string, number>(2);
  l.set('a', 1);
  l.set('b', 2);
  l.get('a');
  l.set('c', 3);
  assert.equal(l.get('b'), undefined);
  assert.equal(l.get('a'), 1);
  assert.equal(l.get('c'), 3);
  assert.equal(l.size, 2);
});

test('analyzer: a 100-body scene is analysed in the worker, latest version wins, the solve never runs on the host', { timeout: 60_000 }, async () => {
  // A CommonJS shim that loads the TypeScript worker through tsx (the extension runs dist/worker.js).
  const shim = join(mkdtempSync(join(tmpdir(), 'cl-worker-')), 'worker-shim.cjs');
  writeFileSync(shim, `require(${JSON.stringify(require.resolve('tsx/cjs'))});\nrequire(${JSON.stringify(resolve(__dirname, '../../src/extension/worker.ts'))});\n`);
  const worker = new InspectWorker(shim, quietLog);
  const analyzer = new Analyzer(worker, quietLog, () => ({ inlineMaxBodies: 20, useWorker: true }));
  try {
    const text = chainScene(100);
    // warm up the worker (module load, JIT)
    assert.ok(await analyzer.analyze('doc', 0, text));
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    // one analysis (what a debounced edit triggers)
    let t0 = performance.now();
    const one = await analyzer.analyze('doc', 1, text);
    const oneMs = performance.now() - t0;
    const oneGap = maxGap;
    assert.ok(one?.snapshot);
    // Load-independent: the solve of a large scene ran in the worker, never on the host thread
    // (the event-loop gap and the time are printed, not asserted: they measure the machine's load).
    assert.equal(analyzer.stats.lastWhere, 'worker');
    maxGap = 0;
    t0 = performance.now();
    // typing: five versions in quick succession; only the last one may produce a result
    const results = await Promise.all([2, 3, 4, 5, 6].map((v) => analyzer.analyze('doc', v, text.replace('chain 100', `chain 100 v${v - 1}`))));
    const elapsed = performance.now() - t0;
    clearInterval(timer);
    assert.deepEqual(results.map((r) => r !== undefined), [false, false, false, false, true]);
    assert.equal(results[4]!.parse.scene!.name, 'chain 100 v5');
    assert.equal(results[4]!.snapshot!.rank.rows, 100 * 4);
    assert.equal(analyzer.stats.lastWhere, 'worker');
    // The solve runs in the worker (and the host does not parse a version the worker analyses).
    console.log(`    100 bodies: one analysis ${oneMs.toFixed(0)} ms (longest event-loop gap ${oneGap.toFixed(0)} ms); latest of 5 back-to-back versions ${elapsed.toFixed(0)} ms (gap ${maxGap.toFixed(0)} ms), worker restarts ${worker.restarts}`);
    assert.deepEqual(quietLog.errors, []);
  } finally {
    analyzer.dispose();
    worker.dispose();
  }
});

test('analyzer: small scenes are analysed inline; stale results are dropped', async () => {
  const worker = new InspectWorker('/nonexistent/worker.js', quietLog);
  const analyzer = new Analyzer(worker, quietLog, () => ({ inlineMaxBodies: 20, useWorker: true }));
  const a = analyzer.analyze('x', 1, chainScene(2));
  const b = analyzer.analyze('x', 2, chainScene(3));
  assert.equal((await a)?.parse.scene?.bodies.length, 2); // inline: finished before the next request began
  const rb = await b;
  assert.equal(rb?.parse.scene?.bodies.length, 3);
  assert.equal(analyzer.stats.lastWhere, 'host');
  const big = await analyzer.analyze('y', 1, chainScene(25)); // worker unavailable → inline fallback
  assert.equal(big?.parse.scene?.bodies.length, 25);
  assert.equal(analyzer.stats.lastWhere, 'host');
  analyzer.dispose();
});

test('workload: the worker is chosen by the work (rows × columns + rows² per island), not the body count alone', () => {
  const oneBody = (m: number) =>
    parseScene(JSON.stringify({ bodies: [{ name: 'B', mass: 1 }], constraints: Array.from({ length: m }, (_, i) => ({ type: 'distance', bodyA: 'world', bodyB: 'B', anchorA: [Math.cos(i), Math.sin(i), 1] })) })).scene;
  const opt = { inlineMaxBodies: 20, inlineMaxWork: DEFAULT_INLINE_MAX_WORK };
  // one body, 5000 distance rows: 5000·6 + 5000² — the worker, although it is a single body
  const tall = sceneWorkload(oneBody(5000));
  assert.deepEqual({ bodies: tall.bodies, rows: tall.rows, dofs: tall.dofs }, { bodies: 1, rows: 5000, dofs: 6 });
  assert.equal(tall.work, 5000 * 6 + 5000 ** 2);
  assert.equal(analyseInWorker(tall, opt), true);
  // one body, a handful of rows: inline
  const small = sceneWorkload(oneBody(10));
  assert.equal(small.work, 10 * 6 + 100);
  assert.equal(analyseInWorker(small, opt), false);
  // a 20-link chain of ball and hinge joints: 3 + 10·5 + 9·3 = 80 rows on 120 columns (one island), inline; 30 links: the worker
  const chain20 = sceneWorkload(parseScene(chainScene(20)).scene);
  assert.equal(chain20.work, 80 * 120 + 80 * 80);
  assert.equal(analyseInWorker(chain20, opt), false);
  assert.equal(analyseInWorker(sceneWorkload(parseScene(chainScene(30)).scene), opt), true);
  // islands add up separately: two bodies each on its own rods are two islands of 6 columns
  const two = parseScene(JSON.stringify({ bodies: [{ name: 'A', mass: 1 }, { name: 'B', mass: 1 }], constraints: [{ type: 'ball', bodyA: 'world', bodyB: 'A' }, { type: 'hinge', bodyA: 'world', bodyB: 'B' }] })).scene;
  assert.equal(sceneWorkload(two).work, 3 * 6 + 9 + 5 * 6 + 25);
  // more bodies than inlineMaxBodies still goes to the worker; a lock counts its locked axes
  assert.equal(analyseInWorker({ bodies: 21, rows: 0, dofs: 126, work: 0 }, opt), true);
  const lock = parseScene(JSON.stringify({ bodies: [{ name: 'A', mass: 1 }], constraints: [{ type: 'lock', bodyA: 'world', bodyB: 'A', linear: [true, false, true], angular: [false, false, true] }] })).scene;
  assert.equal(sceneWorkload(lock).rows, 3);
  assert.equal(sceneWorkload(undefined).work, 0);
});
