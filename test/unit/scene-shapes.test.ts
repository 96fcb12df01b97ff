// Shapes, `world` and the contact-solver settings in the scene format: values and defaults, every
// diagnostic with its exact range (CL002–CL005 on the new fields, CL110–CL116), and the quick fixes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene } from '../../src/engine/scene/parse';
import { applyTextEdits } from '../../src/engine/scene/text';
import { Codes } from '../../src/engine/core/codes';
import type { Diagnostic, Fix, Range } from '../../src/engine/types';
import type { ParseResult } from '../../src/engine/scene/spec';

/** The range of the `nth` occurrence of `needle` in `text` (first `length` characters), computed independently of the parser. */
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

const codes = (r: ParseResult): string[] => r.diagnostics.map((d) => d.code);

function fix(d: Diagnostic, titleStart: string): Fix {
  const f = d.fixes?.find((x) => x.title.startsWith(titleStart));
  assert.ok(f, `no fix '${titleStart}…' in ${JSON.stringify(d.fixes?.map((x) => x.title))}`);
  return f;
}

/** A velocity-formulation scene with one body carrying `shapes` and the given world shapes. */
const withShapes = (shapes: string, world = '', solver = '"formulation": "velocity"'): string =>
  `{\n  "solver": { ${solver} },\n  "bodies": [\n    { "name": "A", "mass": 1, "shapes": [ ${shapes} ] }\n  ]${world ? `,\n  "world": { "shapes": [ ${world} ] }` : ''}\n}\n`;

test('shapes: defaults filled in, every field read, names and indices', () => {
  const text = withShapes(
    '{ "type": "sphere", "radius": 0.5 }, { "type": "box", "name": "lid", "halfExtents": [1, 2, 3], "position": [0, 0, 1], "orientation": [0, 0, 1, 0], "friction": 0.2, "restitution": 0.7 }, { "type": "capsule", "radius": 0.1, "halfLength": 0.4 }',
    '{ "type": "plane" }, { "type": "plane", "normal": [0, 3, 4], "offset": -2, "friction": 1 }, { "type": "box", "halfExtents": [5, 5, 0.1], "position": [0, 0, -0.1] }',
  );
  const r = parseScene(text);
  assert.deepEqual(r.diagnostics, []);
  const [sphere, box, capsule] = r.scene!.bodies[0].shapes;
  assert.deepEqual(sphere, { name: 'sphere0', index: 0, friction: 0.5, restitution: 0, position: [0, 0, 0], orientation: [0, 0, 0, 1], type: 'sphere', radius: 0.5 });
  assert.deepEqual(box, { name: 'lid', index: 1, friction: 0.2, restitution: 0.7, position: [0, 0, 1], orientation: [0, 0, 1, 0], type: 'box', halfExtents: [1, 2, 3] });
  assert.deepEqual(capsule, { name: 'capsule2', index: 2, friction: 0.5, restitution: 0, position: [0, 0, 0], orientation: [0, 0, 0, 1], type: 'capsule', radius: 0.1, halfLength: 0.4 });
  const [ground, tilted, floor] = r.scene!.world.shapes;
  assert.deepEqual(ground, { name: 'plane0', index: 0, friction: 0.5, restitution: 0, position: [0, 0, 0], orientation: [0, 0, 0, 1], type: 'plane', normal: [0, 0, 1], offset: 0 });
  assert.ok(tilted.type === 'plane');
  assert.deepEqual([tilted.offset, tilted.friction, tilted.normal[0]], [-2, 1, 0]);
  assert.ok(Math.abs(tilted.normal[1] - 0.6) < 1e-15 && Math.abs(tilted.normal[2] - 0.8) < 1e-15);
  assert.equal(floor.type, 'box');
  assert.deepEqual(r.scene!.solver.contacts, { enabled: true, margin: 0, level: 'velocity', jointedCollide: false, penetrationTolerance: 1e-3, frictionRule: 'geometric' });
});

