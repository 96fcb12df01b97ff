// The engine's limits on any input (src/engine/core/inputLimits.ts): text length, bodies, constraints,
// steps, the history cap; and the CLI's `--limits`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes, DEFAULT_LIMITS, inspectScene, parseLimits, parseScene, resolveLimits, Simulation, simulateScene } from '../../src/engine';
import { parseArgs } from '../../src/cli/args';
import { PRESCAN_CHARS, streamCountDiagnostics } from '../../src/engine/scene/limits';

const scene = (o: object) => JSON.stringify(o, null, 2);
const mass = (steps: number) => scene({ solver: { dt: 0.01, steps }, bodies: [{ name: 'a', mass: 1 }] });
const codes = (ds: readonly { code: string }[]) => ds.map((d) => d.code);

/** A scene of n bodies (one per line), `pad` characters of comment first. */
function manyBodies(n: number, pad = 0): string {
  const lines = [`{${pad > 0 ? ' // ' + 'x'.repeat(pad) : ''}`, '  "bodies": ['];
  for (let i = 0; i < n; i++) lines.push(`    { "name": "b${i}", "mass": 1 }${i + 1 < n ? ',' : ''}`);
  lines.push('  ]', '}');
  return lines.join('\n');
}

test('parseLimits reads name=N lists and refuses unknown names and bad numbers', () => {
  assert.deepEqual(parseLimits('steps=2e6, bodies=50000'), { steps: 2_000_000, bodies: 50_000 });
  assert.throws(() => parseLimits('step=10'), /unknown limit 'step'/);
  assert.throws(() => parseLimits('steps=0'), /whole number ≥ 1/);
  assert.throws(() => parseLimits('steps=1.5'), /whole number ≥ 1/);
  assert.throws(() => parseLimits('steps'), /whole number ≥ 1/);
  assert.deepEqual(resolveLimits({ steps: 5, bodies: -1 }), { ...DEFAULT_LIMITS, steps: 5 });
});

test('a text over the length limit is refused before parsing, on its first line', () => {
  const text = mass(10);
  const r = parseScene(text, { text: text.length - 1 });
  assert.equal(r.scene, undefined);
  assert.deepEqual(codes(r.diagnostics), [Codes.fileTooLarge]);
  assert.deepEqual(r.diagnostics[0].range, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } });
  assert.match(r.diagnostics[0].message, /--limits text=N/);
  assert.equal(parseScene(text, { text: text.length }).scene?.bodies.length, 1);
});

test('more bodies than the limit: CL008 on the first body past it, the scene is not analysed', () => {
  const r = inspectScene(manyBodies(5), { limits: { bodies: 3 } });
  assert.equal(r.snapshot, undefined);
  assert.ok(r.hasErrors);
  assert.deepEqual(codes(r.diagnostics), [Codes.tooManyBodies]);
  // body index 3 is on line 2 + 3 = 5 (0-based)
  assert.equal(r.diagnostics[0].range.start.line, 5);
  assert.match(r.diagnostics[0].message, /5 bodies, above the limit of 3/);
  assert.equal(inspectScene(manyBodies(3), { limits: { bodies: 3 } }).hasErrors, false);
});

test('more constraints than the limit: CL009', () => {
  const cons = Array.from({ length: 4 }, (_, i) => ({ name: `d${i}`, type: 'distance', bodyA: 'world', bodyB: 'a', anchorA: [i, 0, 1] }));
  const r = parseScene(scene({ bodies: [{ name: 'a', mass: 1 }], constraints: cons }), { constraints: 2 });
  assert.equal(r.scene, undefined);
  assert.deepEqual(codes(r.diagnostics), [Codes.tooManyConstraints]);
});

