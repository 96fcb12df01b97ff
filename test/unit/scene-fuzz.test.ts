// Property tests of parseScene: it never throws, every range lies within the text, fixes apply,
// and the returned scene is always self-consistent (on random scene-shaped JSON, on random
// mutations and truncations of the examples, and on random valid scenes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseScene } from '../../src/engine/scene/parse';
import { applyTextEdits } from '../../src/engine/scene/text';
import { Codes } from '../../src/engine/core/codes';
import type { Range } from '../../src/engine/types';
import type { ParseResult } from '../../src/engine/scene/spec';

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const exampleTexts = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.scene.json'))
  .sort()
  .map((f) => readFileSync(join(EXAMPLES, f), 'utf8'));

function checkRange(lines: string[], r: Range, what: string): void {
  const ok = (p: { line: number; character: number }) =>
    Number.isInteger(p.line) && Number.isInteger(p.character) && p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length;
  assert.ok(ok(r.start) && ok(r.end), `${what}: ${JSON.stringify(r)} outside the text`);
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: reversed ${JSON.stringify(r)}`);
}

const before = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);

/** All the invariants of a parse result. */
function checkResult(text: string, r: ParseResult): void {
  const lines = text.split(/\r\n|\r|\n/);
  assert.equal(r.hasErrors, r.diagnostics.some((d) => d.severity === 'error'));
  let reparsed = 0;
  for (let i = 0; i < r.diagnostics.length; i++) {
    const d = r.diagnostics[i];
    assert.notEqual(d.code, Codes.internalError, `internal error: ${d.message}`);
    assert.ok(d.code.startsWith('CL0') || d.code.startsWith('CL1') || d.code.startsWith('CL2'), d.code);
    assert.ok(d.message.length > 0);
    checkRange(lines, d.range, `${d.code} range`);
    if (i > 0) assert.ok(before(r.diagnostics[i - 1].range.start, d.range.start), 'diagnostics not sorted');
    for (const rel of d.related ?? []) checkRange(lines, rel.range, `${d.code} related`);
    for (const f of d.fixes ?? []) {
      const spans = f.edits.map((e) => {
        checkRange(lines, e.range, `${d.code} fix '${f.title}'`);
        return e.range;
      });
      spans.sort((a, b) => a.start.line - b.start.line || a.start.character - b.start.character);
      for (let k = 1; k < spans.length; k++) assert.ok(before(spans[k - 1].end, spans[k].start), `overlapping edits in '${f.title}'`);
      // A fix applies; the first few fixed texts are parsed again (bounded, to keep the test fast).
      const fixed = applyTextEdits(text, f.edits);
      if (reparsed++ < 3) assert.equal(typeof parseScene(fixed).hasErrors, 'boolean');
    }
  }
  const s = r.scene;
  if (!s) return;
  const finite = (xs: readonly number[]) => xs.every(Number.isFinite);
  const names = new Set<string>();
  let lastIndex = -1;
  for (const b of s.bodies) {
    assert.ok(b.index > lastIndex, 'body indices increase');
    lastIndex = b.index;
    assert.ok(!names.has(b.name) && b.name !== 'world' && b.name !== '', `body name ${b.name}`);
    names.add(b.name);
    assert.ok(b.mass > 0 && Number.isFinite(b.mass));
    assert.ok(finite(b.inertia) && finite(b.position) && finite(b.velocity) && finite(b.angularVelocity) && finite(b.force) && finite(b.torque));
    assert.ok(Math.abs(Math.hypot(...b.orientation) - 1) < 1e-12, 'orientation is a unit quaternion');
    assert.ok(b.inertia[0] > 0 && b.inertia[4] > 0 && b.inertia[8] > 0);
  }
  lastIndex = -1;
  for (const c of s.constraints) {
    assert.ok(c.index > lastIndex, 'constraint indices increase');
    lastIndex = c.index;
    for (const end of [c.bodyA, c.bodyB]) assert.ok(end === 'world' || names.has(end), `constraint ${c.name} refers to ${end}`);
    assert.notEqual(c.bodyA, c.bodyB);
    assert.ok(finite(c.anchorA) && finite(c.anchorB));
    if (c.type === 'distance') assert.ok(c.length !== undefined && c.length > 0 && Number.isFinite(c.length));
    for (const ax of [c.axisA, c.axisB]) if (ax) assert.ok(Math.abs(Math.hypot(...ax) - 1) < 1e-12);
  }
  assert.ok(Number.isFinite(s.solver.dt) && s.solver.dt > 0 && Number.isInteger(s.solver.steps));
}

function run(text: string): void {
  let r: ParseResult;
  try {
    r = parseScene(text);
  } catch (e) {
    assert.fail(`parseScene threw on ${JSON.stringify(text.slice(0, 200))}: ${String(e)}`);
  }
  checkResult(text, r);
}

// ---------------------------------------------------------------- arbitraries

const NAMES = ['A', 'B', 'C', 'world', 'Arm', ''];
const num = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e3, max: 1e3 }),
  fc.constantFrom(0, -0, 1, -1, 1e308, 1e-320),
  fc.integer({ min: -3, max: 3 }),
);
const anyJson = fc.jsonValue({ maxDepth: 2 });
const vec = (n: number) => fc.oneof({ weight: 4, arbitrary: fc.array(num, { minLength: n, maxLength: n }) }, { weight: 1, arbitrary: fc.array(num, { maxLength: n + 1 }) }, { weight: 1, arbitrary: anyJson });

const bodyArb = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 4 }), anyJson),
    mass: fc.oneof(num, anyJson),
    inertia: fc.oneof(vec(3), fc.array(fc.array(num, { minLength: 3, maxLength: 3 }), { minLength: 3, maxLength: 3 })),
    position: vec(3),
    orientation: vec(4),
    velocity: vec(3),
    gravity: fc.oneof(fc.boolean(), anyJson),
    fixed: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.boolean() }),
    extra: anyJson,
  },
  { requiredKeys: [] },
);

const constraintArb = fc.record(
  {
    name: fc.oneof(fc.constantFrom('rod', 'j', 'ball0', 'distance1'), anyJson),
    type: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('distance', 'ball', 'hinge', 'fixed', 'slider', 'lock') }, { weight: 1, arbitrary: anyJson }),
    bodyA: fc.oneof(fc.constantFrom(...NAMES), anyJson),
    bodyB: fc.oneof(fc.constantFrom(...NAMES), anyJson),
    anchorA: vec(3),
    anchorB: vec(3),
    length: fc.oneof(num, anyJson),
    axisA: vec(3),
    axisB: vec(3),
    linear: fc.oneof(fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), anyJson),
    angular: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    lenght: num,
  },
  { requiredKeys: [] },
);

const solverArb = fc.record(
  {
    dt: fc.oneof(num, anyJson),
    steps: fc.oneof(num, anyJson),
    stabilization: fc.oneof(fc.constantFrom('aerislab', 'baumgarte', 'none', 'bogus'), anyJson),
    method: fc.constantFrom('auto', 'cholesky', 'lu', 'lstsq', 'qr'),
    erp: num,
  },
  { requiredKeys: [] },
);

const sceneArb = fc.record(
  {
    name: fc.oneof(fc.string(), anyJson),
    gravity: vec(3),
    solver: fc.oneof({ weight: 4, arbitrary: solverArb }, { weight: 1, arbitrary: anyJson }),
    bodies: fc.oneof({ weight: 6, arbitrary: fc.array(fc.oneof({ weight: 6, arbitrary: bodyArb }, { weight: 1, arbitrary: anyJson }), { maxLength: 5 }) }, { weight: 1, arbitrary: anyJson }),
    constraints: fc.array(fc.oneof({ weight: 6, arbitrary: constraintArb }, { weight: 1, arbitrary: anyJson }), { maxLength: 5 }),
  },
  { requiredKeys: [] },
);

/** Random byte-level edits: delete, insert, replace, duplicate; then maybe truncate. */
const ALPHABET = ['{', '}', '[', ']', '"', ',', ':', '/', '*', '\\', '\n', '\r', '\r\n', ' ', '0', '-', '1e', '.', 'e', 'x', 'true', 'null', '\u00e9', '\u2028', '\ufeff', '\t', '"world"', '"mass"'];
const mutationArb = fc.record({
  example: fc.nat({ max: exampleTexts.length - 1 }),
  ops: fc.array(
    fc.record({
      kind: fc.constantFrom('delete', 'insert', 'replace', 'duplicate'),
      at: fc.double({ min: 0, max: 1, noNaN: true }),
      len: fc.nat({ max: 12 }),
      what: fc.constantFrom(...ALPHABET),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  truncate: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { freq: 3 }),
});

function mutate(m: { example: number; ops: { kind: string; at: number; len: number; what: string }[]; truncate: number | null }): string {
  let t = exampleTexts[m.example];
  for (const op of m.ops) {
    const i = Math.min(t.length, Math.floor(op.at * t.length));
    if (op.kind === 'delete') t = t.slice(0, i) + t.slice(i + op.len);
    else if (op.kind === 'insert') t = t.slice(0, i) + op.what + t.slice(i);
    else if (op.kind === 'replace') t = t.slice(0, i) + op.what + t.slice(i + op.what.length);
    else t = t.slice(0, i) + t.slice(i, i + op.len * 4) + t.slice(i);
  }
  if (m.truncate !== null) t = t.slice(0, Math.floor(m.truncate * t.length));
  return t;
}

// ---------------------------------------------------------------- properties

test('fuzz: random scene-shaped JSON never throws and yields a consistent result', () => {
  fc.assert(
    fc.property(sceneArb, fc.constantFrom(0, 2), fc.boolean(), (scene, indent, comment) => {
      let text = JSON.stringify(scene, null, indent);
      if (comment) text = '// scene\n' + text.replace(/,/, ', /* c */');
      run(text);
    }),
    { numRuns: 200, seed: 1 },
  );
});

test('fuzz: mutations and truncations of the examples never throw', () => {
  assert.ok(exampleTexts.length > 0);
  fc.assert(
    fc.property(mutationArb, (m) => run(mutate(m))),
    { numRuns: 250, seed: 2 },
  );
  // Every prefix of one example (a file being typed).
  const t = exampleTexts[0];
  for (let i = 0; i <= t.length; i += 13) run(t.slice(0, i));
});

test('fuzz: random valid scenes parse without errors and keep every item', () => {
  const bodyCount = fc.integer({ min: 1, max: 5 });
  const arb = bodyCount.chain((n) =>
    fc.record({
      masses: fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), { minLength: n, maxLength: n }),
      fixedFirst: fc.boolean(),
      constraints: fc.array(
        fc.record({
          type: fc.constantFrom('distance', 'ball', 'hinge', 'fixed', 'slider', 'lock'),
          a: fc.integer({ min: -1, max: n - 1 }),
          b: fc.integer({ min: 0, max: n - 1 }),
          axis: fc.constantFrom([0, 0, 2], [1, 1, 0], [0, -3, 0]),
        }),
        { maxLength: 6 },
      ),
    }),
  );
  fc.assert(
    fc.property(arb, ({ masses, fixedFirst, constraints }) => {
      const bodies = masses.map((m, i) => ({ name: `B${i}`, mass: m, position: [i + 1, 0, 0], fixed: fixedFirst && i === 0 }));
      const fixedName = (k: number) => k < 0 || (fixedFirst && k === 0);
      const cons = constraints
        .filter((c) => c.a !== c.b && !(fixedName(c.a) && fixedName(c.b)))
        .map((c) => ({
          type: c.type,
          bodyA: c.a < 0 ? 'world' : `B${c.a}`,
          bodyB: `B${c.b}`,
          ...(c.type === 'hinge' ? { axisA: c.axis, axisB: c.axis } : {}),
          ...(c.type === 'slider' ? { axisA: c.axis } : {}),
          ...(c.type === 'lock' ? { linear: [true, false, false] } : {}),
        }));
      const text = JSON.stringify({ name: 'valid', bodies, constraints: cons }, null, 2);
      const r = parseScene(text);
      assert.deepEqual(r.diagnostics.filter((d) => d.severity !== 'information' && d.code !== Codes.duplicateConstraintName), []);
      assert.equal(r.scene!.bodies.length, bodies.length);
      assert.equal(r.scene!.constraints.length, cons.length);
      checkResult(text, r);
    }),
    { numRuns: 60, seed: 3 },
  );
});