test('solver: contacts, newton, regularization, fb, pgs read; defaults depend on shapes and formulation', () => {
  const text = withShapes(
    '{ "type": "sphere", "radius": 1 }',
    '',
    '"formulation": "nonlinear", "contacts": { "enabled": false, "margin": 0.01, "level": "velocity", "jointedCollide": true, "penetrationTolerance": 0.002 }, "newton": { "maxIterations": 5, "tolerance": 1e-8, "lineSearch": false }, "regularization": 0, "fb": { "alpha": 2, "beta": 0.5 }, "pgs": { "iterations": 7, "tolerance": 0, "slop": 0 }',
  );
  const r = parseScene(text);
  assert.deepEqual(r.diagnostics, []);
  const s = r.scene!.solver;
  assert.equal(s.formulation, 'nonlinear');
  assert.deepEqual(s.contacts, { enabled: false, margin: 0.01, level: 'velocity', jointedCollide: true, penetrationTolerance: 0.002, frictionRule: 'geometric' });
  assert.deepEqual(s.newton, { maxIterations: 5, tolerance: 1e-8, lineSearch: false });
  assert.equal(s.regularization, 0);
  assert.deepEqual(s.fb, { alpha: 2, beta: 0.5 });
  assert.deepEqual(s.pgs, { iterations: 7, tolerance: 0, slop: 0 });
  // Defaults: nonlinear → position level; shapes anywhere (here only in the world) → enabled.
  const d = parseScene('{ "solver": { "formulation": "nonlinear" }, "bodies": [], "world": { "shapes": [ { "type": "plane" } ] } }').scene!.solver;
  assert.deepEqual(d.contacts, { enabled: true, margin: 0, level: 'position', jointedCollide: false, penetrationTolerance: 1e-3, frictionRule: 'geometric' });
  assert.deepEqual(d.newton, { maxIterations: 20, tolerance: 1e-10, lineSearch: true });
  assert.equal(d.regularization, 1e-6);
  assert.deepEqual(d.fb, { alpha: 1, beta: 1 });
  assert.deepEqual(d.pgs, { iterations: 100, tolerance: 1e-10, slop: 1e-5 });
  // No shapes: disabled; velocity formulation: velocity level.
  const v = parseScene('{ "solver": { "formulation": "velocity" }, "bodies": [ { "name": "A", "mass": 1 } ] }').scene!;
  assert.deepEqual(v.solver.contacts, { enabled: false, margin: 0, level: 'velocity', jointedCollide: false, penetrationTolerance: 1e-3, frictionRule: 'geometric' });
  assert.deepEqual(v.world, { shapes: [] });
  assert.deepEqual(v.bodies[0].shapes, []);
});

test('CL110: non-positive radius, half length and half extent (on the component)', () => {
  const text = withShapes('{ "type": "sphere", "radius": 0 }, { "type": "capsule", "radius": -1, "halfLength": 0 }, { "type": "box", "halfExtents": [1, -0.5, 1] }');
  const r = parseScene(text);
  assert.deepEqual(codes(r), Array(4).fill(Codes.nonPositiveSize));
  assert.deepEqual(
    r.diagnostics.map((d) => d.range),
    [find(text, '0 }', 0, 1), find(text, '-1'), find(text, '0 },', 1, 1), find(text, '-0.5')],
  );
  assert.match(r.diagnostics[0].message, /`radius` of shape `sphere0` of body `A` must be greater than 0; it is 0/);
  assert.deepEqual(r.diagnostics[3].data?.path, ['bodies', 0, 'shapes', 2, 'halfExtents', 1]);
  assert.equal(r.diagnostics[3].data?.shapeIndex, 2);
  // A body with a bad shape is dropped, like for any other error.
  assert.deepEqual(r.scene!.bodies, []);
});

test('CL111: zero plane normal, with a "Use [0, 0, 1]" fix', () => {
  const text = withShapes('', '{ "type": "plane", "normal": [0, 0, 0] }, { "type": "sphere", "radius": 1 }');
  const r = parseScene(text);
  const d = only(r, Codes.zeroNormal);
  assert.deepEqual(d.range, find(text, '[0, 0, 0]'));
  assert.deepEqual(d.data?.path, ['world', 'shapes', 0, 'normal']);
  // A bad world shape is left out; the others keep their file index.
  assert.deepEqual(r.scene!.world.shapes.map((s) => [s.type, s.index]), [['sphere', 1]]);
  const fixed = applyTextEdits(text, fix(d, 'Use [0, 0, 1]').edits);
  assert.deepEqual(parseScene(fixed).diagnostics, []);
});

test('CL112 and CL113: negative friction, restitution outside [0, 1]', () => {
  const text = withShapes('{ "type": "sphere", "radius": 1, "friction": -0.1, "restitution": 1.5 }', '{ "type": "plane", "restitution": -0.2 }');
  const r = parseScene(text);
  assert.deepEqual(codes(r), [Codes.negativeFriction, Codes.restitutionRange, Codes.restitutionRange]);
  assert.deepEqual(r.diagnostics.map((d) => d.range), [find(text, '-0.1'), find(text, '1.5'), find(text, '-0.2')]);
  assert.match(r.diagnostics[0].message, /must be at least 0; it is -0.1/);
  assert.match(r.diagnostics[1].message, /must be between 0 and 1; it is 1.5/);
  assert.match(r.diagnostics[2].message, /of the world/);
});

