// Scene parsing and validation: defaults, every diagnostic with its exact range, and the quick fixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScene } from '../../src/engine/scene/parse';
import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import { LineIndex, applyTextEdits, removePropertyEdit } from '../../src/engine/scene/text';
import { DEFAULT_SOLVER } from '../../src/engine/scene/fields';
import { Codes } from '../../src/engine/core/codes';
import type { Diagnostic, Fix, Range } from '../../src/engine/types';
import type { ParseResult } from '../../src/engine/scene/spec';

// ---------------------------------------------------------------- helpers

const EXAMPLES = join(__dirname, '..', '..', 'examples');

/**
 * The range of the `nth` occurrence of `needle` in `text` (only its first `length` characters when
 * given), computed independently of the parser.
 */
function find(text: string, needle: string, nth = 0, length = needle.length): Range {
  let at = -1;
  for (let k = 0; k <= nth; k++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `'${needle}' (#${nth}) not in the text`);
  }
  const pos = (o: number) => {
    const before = text.slice(0, o).split(/\r\n|\r|\n/);
    return { line: before.length - 1, character: before[before.length - 1].length };
  };
  return { start: pos(at), end: pos(at + length) };
}

function only(r: ParseResult, code: string): Diagnostic {
  const ds = r.diagnostics.filter((d) => d.code === code);
  assert.equal(ds.length, 1, `expected one ${code}, got: ${JSON.stringify(r.diagnostics.map((d) => [d.code, d.message]), null, 1)}`);
  return ds[0];
}

function codes(r: ParseResult): string[] {
  return r.diagnostics.map((d) => d.code);
}

function fix(d: Diagnostic, titleStart: string): Fix {
  const f = d.fixes?.find((x) => x.title.startsWith(titleStart));
  assert.ok(f, `no fix '${titleStart}…' in ${JSON.stringify(d.fixes?.map((x) => x.title))}`);
  return f;
}

const apply = (text: string, f: Fix): string => applyTextEdits(text, f.edits);

/** A scene with the given bodies and constraints, one item per line. */
function sceneText(bodies: string[], constraints: string[] = [], extra = ''): string {
  return `{\n${extra}  "bodies": [\n${bodies.map((b) => '    ' + b).join(',\n')}\n  ],\n  "constraints": [\n${constraints.map((c) => '    ' + c).join(',\n')}\n  ]\n}\n`;
}

const A = '{ "name": "A", "mass": 1, "position": [0, 0, 0] }';
const B = '{ "name": "B", "mass": 2, "position": [1, 0, 0] }';

// ---------------------------------------------------------------- examples and defaults

test('every example parses without any diagnostic', () => {
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.scene.json'));
  assert.ok(files.length >= 3);
  for (const f of files) {
    const r = parseScene(readFileSync(join(EXAMPLES, f), 'utf8'));
    assert.deepEqual(r.diagnostics, [], f);
    assert.equal(r.hasErrors, false);
    // something to inspect: constraints, or shapes (the contact examples)
    const shapes = r.scene ? r.scene.world.shapes.length + r.scene.bodies.reduce((n, b) => n + b.shapes.length, 0) : 0;
    assert.ok(r.scene && r.scene.bodies.length >= 1 && (r.scene.constraints.length >= 1 || shapes >= 1), f);
  }
});

test('hanging-mass example: values and defaults', () => {
  const r = parseScene(readFileSync(join(EXAMPLES, 'hanging-mass.scene.json'), 'utf8'));
  const s = r.scene!;
  assert.equal(s.name, 'Hanging mass');
  assert.deepEqual(s.gravity, [0, 0, -9.81]);
  assert.deepEqual(s.solver, { ...DEFAULT_SOLVER, dt: 0.01, steps: 100, alpha: 5, beta: 1 });
  assert.deepEqual(s.bodies[0], {
    index: 0,
    name: 'Ceiling_Anchor',
    mass: 1e6,
    inertia: [1e6, 0, 0, 0, 1e6, 0, 0, 0, 1e6],
    position: [0, 0, 2],
    orientation: [0, 0, 0, 1],
    velocity: [0, 0, 0],
    angularVelocity: [0, 0, 0],
    force: [0, 0, 0],
    torque: [0, 0, 0],
    gravity: false,
    fixed: false,
    shapes: [],
  });
  assert.equal(s.bodies[1].gravity, true);
  assert.deepEqual(s.constraints, [
    { index: 0, name: 'rod', type: 'distance', bodyA: 'Ceiling_Anchor', bodyB: 'Hanging_Mass', anchorA: [0, 0, 0], anchorB: [0, 0, 0], length: 2 },
  ]);
});

