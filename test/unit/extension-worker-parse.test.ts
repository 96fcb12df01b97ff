// A large scene analysed in the worker: the host takes the parse from the worker's reply (plain
// data) and makes the SourceMap from the text only when a range is asked for. Everything must be
// what parsing on the host gave: the scene, the diagnostics, every range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Analyzer, InspectWorker, parseFromWorker, type Log } from '../../src/extension/analyzer';
import { handle } from '../../src/extension/worker';
import { lazySourceMap, sourceMapSeed } from '../../src/extension/logic/lazySourceMap';
import type { WorkerInspectResult } from '../../src/extension/logic/workerProtocol';
import { parseScene, type JsonPath, type SourceMap } from '../../src/engine';

/** A chain with comments, an unknown body (CL201) and an unknown field, so that diagnostics and fixes are there. */
function scene(n: number, broken: boolean): string {
  const bodies = [];
  const constraints = [];
  for (let i = 0; i < n; i++) bodies.push({ name: `B${i}`, mass: 1, inertia: [0.1, 0.1, 0.1], position: [i + 1, 0, 0], ...(i === 3 ? { colour: 'red' } : {}) });
  constraints.push({ name: 'c0', type: 'ball', bodyA: 'world', bodyB: 'B0', anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0] });
  for (let i = 1; i < n; i++) constraints.push({ name: `c${i}`, type: 'ball', bodyA: `B${i - 1}`, bodyB: broken && i === 7 ? `B${i}x` : `B${i}`, anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0] });
  return `// a chain\n/* of ${n} */ ${JSON.stringify({ name: `chain ${n}`, solver: { dt: 0.01, steps: 50 }, bodies, constraints }, null, 2)}\n`;
}

const PATHS: JsonPath[] = [[], ['bodies'], ['bodies', 0], ['bodies', 3, 'colour'], ['bodies', 5, 'position', 1], ['constraints', 7, 'bodyB'], ['constraints', 99], ['nope', 'x'], ['solver', 'steps']];

function assertSameMap(a: SourceMap, b: SourceMap, text: string): void {
  const items: JsonPath[] = [];
  for (const g of ['bodies', 'constraints']) for (let i = 0; i < 45; i++) items.push([g, i]);
  for (const p of [...PATHS, ...items]) {
    assert.deepEqual(a.rangeOf(p), b.rangeOf(p), `rangeOf ${JSON.stringify(p)}`);
    assert.deepEqual(a.keyRangeOf(p), b.keyRangeOf(p), `keyRangeOf ${JSON.stringify(p)}`);
    assert.deepEqual(a.nodeSpan(p), b.nodeSpan(p), `nodeSpan ${JSON.stringify(p)}`);
  }
  for (const o of [0, 1, 17, text.length >> 1, text.length]) assert.deepEqual(a.positionAt(o), b.positionAt(o));
  assert.equal(a.text, b.text);
}

test('lazySourceMap: the root and the items need no parse; anything else parses once and answers as the real map', () => {
  const text = scene(12, true);
  const ref = parseScene(text);
  const real = ref.sourceMap;
  let parses = 0;
  const lazy = lazySourceMap(text, structuredClone(sourceMapSeed(real, ref.scene)), (t) => {
    parses++;
    return parseScene(t).sourceMap;
  });
  assert.deepEqual(lazy.rangeOf([]), real.rangeOf([]));
  assert.equal(lazy.text, text);
  // what the CodeLens, the tree's icons, the inspector's reveal and the cursor's selection ask for
  for (const g of ['bodies', 'constraints'] as const) {
    assert.deepEqual(lazy.nodeSpan([g]), real.nodeSpan([g]));
    for (const it of ref.scene![g]) {
      assert.deepEqual(lazy.rangeOf([g, it.index]), real.rangeOf([g, it.index]));
      assert.deepEqual(lazy.nodeSpan([g, it.index]), real.nodeSpan([g, it.index]));
    }
  }
  // a returned range is the caller's to keep
  lazy.rangeOf([]).start.line = 99;
  assert.deepEqual(lazy.rangeOf([]), real.rangeOf([]));
  assert.equal(parses, 0, 'the seeded ranges need no parse');
  assertSameMap(lazy, real, text);
  assert.equal(parses, 1);
});

test('worker reply → parse: the scene, diagnostics and SourceMap equal parseScene on the host', () => {
  for (const text of [scene(12, true), scene(5, false), '{ "bodies": [ { "name": 1 } ', '', '[1, 2]']) {
    const r = handle({ id: 1, kind: 'inspect', text });
    assert.equal(r.ok, true);
    if (!r.ok) return;
    const w = structuredClone(r.result as WorkerInspectResult); // what postMessage does
    assert.ok(w.parse, 'the worker sends its parse');
    const p = parseFromWorker(text, w.parse);
    const ref = parseScene(text);
    assert.deepEqual(p.scene, ref.scene);
    assert.deepEqual(p.diagnostics, ref.diagnostics);
    assert.equal(p.hasErrors, ref.hasErrors);
    assertSameMap(p.sourceMap, ref.sourceMap, text);
  }
});

const quietLog: Log & { errors: string[] } = { errors: [], trace() {}, debug() {}, info() {}, warn() {}, error(m: string) { this.errors.push(m); } } as Log & { errors: string[] };

test('analyzer: a large scene analysed again in the worker gives the result inline analysis gives', { timeout: 60_000 }, async () => {
  const shim = join(mkdtempSync(join(tmpdir(), 'cl-worker-')), 'worker-shim.cjs');
  writeFileSync(shim, `require(${JSON.stringify(require.resolve('tsx/cjs'))});\nrequire(${JSON.stringify(resolve(__dirname, '../../src/extension/worker.ts'))});\n`);
  const worker = new InspectWorker(shim, quietLog);
  const analyzer = new Analyzer(worker, quietLog, () => ({ inlineMaxBodies: 20, useWorker: true }));
  const inline = new Analyzer(new InspectWorker('/nonexistent/worker.js', quietLog), quietLog, () => ({ inlineMaxBodies: 20, useWorker: false }));
  try {
    const first = await analyzer.analyze('doc', 1, scene(40, false));
    assert.equal(analyzer.stats.lastWhere, 'worker');
    assert.ok(first?.snapshot);
    // the next version: the host does not parse it; the worker's parse comes back
    const text = scene(40, true);
    const r = await analyzer.analyze('doc', 2, text);
    assert.equal(analyzer.stats.lastWhere, 'worker');
    const ref = await inline.analyze('doc', 2, text);
    assert.ok(r && ref);
    assert.deepEqual(r.parse.scene, ref.parse.scene);
    assert.deepEqual(r.parse.diagnostics, ref.parse.diagnostics);
    assert.deepEqual(r.diagnostics, ref.diagnostics);
    assert.ok(r.diagnostics.some((d) => d.code.startsWith('CL201') && /B7x/.test(d.message)));
    assertSameMap(r.parse.sourceMap, ref.parse.sourceMap, text);
    // a scene that shrank below the threshold goes back to the host on the version after
    await analyzer.analyze('doc', 3, scene(4, false));
    assert.equal(analyzer.stats.lastWhere, 'worker');
    await analyzer.analyze('doc', 4, scene(4, true));
    assert.equal(analyzer.stats.lastWhere, 'host');
    assert.deepEqual(quietLog.errors, []);
  } finally {
    analyzer.dispose();
    inline.dispose();
    worker.dispose();
  }
});