test('CL114: a plane on a body (error on its type); fine in the world', () => {
  const text = withShapes('{ "type": "plane" }');
  const r = parseScene(text);
  const d = only(r, Codes.planeOnBody);
  assert.deepEqual(d.range, find(text, '"plane"'));
  assert.match(d.message, /"world": \{ "shapes": \[\.\.\.\] \}/);
  assert.deepEqual(r.scene!.bodies, []);
});

test('CL115: unknown shape type, with "Change to" fixes (planes only offered in the world)', () => {
  const text = withShapes('{ "type": "cone", "radius": 1 }, { "type": "sphre", "radius": 1 }', '{ "type": "plan" }');
  const r = parseScene(text);
  assert.deepEqual(codes(r), Array(3).fill(Codes.unknownShapeType));
  assert.deepEqual(r.diagnostics.map((d) => d.range), [find(text, '"cone"'), find(text, '"sphre"'), find(text, '"plan"')]);
  assert.match(r.diagnostics[0].message, /"cone" is not a shape type. Use one of: "sphere", "box", "capsule", "cylinder", "ellipsoid", "convex"\./);
  assert.deepEqual(r.diagnostics[0].data?.allowed, ['sphere', 'box', 'capsule', 'cylinder', 'ellipsoid', 'convex']);
  const sphere = fix(r.diagnostics[1], 'Change to `sphere`');
  assert.equal(sphere.preferred, true);
  assert.ok(!r.diagnostics[1].fixes!.some((f) => f.title.includes('plane')));
  assert.deepEqual(r.diagnostics[2].data?.allowed, ['sphere', 'box', 'capsule', 'cylinder', 'ellipsoid', 'convex', 'plane']);
  const fixed = applyTextEdits(applyTextEdits(text, fix(r.diagnostics[2], 'Change to `plane`').edits), []);
  assert.ok(fixed.includes('{ "type": "plane" }'));
});

test('CL004, CL002, CL003 on shapes and world: missing, wrong types, unknown fields (with per-type reasons)', () => {
  const text = withShapes('{ "radius": 1 }, { "type": "sphere" }, { "type": "box" }, 3, { "type": 4 }, { "type": "sphere", "radios": 1, "radius": "1" }, { "type": "box", "halfExtents": [1, 1, 1], "radius": 1 }', '{ "type": "plane", "position": [0, 0, 1] }');
  const r = parseScene(text);
  const at = (code: string) => r.diagnostics.filter((d) => d.code === code);
  assert.deepEqual(at(Codes.missingField).map((d) => [d.range, d.data?.field]), [
    [find(text, '{ "radius": 1 }'), 'type'],
    [find(text, '{ "type": "sphere" }'), 'radius'],
    [find(text, '{ "type": "box" }'), 'halfExtents'],
  ]);
  assert.deepEqual(at(Codes.schemaType).map((d) => d.range), [find(text, '3,', 0, 1), find(text, '4 }', 0, 1), find(text, '"1"')]);
  const unknown = at(Codes.unknownField);
  assert.deepEqual(unknown.map((d) => d.range), [find(text, '"radios"'), find(text, '"radius": 1 }', 1, 8), find(text, '"position"')]);
  assert.equal(unknown[0].data?.suggestion, undefined, '"radius" is present, so no rename to it');
  assert.match(unknown[1].message, /`radius` is not a field of a box shape \(box takes `halfExtents`\)/);
  assert.match(unknown[2].message, /`position` is not a field of a plane shape \(plane takes `normal` and `offset`, and no pose\)/);
  // Wrong containers.
  const t2 = '{ "bodies": [ { "name": "A", "mass": 1, "shapes": { "type": "sphere" } } ], "world": [], "solver": { "contacts": 1, "newton": [], "fb": "x", "pgs": true } }';
  const r2 = parseScene(t2);
  assert.deepEqual(codes(r2), Array(6).fill(Codes.schemaType));
  assert.deepEqual(r2.diagnostics.map((d) => d.range), [find(t2, '{ "type": "sphere" }'), find(t2, '[]'), find(t2, '1,', 1, 1), find(t2, '[]', 1), find(t2, '"x"'), find(t2, 'true')]);
  const t3 = '{ "bodies": [], "world": { "shape": [] }, "solver": { "contacts": { "margn": 0 }, "newton": { "iterations": 3 }, "fb": { "gamma": 1 }, "pgs": { "tol": 1 } } }';
  const r3 = parseScene(t3);
  assert.deepEqual(codes(r3), Array(5).fill(Codes.unknownField));
  assert.deepEqual(r3.diagnostics.map((d) => d.data?.suggestion), ['shapes', 'margin', undefined, undefined, undefined]);
});