test('minimal scene: every default filled in', () => {
  const r = parseScene('{ "bodies": [ { "name": "A", "mass": 3 } ] }');
  assert.deepEqual(r.diagnostics, []);
  const s = r.scene!;
  assert.equal(s.name, 'Untitled scene');
  assert.deepEqual(s.gravity, [0, 0, -9.81]);
  assert.deepEqual(s.solver, {
    dt: 0.01,
    steps: 100,
    alpha: 0,
    beta: 0,
    stabilization: 'aerislab',
    formulation: 'acceleration',
    coordinates: 'twist',
    integrator: 'euler',
    erp: 0.2,
    compliance: 0,
    method: 'auto',
    conditionWarning: 1e6,
    violationTolerance: 1e-6,
    driftTolerance: 1e-3,
    contacts: { enabled: false, margin: 0, level: 'velocity', jointedCollide: false, penetrationTolerance: 1e-3, frictionRule: 'geometric' },
    newton: { maxIterations: 20, tolerance: 1e-10, lineSearch: true },
    regularization: 1e-6,
    fb: { alpha: 1, beta: 1 },
    pgs: { iterations: 100, tolerance: 1e-10, slop: 1e-5 },
  });
  assert.deepEqual(s.world, { shapes: [] });
  assert.notEqual(s.solver.contacts, DEFAULT_SOLVER.contacts, 'every scene gets its own settings objects');
  assert.deepEqual(s.bodies[0].inertia, [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  assert.deepEqual(s.bodies[0].orientation, [0, 0, 0, 1]);
  assert.equal(s.bodies[0].fixed, false);
  assert.deepEqual(s.constraints, []);
});

test('constraint defaults: names, length from the rotated anchors, axes, masks', () => {
  const s2 = Math.SQRT1_2;
  const text = sceneText(
    [A, `{ "name": "R", "mass": 1, "position": [3, 0, 0], "orientation": [0, 0, ${s2}, ${s2}] }`],
    [
      '{ "type": "ball", "bodyA": "A", "bodyB": "R" }',
      // R is rotated 90° about z: its anchor [1,0,0] is at [3,1,0] in the world.
      '{ "type": "distance", "bodyA": "world", "bodyB": "R", "anchorA": [0, 1, 0], "anchorB": [1, 0, 0] }',
      '{ "type": "hinge", "bodyA": "A", "bodyB": "R", "axisB": [0, 2, 0] }',
      '{ "type": "slider", "bodyA": "A", "bodyB": "world" }',
      '{ "type": "lock", "bodyA": "A", "bodyB": "world", "angular": [true, false, true] }',
      '{ "type": "fixed", "name": "weld", "bodyA": "A", "bodyB": "R" }',
    ],
  );
  const r = parseScene(text);
  assert.deepEqual(r.diagnostics, []);
  const c = r.scene!.constraints;
  assert.deepEqual(
    c.map((x) => [x.index, x.name]),
    [
      [0, 'ball0'],
      [1, 'distance1'],
      [2, 'hinge2'],
      [3, 'slider3'],
      [4, 'lock4'],
      [5, 'weld'],
    ],
  );
  assert.ok(Math.abs(c[1].length! - 3) < 1e-12, `length ${c[1].length}`);
  assert.deepEqual(c[2].axisA, [0, 0, 1]);
  assert.deepEqual(c[2].axisB, [0, 1, 0]);
  assert.deepEqual(c[3].axisA, [1, 0, 0]);
  assert.equal(c[3].axisB, undefined);
  assert.deepEqual(c[4].linear, [false, false, false]);
  assert.deepEqual(c[4].angular, [true, false, true]);
  assert.equal(c[0].length, undefined);
});

test('full 3×3 inertia: accepted when SPD, symmetrised within tolerance', () => {
  const text = sceneText(['{ "name": "A", "mass": 1, "inertia": [[2, 0.5, 0], [0.5000000000001, 3, 0], [0, 0, 4]] }']);
  const r = parseScene(text);
  assert.deepEqual(r.diagnostics, []);
  const I = r.scene!.bodies[0].inertia;
  assert.equal(I[1], I[3]);
  assert.equal(I[4], 3);
});

test('comments, trailing commas, CRLF and a byte order mark are accepted', () => {
  const text = '\ufeff// c\r\n{ /* x */ "bodies": [ { "name": "A", "mass": 1, }, ], }\r\n';
  const r = parseScene(text);
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.scene!.bodies[0].name, 'A');
});

// ---------------------------------------------------------------- CL001, CL002 (document level)

test('CL001: syntax errors at their offsets; the rest is still validated', () => {
  const text = '{\n  "bodies": [\n    { "name": "A" "mass": 1 }\n  ]\n}';
  const r = parseScene(text);
  const d = only(r, Codes.jsonSyntax);
  assert.equal(d.severity, 'error');
  assert.deepEqual(d.range, find(text, '"mass"'));
  assert.match(d.message, /comma/i);
  assert.equal(r.hasErrors, true);
  assert.ok(r.scene);
});

test('CL001: unterminated object at end of file', () => {
  const text = '{ "bodies": [ { "name": "A", "mass": 1 } ]';
  const r = parseScene(text);
  const d = only(r, Codes.jsonSyntax);
  assert.deepEqual(d.range, { start: { line: 0, character: text.length }, end: { line: 0, character: text.length } });
});

test('CL001: empty text and absurd nesting', () => {
  const r = parseScene('');
  assert.deepEqual(codes(r), [Codes.jsonSyntax]);
  assert.equal(r.scene, undefined);
  const deep = parseScene('['.repeat(100000));
  assert.equal(deep.scene, undefined);
  assert.ok(deep.hasErrors);
  assert.ok(deep.diagnostics.every((x) => x.code === Codes.jsonSyntax));
});

test('CL002: root that is not an object', () => {
  const text = '// scene\n[1, 2]';
  const r = parseScene(text);
  assert.equal(r.scene, undefined);
  const d = only(r, Codes.schemaType);
  assert.deepEqual(d.range, find(text, '[1, 2]'));
  assert.equal(r.hasErrors, true);
});

// ---------------------------------------------------------------- CL002 values

test('CL002: a string for a number, with a "Convert" fix', () => {
  const text = sceneText(['{ "name": "A", "mass": "5" }']);
  const r = parseScene(text);
  const d = only(r, Codes.schemaType);
  assert.deepEqual(d.range, find(text, '"5"'));
  assert.deepEqual(d.data?.path, ['bodies', 0, 'mass']);
  assert.equal(r.scene!.bodies.length, 0, 'a body with an error is dropped');
  const fixed = apply(text, fix(d, 'Convert'));
  assert.ok(fixed.includes('"mass": 5 }'));
  assert.deepEqual(parseScene(fixed).diagnostics, []);
});

test('CL002: vectors of the wrong length, wrong element type, non-finite numbers', () => {
  const text = sceneText(['{ "name": "A", "mass": 1, "position": [1, 2], "velocity": [1, "x", 3], "force": [0, 0, 1e999] }']);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.schemaType);
  assert.equal(ds.length, 3);
  assert.deepEqual(ds[0].range, find(text, '[1, 2]'));
  assert.deepEqual(ds[1].range, find(text, '"x"'));
  assert.deepEqual(ds[1].data?.path, ['bodies', 0, 'velocity', 1]);
  assert.deepEqual(ds[2].range, find(text, '1e999'));
  assert.match(ds[2].message, /finite/);
});