test('large texts are counted by streaming: the same first item as the syntax tree gives, without reading the rest', () => {
  const lim = { ...DEFAULT_LIMITS, bodies: 1000 };
  const first = { start: { line: 1002, character: 4 }, end: { line: 1002, character: 34 } };
  const streamed = streamCountDiagnostics(manyBodies(2000), lim);
  assert.deepEqual(codes(streamed), [Codes.tooManyBodies]);
  assert.deepEqual(streamed[0].range, first);
  assert.match(streamed[0].message, /more bodies than the limit of 1,000/);
  assert.deepEqual(streamCountDiagnostics(manyBodies(2000), DEFAULT_LIMITS), []);
  // the syntax tree (texts up to PRESCAN_CHARS) finds the same item and also knows the count
  const tree = parseScene(manyBodies(2000), { bodies: 1000 });
  assert.deepEqual(tree.diagnostics[0].range, first);
  assert.match(tree.diagnostics[0].message, /2,000 bodies, above the limit of 1,000/);
  // past PRESCAN_CHARS (a raised text limit) the parser streams first and stops at that item
  const text = manyBodies(2000, PRESCAN_CHARS);
  const r = parseScene(text, { bodies: 1000, text: 2 * PRESCAN_CHARS });
  assert.equal(r.scene, undefined);
  assert.deepEqual(codes(r.diagnostics), [Codes.tooManyBodies]);
  assert.deepEqual(r.diagnostics[0].range, first);
});

test('a 50 MB scene of about 500 000 bodies: CL007 by default, CL008 with the text limit raised', () => {
  const body = '{ "name": "body_000000", "mass": 1, "position": [0.125, 0.25, 0.5], "inertia": [1, 1, 1] },\n';
  const text = '{ "bodies": [\n' + body.repeat(500_000) + '{ "name": "last", "mass": 1 }\n] }';
  assert.ok(text.length > 45e6);
  const r = inspectScene(text);
  assert.deepEqual(codes(r.diagnostics), [Codes.fileTooLarge]);
  const raised = inspectScene(text, { limits: { text: 1e8 } });
  assert.deepEqual(codes(raised.diagnostics), [Codes.tooManyBodies]);
  assert.equal(raised.diagnostics[0].range.start.line, 1 + DEFAULT_LIMITS.bodies);
  assert.equal(raised.snapshot, undefined);
});

test('solver.steps above the limit: CL010 on solver.steps, clamped; a run stops at the limit', () => {
  const r = parseScene(mass(1e12));
  assert.deepEqual(codes(r.diagnostics), [Codes.tooManySteps]);
  assert.equal(r.diagnostics[0].range.start.line, 3);
  assert.equal(r.scene?.solver.steps, DEFAULT_LIMITS.steps);
  assert.equal(r.hasErrors, false);
  const run = simulateScene(mass(1e12), undefined, undefined, { limits: { steps: 7 } });
  assert.equal(run.result?.steps.length, 7);
  // steps asked for by the caller (the CLI's --steps)
  const asked = simulateScene(mass(5), 20, undefined, { limits: { steps: 8 } });
  assert.equal(asked.result?.steps.length, 8);
  assert.ok(asked.inspect.diagnostics.some((d) => d.code === Codes.tooManySteps && /20 steps/.test(d.message)));
});

test('the history is capped: CL405 when the next record would pass it; the kept steps stay inspectable', () => {
  const p = parseScene(mass(100));
  // a record of this scene: 32 + 0 (C) + 0 (λ) + 7 (pose) = 39 numbers
  const sim = new Simulation(p.scene!, p.sourceMap, { limits: { history: 39 * 10 + 5 } });
  sim.step(50);
  assert.equal(sim.currentStep, 10);
  assert.ok(sim.stopped && sim.historyFull);
  assert.deepEqual(codes(sim.diagnostics), [Codes.historyFull]);
  assert.equal(sim.diagnostics[0].severity, 'information');
  assert.equal(sim.step(5).length, 0);
  const res = sim.result();
  assert.equal(res.historyFullAt, 10);
  assert.equal(res.stoppedAt, undefined);
  assert.equal(sim.snapshotAt(10).step, 10);
  sim.reset();
  assert.ok(!sim.historyFull);
  assert.equal(sim.step(3).length, 3);
});

test('CLI: --limits is parsed for every command and refused when malformed', () => {
  assert.deepEqual((parseArgs(['inspect', 'x.scene.json', '--limits', 'bodies=5', '--limits', 'steps=9']) as { limits: object }).limits, { bodies: 5, steps: 9 });
  assert.throws(() => parseArgs(['simulate', 'x.scene.json', '--limits', 'nope=1']), /--limits: unknown limit/);
});