test('CL005 on the solver settings: margin, level (with fix), iterations, tolerances, regularization, fb', () => {
  const text = '{ "bodies": [], "solver": { "contacts": { "margin": -1, "level": "positon" }, "newton": { "maxIterations": 0, "tolerance": 0 }, "regularization": -1, "fb": { "alpha": 0 }, "pgs": { "iterations": 2.5, "tolerance": -1, "slop": -2 } } }';
  const r = parseScene(text);
  assert.deepEqual(codes(r), Array(9).fill(Codes.invalidValue));
  assert.deepEqual(r.diagnostics.map((d) => d.range), [
    find(text, '-1'),
    find(text, '"positon"'),
    find(text, '0,', 0, 1),
    find(text, '0 }', 0, 1),
    find(text, '-1', 1),
    find(text, '0 }', 1, 1),
    find(text, '2.5'),
    find(text, '-1', 2),
    find(text, '-2'),
  ]);
  assert.equal(fix(r.diagnostics[1], 'Change to `position`').preferred, true);
  // Invalid values fall back to the defaults.
  const s = r.scene!.solver;
  assert.deepEqual([s.contacts.margin, s.contacts.level, s.newton, s.regularization, s.fb, s.pgs], [0, 'velocity', { maxIterations: 20, tolerance: 1e-10, lineSearch: true }, 1e-6, { alpha: 1, beta: 1 }, { iterations: 100, tolerance: 1e-10, slop: 1e-5 }]);
});

test('CL116: shapes in the acceleration formulation → warning naming velocity and nonlinear; contacts disabled', () => {
  const explicit = withShapes('{ "type": "sphere", "radius": 1 }', '{ "type": "plane" }', '"formulation": "acceleration"');
  const r = parseScene(explicit);
  const d = only(r, Codes.contactsUnsupported);
  assert.equal(d.severity, 'warning');
  assert.equal(r.hasErrors, false);
  assert.deepEqual(d.range, find(explicit, '"acceleration"'));
  assert.match(d.message, /"velocity" and "nonlinear"/);
  assert.match(d.message, /the 2 shapes are ignored/);
  assert.deepEqual(d.data?.formulations, ['velocity', 'nonlinear']);
  assert.equal(r.scene!.solver.contacts.enabled, false);
  const toVelocity = fix(d, 'Change to `velocity`');
  assert.equal(toVelocity.preferred, true);
  const fixed = parseScene(applyTextEdits(explicit, toVelocity.edits));
  assert.deepEqual(fixed.diagnostics, []);
  assert.equal(fixed.scene!.solver.contacts.enabled, true);
  assert.deepEqual(parseScene(applyTextEdits(explicit, fix(d, 'Change to `nonlinear`').edits)).scene!.solver.contacts.level, 'position');
  // Default formulation: on the first non-empty `shapes` key (body B here), no fix.
  const implicit = '{ "bodies": [ { "name": "A", "mass": 1, "shapes": [] }, { "name": "B", "mass": 1, "shapes": [ { "type": "box", "halfExtents": [1, 1, 1] } ] } ] }';
  const ri = parseScene(implicit);
  const di = only(ri, Codes.contactsUnsupported);
  assert.deepEqual(di.range, find(implicit, '"shapes"', 1));
  assert.deepEqual(di.data?.path, ['bodies', 1, 'shapes']);
  assert.match(di.message, /\(the default\)/);
  assert.equal(di.fixes, undefined);
  // World shapes only.
  const world = '{ "bodies": [], "world": { "shapes": [ { "type": "plane" } ] } }';
  const dw = only(parseScene(world), Codes.contactsUnsupported);
  assert.deepEqual(dw.range, find(world, '"shapes"'));
  assert.match(dw.message, /the 1 shape is ignored/);
  // Contacts switched off explicitly, or no shapes: no warning.
  assert.deepEqual(parseScene('{ "solver": { "contacts": { "enabled": false } }, "bodies": [], "world": { "shapes": [ { "type": "plane" } ] } }').diagnostics, []);
  assert.deepEqual(parseScene('{ "bodies": [ { "name": "A", "mass": 1, "shapes": [] } ] }').diagnostics, []);
  // Contacts are always off in the acceleration formulation, even when asked for.
  const asked = parseScene('{ "solver": { "contacts": { "enabled": true } }, "bodies": [] }');
  assert.deepEqual(asked.diagnostics, []);
  assert.equal(asked.scene!.solver.contacts.enabled, false);
});

test('a constraint on a body dropped for a bad shape gets the information note, not a second error', () => {
  const text = '{ "solver": { "formulation": "velocity" }, "bodies": [ { "name": "A", "mass": 1, "shapes": [ { "type": "sphere", "radius": -1 } ] } ], "constraints": [ { "type": "ball", "bodyA": "A", "bodyB": "world" } ] }';
  const r = parseScene(text);
  assert.deepEqual(codes(r), [Codes.nonPositiveSize, Codes.constraintIgnored]);
  assert.equal(r.diagnostics[1].severity, 'information');
});