test('CL002: bad top-level gravity and solver fall back to defaults; bodies not an array', () => {
  const text = '{ "gravity": "down", "solver": 3, "bodies": {} }';
  const r = parseScene(text);
  assert.deepEqual(codes(r), [Codes.schemaType, Codes.schemaType, Codes.schemaType]);
  assert.deepEqual(r.diagnostics[0].range, find(text, '"down"'));
  assert.deepEqual(r.diagnostics[1].range, find(text, '3'));
  assert.deepEqual(r.diagnostics[2].range, find(text, '{}'));
  assert.deepEqual(r.scene!.gravity, [0, 0, -9.81]);
  assert.deepEqual(r.scene!.solver, DEFAULT_SOLVER);
});

test('CL002: booleans, strings and lock masks', () => {
  const text = sceneText(
    ['{ "name": "A", "mass": 1, "fixed": "true" }', '{ "name": 7, "mass": 1 }', B],
    ['{ "type": "lock", "bodyA": "B", "bodyB": "world", "linear": [true, 1, false] }'],
  );
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.schemaType);
  assert.equal(ds.length, 3);
  assert.deepEqual(ds[0].range, find(text, '"true"'));
  assert.equal(apply(text, fix(ds[0], 'Change to true')).includes('"fixed": true }'), true);
  assert.deepEqual(ds[1].range, find(text, '7'));
  assert.deepEqual(ds[2].range, find(text, '1, false', 0, 1));
  assert.deepEqual(r.scene!.bodies.map((b) => b.name), ['B']);
  assert.deepEqual(r.scene!.constraints, []);
});

// ---------------------------------------------------------------- CL003, CL004, CL005, CL006

test('CL003: unknown field → warning on the key; "Rename" (preferred) and "Remove" fixes', () => {
  const text = sceneText(['{ "name": "A", "mass": 1, "positon": [0, 0, 1] }']);
  const r = parseScene(text);
  const d = only(r, Codes.unknownField);
  assert.equal(d.severity, 'warning');
  assert.deepEqual(d.range, find(text, '"positon"'));
  assert.equal(r.hasErrors, false);
  assert.equal(r.scene!.bodies.length, 1, 'a warning does not drop the body');
  const rename = fix(d, 'Rename to `position`');
  assert.equal(rename.preferred, true);
  const renamed = parseScene(apply(text, rename));
  assert.deepEqual(renamed.diagnostics, []);
  assert.deepEqual(renamed.scene!.bodies[0].position, [0, 0, 1]);
  const removed = apply(text, fix(d, 'Remove field'));
  assert.ok(removed.includes('{ "name": "A", "mass": 1 }'), removed);
  assert.deepEqual(parseScene(removed).diagnostics, []);
});

test('CL003: no rename for a far-off name; a field of another constraint type', () => {
  const text = sceneText([A, B], ['{ "type": "hinge", "bodyA": "A", "bodyB": "B", "length": 2, "colour": "red" }']);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.unknownField);
  assert.equal(ds.length, 2);
  assert.deepEqual(ds[0].range, find(text, '"length"'));
  assert.match(ds[0].message, /not a field of a hinge constraint/);
  assert.deepEqual(ds[1].range, find(text, '"colour"'));
  for (const d of ds) assert.deepEqual(d.fixes?.map((f) => f.title.split(' ')[0]), ['Remove']);
  assert.equal(r.scene!.constraints.length, 1);
  const removed = apply(text, fix(ds[0], 'Remove'));
  assert.ok(removed.includes('"bodyB": "B", "colour": "red" }'), removed);
});

test('CL003: top-level and solver unknown fields; removing the first property of an object', () => {
  const text = '{\n  "solver": { "tol": 1, "dt": 0.02 },\n  "bodies": []\n}';
  const r = parseScene(text);
  const d = only(r, Codes.unknownField);
  assert.deepEqual(d.range, find(text, '"tol"'));
  const removed = apply(text, fix(d, 'Remove'));
  assert.equal(parseScene(removed).diagnostics.length, 0);
  assert.equal(parseScene(removed).scene!.solver.dt, 0.02);
});

test('CL004: missing required fields (root: its brace; nested: the object)', () => {
  const text = '// a comment\n{ "name": "x" }';
  const r = parseScene(text);
  const d = only(r, Codes.missingField);
  assert.deepEqual(d.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } });
  assert.match(d.message, /bodies/);

  const t2 = sceneText(['{ "name": "A" }', '{ "mass": 1 }', B], ['{ "bodyA": "B", "bodyB": "world" }', '{ "type": "ball", "bodyB": "world" }']);
  const r2 = parseScene(t2);
  const ds = r2.diagnostics.filter((x) => x.code === Codes.missingField);
  assert.deepEqual(
    ds.map((x) => [x.range, x.data?.field]),
    [
      [find(t2, '{ "name": "A" }'), 'mass'],
      [find(t2, '{ "mass": 1 }'), 'name'],
      [find(t2, '{ "bodyA": "B", "bodyB": "world" }'), 'type'],
      [find(t2, '{ "type": "ball", "bodyB": "world" }'), 'bodyA'],
    ],
  );
  assert.deepEqual(r2.scene!.bodies.map((b) => b.index), [2]);
  assert.deepEqual(r2.scene!.constraints, []);
});

test('CL005: out-of-range solver settings and enums, with fixes', () => {
  const text = '{ "solver": { "dt": 0, "steps": 2.5, "erp": 1.5, "stabilization": "baumgart", "method": "QR" }, "bodies": [] }';
  const r = parseScene(text);
  assert.deepEqual(codes(r), Array(5).fill(Codes.invalidValue));
  assert.deepEqual(
    r.diagnostics.map((d) => d.range),
    [find(text, '0,', 0, 1), find(text, '2.5'), find(text, '1.5'), find(text, '"baumgart"'), find(text, '"QR"')],
  );
  assert.equal(apply(text, fix(r.diagnostics[1], 'Round to 3')).includes('"steps": 3,'), true);
  const stab = fix(r.diagnostics[3], 'Change to `baumgarte`');
  assert.equal(stab.preferred, true);
  assert.ok(apply(text, stab).includes('"stabilization": "baumgarte"'));
  // Invalid settings fall back to their defaults.
  assert.deepEqual(r.scene!.solver, DEFAULT_SOLVER);
});

test('CL005: unknown constraint type (with alias fix) and zero quaternion', () => {
  const text = sceneText([A, '{ "name": "Q", "mass": 1, "orientation": [0, 0, 0, 0] }'], ['{ "type": "revolute", "bodyA": "A", "bodyB": "world" }']);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.invalidValue);
  assert.equal(ds.length, 2);
  assert.deepEqual(ds[0].range, find(text, '[0, 0, 0, 0]'));
  assert.deepEqual(ds[1].range, find(text, '"revolute"'));
  const f = fix(ds[1], 'Change to `hinge`');
  assert.equal(f.preferred, true);
  const fixedText = apply(apply(text, f), fix(parseScene(apply(text, f)).diagnostics.find((d) => d.code === Codes.invalidValue)!, 'Use the identity'));
  const again = parseScene(fixedText);
  assert.deepEqual(again.diagnostics, []);
  assert.equal(again.scene!.constraints[0].type, 'hinge');
});

test('CL006: duplicate key → warning on the later key, related → first, fix removes the earlier one', () => {
  const text = sceneText(['{ "name": "A", "mass": 1, "mass": 2 }']);
  const r = parseScene(text);
  const d = only(r, Codes.duplicateKey);
  assert.equal(d.severity, 'warning');
  assert.deepEqual(d.range, find(text, '"mass"', 1));
  assert.deepEqual(d.related?.[0].range, find(text, '"mass"', 0));
  assert.equal(r.scene!.bodies[0].mass, 2, 'the last one wins');
  const fixed = apply(text, fix(d, 'Remove the earlier'));
  assert.ok(fixed.includes('{ "name": "A", "mass": 2 }'), fixed);
  assert.equal(r.sourceMap.rangeOf(['bodies', 0, 'mass']).start.character, find(text, '2 }').start.character);
});

// ---------------------------------------------------------------- bodies

test('CL101: duplicate body name → error on the second, related → the first; the first is kept', () => {
  const text = sceneText([A, B, '{ "name": "A", "mass": 5 }'], ['{ "type": "ball", "bodyA": "A", "bodyB": "B" }']);
  const r = parseScene(text);
  const d = only(r, Codes.duplicateBody);
  assert.equal(d.severity, 'error');
  assert.deepEqual(d.range, find(text, '"A"', 1));
  assert.deepEqual(d.related?.[0].range, find(text, '"A"', 0));
  assert.deepEqual(d.data?.firstIndex, 0);
  assert.deepEqual(r.scene!.bodies.map((b) => [b.index, b.mass]), [[0, 1], [1, 2]]);
  assert.equal(r.scene!.constraints.length, 1);
});

test('CL102: "world" as a body name', () => {
  const text = sceneText(['{ "name": "world", "mass": 1 }']);
  const r = parseScene(text);
  const d = only(r, Codes.reservedBodyName);
  assert.deepEqual(d.range, find(text, '"world"'));
  assert.equal(r.scene!.bodies.length, 0);
});

test('CL103: mass ≤ 0 (and -0); CL004 when missing', () => {
  for (const m of ['0', '-2', '-0']) {
    const text = sceneText([`{ "name": "A", "mass": ${m} }`]);
    const r = parseScene(text);
    const d = only(r, Codes.nonPositiveMass);
    assert.deepEqual(d.range, find(text, `${m} }`, 0, m.length));
    assert.deepEqual(d.data, { bodyIndex: 0, bodyName: 'A', path: ['bodies', 0, 'mass'], value: Number(m) });
    assert.equal(r.scene!.bodies.length, 0);
  }
});

test('CL104: inertia not SPD (diagonal ≤ 0, asymmetric, indefinite)', () => {
  const text = sceneText([
    '{ "name": "D", "mass": 1, "inertia": [1, 0, 2] }',
    '{ "name": "S", "mass": 1, "inertia": [[1, 0.1, 0], [0.2, 1, 0], [0, 0, 1]] }',
    '{ "name": "P", "mass": 1, "inertia": [[1, 2, 0], [2, 1, 0], [0, 0, 1]] }',
    '{ "name": "Z", "mass": 1, "inertia": [[1, 1, 0], [1, 1, 0], [0, 0, 1]] }',
    B,
  ]);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.inertiaNotSpd);
  assert.equal(ds.length, 4);
  assert.deepEqual(ds[0].range, find(text, '0, 2]', 0, 1));
  assert.deepEqual(ds[1].range, find(text, '[[1, 0.1, 0], [0.2, 1, 0], [0, 0, 1]]'));
  assert.match(ds[1].message, /symmetric/);
  assert.deepEqual(ds[2].range, find(text, '[[1, 2, 0], [2, 1, 0], [0, 0, 1]]'));
  assert.match(ds[2].message, /positive definite/);
  assert.deepEqual(ds[3].range, find(text, '[[1, 1, 0], [1, 1, 0], [0, 0, 1]]'));
  assert.ok(ds.every((d) => d.severity === 'error'));
  assert.deepEqual(r.scene!.bodies.map((b) => b.name), ['B']);
});

test('CL105: non-unit quaternion → warning, normalised in the scene, "Normalise" fix', () => {
  const text = sceneText(['{ "name": "A", "mass": 1, "orientation": [0, 0, 1, 1] }']);
  const r = parseScene(text);
  const d = only(r, Codes.nonUnitQuaternion);
  assert.equal(d.severity, 'warning');
  assert.equal(r.hasErrors, false);
  assert.deepEqual(d.range, find(text, '[0, 0, 1, 1]'));
  const q = r.scene!.bodies[0].orientation;
  assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-15);
  assert.equal(q[2], q[3]);
  const fixed = apply(text, fix(d, 'Normalise quaternion'));
  const h = 1 / Math.hypot(1, 1);
  assert.ok(fixed.includes(`"orientation": [0, 0, ${h}, ${h}]`), fixed);
  assert.deepEqual(parseScene(fixed).diagnostics, []);
  // Within 1e-9 of unit length: no warning.
  assert.deepEqual(parseScene(sceneText(['{ "name": "A", "mass": 1, "orientation": [0, 0, 0, 1.0000000001] }'])).diagnostics, []);
});

// ---------------------------------------------------------------- constraints

test('CL201: unknown body → error with up to 3 "Rename" fixes, the closest preferred', () => {
  const bodies = ['Arm', 'Arm2', 'Arms', 'Leg'].map((n) => `{ "name": "${n}", "mass": 1, "position": [0, 0, ${n.length}] }`);
  const text = sceneText(bodies, ['{ "name": "j", "type": "ball", "bodyA": "Amr", "bodyB": "world" }', '{ "type": "ball", "bodyA": "Leg", "bodyB": "world" }']);
  const r = parseScene(text);
  const d = only(r, Codes.unknownBody);
  assert.equal(d.severity, 'error');
  assert.deepEqual(d.range, find(text, '"Amr"'));
  assert.deepEqual(d.data, { constraintIndex: 0, constraintName: 'j', path: ['constraints', 0, 'bodyA'], bodyName: 'Amr', end: 'bodyA' });
  assert.equal(d.fixes!.length, 3);
  assert.equal(d.fixes![0].title, 'Rename to `Arm`');
  assert.equal(d.fixes![0].preferred, true);
  assert.ok(d.fixes!.slice(1).every((f) => !f.preferred));
  const fixed = parseScene(apply(text, d.fixes![0]));
  assert.deepEqual(fixed.diagnostics, []);
  assert.deepEqual(r.scene!.constraints.map((c) => c.index), [1], 'the bad constraint is dropped, the good one keeps its file index');
});

test('a constraint on a body that has errors is dropped with an information note, not a second error', () => {
  const text = sceneText(['{ "name": "A", "mass": -1 }', B], ['{ "type": "ball", "bodyA": "A", "bodyB": "B" }', '{ "type": "ball", "bodyA": "B", "bodyB": "world" }']);
  const r = parseScene(text);
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 1);
  const note = only(r, Codes.constraintIgnored);
  assert.equal(note.severity, 'information');
  assert.deepEqual(note.range, find(text, '"A"', 1));
  assert.deepEqual(note.related?.[0].range, find(text, '"A"', 0));
  assert.deepEqual(r.scene!.constraints.map((c) => c.index), [1]);
});

test('CL202: same body at both ends; CL203: both ends fixed', () => {
  const text = sceneText(
    [A, '{ "name": "F", "mass": 1, "fixed": true }', '{ "name": "G", "mass": 1, "fixed": true, "position": [1, 0, 0] }'],
    [
      '{ "type": "ball", "bodyA": "A", "bodyB": "A" }',
      '{ "type": "ball", "bodyA": "world", "bodyB": "F" }',
      '{ "type": "distance", "bodyA": "F", "bodyB": "G" }',
      '{ "type": "ball", "bodyA": "F", "bodyB": "A" }',
    ],
  );
  const r = parseScene(text);
  const same = only(r, Codes.sameBody);
  assert.deepEqual(same.range, find(text, '"A"', 2));
  assert.deepEqual(same.related?.[0].range, find(text, '"A"', 1));
  const both = r.diagnostics.filter((d) => d.code === Codes.bothFixed);
  assert.equal(both.length, 2);
  assert.deepEqual(both[0].range, find(text, '"F"', 1));
  assert.deepEqual(both[1].range, find(text, '"G"', 1));
  assert.deepEqual(r.scene!.constraints.map((c) => c.index), [3]);
});

test('CL204: zero length (explicit, and default with coincident anchors), with a "ball joint" fix', () => {
  const text = sceneText([A, B], ['{ "type": "distance", "bodyA": "A", "bodyB": "B", "length": 0 }', '{ "type": "distance", "bodyA": "A", "bodyB": "B", "anchorA": [1, 0, 0] }']);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.zeroLength);
  assert.equal(ds.length, 2);
  assert.deepEqual(ds[0].range, find(text, '0 }', 0, 1));
  assert.deepEqual(ds[1].range, find(text, '"distance"', 1));
  const ball = apply(text, fix(ds[0], 'Change to a ball joint'));
  assert.ok(ball.includes('{ "type": "ball", "bodyA": "A", "bodyB": "B" }'), ball);
  assert.deepEqual(r.scene!.constraints, []);
  // Negative length is CL005.
  const neg = parseScene(sceneText([A, B], ['{ "type": "distance", "bodyA": "A", "bodyB": "B", "length": -1 }']));
  assert.deepEqual(codes(neg), [Codes.invalidValue]);
});

test('CL205: zero axis', () => {
  const text = sceneText([A, B], ['{ "type": "hinge", "bodyA": "A", "bodyB": "B", "axisB": [0, 0, 0] }', '{ "type": "slider", "bodyA": "A", "bodyB": "B", "axisA": [0, 0, 0] }']);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.zeroAxis);
  assert.equal(ds.length, 2);
  // Occurrence 0 of [0, 0, 0] is the position of A.
  assert.deepEqual(ds[0].range, find(text, '[0, 0, 0]', 1));
  assert.deepEqual(ds[1].range, find(text, '[0, 0, 0]', 2));
  assert.deepEqual(ds.map((d) => d.data?.path), [['constraints', 0, 'axisB'], ['constraints', 1, 'axisA']]);
  assert.deepEqual(r.scene!.constraints, []);
});

test('CL206: duplicate constraint name (explicit, or clashing with a default name) → warning, both kept', () => {
  const text = sceneText([A, B], ['{ "name": "rod", "type": "ball", "bodyA": "A", "bodyB": "B" }', '{ "name": "rod", "type": "fixed", "bodyA": "A", "bodyB": "B" }', '{ "name": "ball3", "type": "ball", "bodyA": "A", "bodyB": "world" }', '{ "type": "ball", "bodyA": "B", "bodyB": "world" }']);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.duplicateConstraintName);
  assert.equal(ds.length, 2);
  assert.ok(ds.every((d) => d.severity === 'warning'));
  assert.deepEqual(ds[0].range, find(text, '"rod"', 1));
  assert.deepEqual(ds[0].related?.[0].range, find(text, '"rod"', 0));
  assert.deepEqual(ds[1].range, find(text, '"ball"', 2), 'a default name is reported on the type');
  assert.deepEqual(ds[1].related?.[0].range, find(text, '"ball3"'));
  assert.equal(r.scene!.constraints.length, 4);
  assert.equal(r.hasErrors, false);
});

test('CL207: lock with no axis locked → warning on the mask, constraint kept', () => {
  const text = sceneText([A], ['{ "type": "lock", "bodyA": "A", "bodyB": "world", "linear": [false, false, false] }', '{ "type": "lock", "bodyA": "A", "bodyB": "world" }']);
  const r = parseScene(text);
  const ds = r.diagnostics.filter((d) => d.code === Codes.emptyLock);
  assert.equal(ds.length, 2);
  assert.deepEqual(ds[0].range, find(text, '[false, false, false]'));
  assert.deepEqual(ds[1].range, find(text, '"lock"', 1));
  assert.equal(r.hasErrors, false);
  assert.equal(r.scene!.constraints.length, 2);
});

// ---------------------------------------------------------------- result shape

test('diagnostics are sorted by position and hasErrors reflects errors only', () => {
  const text = sceneText(['{ "name": "A", "mass": 1, "x": 1 }', '{ "name": "A", "mass": 1 }'], ['{ "type": "ball", "bodyA": "Q", "bodyB": "world", "y": 2 }'], '  "solver": { "dt": -1 },\n');
  const r = parseScene(text);
  const starts = r.diagnostics.map((d) => d.range.start.line * 1e6 + d.range.start.character);
  assert.deepEqual(starts, [...starts].sort((a, b) => a - b));
  assert.deepEqual(codes(r), [Codes.invalidValue, Codes.unknownField, Codes.duplicateBody, Codes.unknownBody, Codes.unknownField]);
  assert.equal(r.hasErrors, true);
  const warnOnly = parseScene(sceneText(['{ "name": "A", "mass": 1, "x": 1 }']));
  assert.equal(warnOnly.hasErrors, false);
  assert.equal(warnOnly.diagnostics.length, 1);
});

test('sourceMap: rangeOf, keyRangeOf, fallbacks, nodeSpan, positionAt (CRLF)', () => {
  const text = '{\r\n  "bodies": [\r\n    { "name": "A", "mass": 1 }\r\n  ]\r\n}';
  const { sourceMap: m } = parseScene(text);
  assert.deepEqual(m.rangeOf(['bodies', 0, 'mass']), { start: { line: 2, character: 27 }, end: { line: 2, character: 28 } });
  assert.deepEqual(m.keyRangeOf(['bodies', 0, 'mass']), { start: { line: 2, character: 19 }, end: { line: 2, character: 25 } });
  // Missing: nearest existing ancestor (the body object).
  assert.deepEqual(m.rangeOf(['bodies', 0, 'inertia', 2]), { start: { line: 2, character: 4 }, end: { line: 2, character: 30 } });
  assert.deepEqual(m.keyRangeOf(['bodies', 0, 'inertia']), m.rangeOf(['bodies', 0]));
  assert.deepEqual(m.rangeOf(['nope']), m.rangeOf([]));
  assert.deepEqual(m.nodeSpan(['bodies', 0, 'name']), { offset: text.indexOf('"A"'), length: 3 });
  assert.equal(m.nodeSpan(['constraints']), undefined);
  assert.deepEqual(m.positionAt(text.indexOf('"A"')), { line: 2, character: 14 });
  assert.deepEqual(m.positionAt(1e9), { line: 4, character: 1 });
  assert.deepEqual(parseScene('').sourceMap.rangeOf(['x']), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  assert.deepEqual(parseScene('[]').sourceMap.rangeOf(['x']), { start: { line: 0, character: 0 }, end: { line: 0, character: 2 } });
});

test('never throws on non-string input', () => {
  for (const x of [undefined, null, 42, {}, []]) {
    const r = parseScene(x as unknown as string);
    assert.equal(r.scene, undefined);
    assert.ok(r.hasErrors);
  }
});

test('"Remove field" edits are exactly those of jsonc-parser modify()', () => {
  const text = '{\n  "a": 1, // one\n  "b": { "x": 1, "y": [2], "z": 3 },\n  "c": 3\n}';
  const root = parseTree(text)!;
  const index = new LineIndex(text);
  const paths: (string | number)[][] = [['a'], ['c'], ['b', 'x'], ['b', 'y'], ['b', 'z']];
  for (const path of paths) {
    const node = findNodeAtLocation(root, path)!;
    const mine = removePropertyEdit(index, node.parent!)!;
    const theirs = modify(text, path, undefined, {});
    assert.equal(applyTextEdits(text, [mine]), applyEdits(text, theirs), JSON.stringify(path));
  }
});
