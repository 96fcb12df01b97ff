// schemas/scene.schema.json against the parser: same fields, same defaults, same enums; the examples
// validate; and every scene the parser accepts without a diagnostic is valid for the schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv'; // ajv 6 (draft-07), installed with eslint
import fc from 'fast-check';
import { parse as parseJsonc } from 'jsonc-parser';
import { parseScene } from '../../src/engine/scene/parse';
import { Codes } from '../../src/engine/core/codes';
import {
  BODY_FIELDS,
  CONSTRAINT_ALL_FIELDS,
  DEFAULT_HINGE_AXIS,
  DEFAULT_SLIDER_AXIS,
  DEFAULT_SOLVER,
  FORMULATIONS,
  INTEGRATORS,
  COORDINATES,
  SCENE_FIELDS,
  SOLVE_METHODS,
  SOLVER_FIELDS,
  STABILIZATIONS,
  constraintFields,
} from '../../src/engine/scene/fields';
import { CONSTRAINT_TYPES, type ConstraintType } from '../../src/engine/scene/spec';
import {
  CONTACTS_FIELDS,
  CONTACT_LEVELS,
  FB_FIELDS,
  NEWTON_FIELDS,
  PGS_FIELDS,
  SHAPE_ALL_FIELDS,
  SHAPE_REQUIRED_FIELDS,
  SHAPE_TYPES,
  WORLD_FIELDS,
  shapeFields,
} from '../../src/engine/scene/contactFields';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = join(__dirname, '..', '..');
const schema: Schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'scene.schema.json'), 'utf8'));
const defs = schema.definitions as Schema;
const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile(schema);
const sorted = (xs: readonly string[]) => [...xs].sort();
const errorsOf = () => ajv.errorsText(validate.errors);

test('the schema is draft-07 and compiles', () => {
  assert.equal(schema.$schema, 'http://json-schema.org/draft-07/schema#');
  assert.equal(ajv.validateSchema(schema), true, ajv.errorsText(ajv.errors));
  assert.ok(schema.title && schema.description && schema.markdownDescription);
});

test('no example names a relative $schema: copied out of the repository it would override the extension’s schema and fail', () => {
  for (const f of readdirSync(join(ROOT, 'examples')).filter((x) => x.endsWith('.json'))) {
    const doc = parseJsonc(readFileSync(join(ROOT, 'examples', f), 'utf8'), [], { allowTrailingComma: true }) as { $schema?: unknown };
    assert.ok(typeof doc.$schema !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(doc.$schema), `${f}: "$schema": ${JSON.stringify(doc.$schema)}`);
  }
});

test('every example validates against the schema', () => {
  const files = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.scene.json'));
  assert.ok(files.length > 0);
  for (const f of files) {
    const doc = parseJsonc(readFileSync(join(ROOT, 'examples', f), 'utf8'), [], { allowTrailingComma: true });
    assert.equal(validate(doc), true, `${f}: ${errorsOf()}`);
  }
});

test('the schema lists exactly the fields the parser knows', () => {
  assert.deepEqual(sorted(Object.keys(schema.properties)), sorted(SCENE_FIELDS));
  assert.deepEqual(sorted(Object.keys(schema.properties.solver.properties)), sorted(SOLVER_FIELDS));
  assert.deepEqual(sorted(Object.keys(defs.body.properties)), sorted(BODY_FIELDS));
  assert.deepEqual(sorted(Object.keys(defs.constraint.properties)), sorted(CONSTRAINT_ALL_FIELDS));
  // Per constraint type: the if/then rule names exactly that type's fields.
  const rules = defs.constraint.allOf as Schema[];
  assert.deepEqual(sorted(rules.map((r) => r.if.properties.type.const)), sorted(CONSTRAINT_TYPES));
  for (const r of rules) {
    const t = r.if.properties.type.const as ConstraintType;
    assert.deepEqual(sorted(r.then.propertyNames.enum), sorted(constraintFields(t)), t);
  }
  assert.deepEqual(schema.required, ['bodies']);
  assert.deepEqual(sorted(defs.body.required), ['mass', 'name']);
  assert.deepEqual(sorted(defs.constraint.required), ['type']);
  for (const r of rules) assert.deepEqual(sorted(r.then.required), r.if.properties.type.const === 'coupler' ? ['joints'] : ['bodyA', 'bodyB']);
  for (const o of [schema, schema.properties.solver, defs.body, defs.constraint]) assert.equal(o.additionalProperties, false);
  // Shapes, world and the contact-solver settings.
  const sp = schema.properties.solver.properties;
  assert.deepEqual(sorted(Object.keys(defs.shape.properties)), sorted(SHAPE_ALL_FIELDS));
  const shapeRules = defs.shape.allOf as Schema[];
  assert.deepEqual(sorted(shapeRules.map((r) => r.if.properties.type.const)), sorted(SHAPE_TYPES));
  for (const r of shapeRules) {
    const t = r.if.properties.type.const as (typeof SHAPE_TYPES)[number];
    assert.deepEqual(sorted(r.then.propertyNames.enum), sorted(shapeFields(t)), t);
    assert.deepEqual(sorted(r.then.required ?? []), sorted(SHAPE_REQUIRED_FIELDS[t]), t);
  }
  assert.deepEqual(defs.shape.required, ['type']);
  assert.deepEqual(sorted(Object.keys(schema.properties.world.properties)), sorted(WORLD_FIELDS));
  assert.deepEqual(sorted(Object.keys(sp.contacts.properties)), sorted(CONTACTS_FIELDS));
  assert.deepEqual(sorted(Object.keys(sp.newton.properties)), sorted(NEWTON_FIELDS));
  assert.deepEqual(sorted(Object.keys(sp.fb.properties)), sorted(FB_FIELDS));
  assert.deepEqual(sorted(Object.keys(sp.pgs.properties)), sorted(PGS_FIELDS));
  for (const o of [defs.shape, schema.properties.world, sp.contacts, sp.newton, sp.fb, sp.pgs]) assert.equal(o.additionalProperties, false);
  assert.equal(defs.body.properties.shapes.items.allOf[0].$ref, '#/definitions/shape');
  assert.equal(schema.properties.world.properties.shapes.items.$ref, '#/definitions/shape');
});

test('enums and their descriptions match the parser', () => {
  const s = schema.properties.solver.properties;
  const pairs: [Schema, readonly string[]][] = [
    [s.stabilization, STABILIZATIONS],
    [s.formulation, FORMULATIONS],
    [s.integrator, INTEGRATORS],
    [s.coordinates, COORDINATES],
    [s.method, SOLVE_METHODS],
    [defs.constraint.properties.type, CONSTRAINT_TYPES],
    [defs.shape.properties.type, SHAPE_TYPES],
    [s.contacts.properties.level, CONTACT_LEVELS],
  ];
  for (const [p, values] of pairs) {
    assert.deepEqual(p.enum, [...values]);
    assert.equal(p.enumDescriptions.length, values.length);
    assert.ok(p.enumDescriptions.every((d: string) => d.length > 10));
  }
});

test('every property has a title, a description and a markdownDescription', () => {
  const objects: [string, Schema][] = [
    ['scene', schema.properties],
    ['solver', schema.properties.solver.properties],
    ['body', defs.body.properties],
    ['constraint', defs.constraint.properties],
    ['shape', defs.shape.properties],
    ['world', schema.properties.world.properties],
    ['solver.contacts', schema.properties.solver.properties.contacts.properties],
    ['solver.newton', schema.properties.solver.properties.newton.properties],
    ['solver.fb', schema.properties.solver.properties.fb.properties],
    ['solver.pgs', schema.properties.solver.properties.pgs.properties],
  ];
  for (const [where, props] of objects) {
    for (const [k, p] of Object.entries(props)) {
      assert.ok(typeof p.title === 'string' && p.title.length > 0, `${where}.${k} title`);
      assert.ok(typeof p.description === 'string' && p.description.length > 10, `${where}.${k} description`);
      assert.ok(typeof p.markdownDescription === 'string' && p.markdownDescription.length > 10, `${where}.${k} markdownDescription`);
    }
  }
});

test('schema defaults are the parser defaults', () => {
  // Solver and scene.
  // Object-valued settings: the schema defaults of their fields. contacts.enabled and contacts.level
  // depend on the scene (shapes, formulation) and have none; the test below checks them.
  const contextual = ['contacts.enabled', 'contacts.level'];
  for (const k of SOLVER_FIELDS) {
    const p = schema.properties.solver.properties[k];
    const d = DEFAULT_SOLVER[k];
    if (typeof d !== 'object') {
      assert.deepEqual(p.default, d, `solver.${k}`);
      continue;
    }
    assert.deepEqual(p.default, {}, `solver.${k}`);
    for (const [f, v] of Object.entries(d)) {
      if (contextual.includes(`${k}.${f}`)) assert.equal(p.properties[f].default, undefined, `solver.${k}.${f}`);
      else assert.deepEqual(p.properties[f].default, v, `solver.${k}.${f}`);
    }
  }
  const minimal = parseScene('{ "bodies": [ { "name": "A", "mass": 1 }, { "name": "B", "mass": 1, "position": [1, 0, 0] } ], "constraints": [ { "type": "ball", "bodyA": "A", "bodyB": "B" }, { "type": "lock", "bodyA": "A", "bodyB": "world" } ] }');
  const scene = minimal.scene!;
  assert.equal(schema.properties.name.default, scene.name);
  assert.deepEqual(schema.properties.gravity.default, scene.gravity);
  // Body: every field with a schema default equals the parsed value (inertia: the diagonal).
  const body = scene.bodies[0] as unknown as Record<string, unknown>;
  for (const k of BODY_FIELDS) {
    const d = defs.body.properties[k].default;
    if (k === 'name' || k === 'mass') {
      assert.equal(d, undefined, k);
      continue;
    }
    const parsed = k === 'inertia' ? [scene.bodies[0].inertia[0], scene.bodies[0].inertia[4], scene.bodies[0].inertia[8]] : body[k];
    assert.deepEqual(d, parsed, `body.${k}`);
  }
  // Constraints.
  const c = defs.constraint.properties;
  assert.deepEqual(c.anchorA.default, scene.constraints[0].anchorA);
  assert.deepEqual(c.anchorB.default, scene.constraints[0].anchorB);
  assert.deepEqual(c.linear.default, scene.constraints[1].linear);
  assert.deepEqual(c.angular.default, scene.constraints[1].angular);
  const ruleFor = (t: string) => (defs.constraint.allOf as Schema[]).find((r) => r.if.properties.type.const === t)!;
  assert.deepEqual(ruleFor('hinge').then.properties.axisA.default, [...DEFAULT_HINGE_AXIS]);
  // axisB's default is computed (axisA carried into B's frame at the initial pose): no constant default
  assert.equal(c.axisB.default, undefined);
  assert.deepEqual(ruleFor('slider').then.properties.axisA.default, [...DEFAULT_SLIDER_AXIS]);
});

test('snippets: one body snippet and one per constraint type, each schema-valid', () => {
  assert.ok(defs.body.defaultSnippets.length >= 1);
  const types = (defs.constraint.defaultSnippets as Schema[]).map((s) => s.body.type);
  assert.deepEqual(sorted(types), sorted(CONSTRAINT_TYPES));
  // Instantiate the snippets (placeholders → their defaults) and check them.
  const instantiate = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.startsWith('^')
        ? JSON.parse(v.slice(1).replace(/\$\{\d+:([^}]*)\}/g, '$1'))
        : v.replace(/\$\{\d+:([^}]*)\}/g, '$1')
      : Array.isArray(v)
        ? v.map(instantiate)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, instantiate(x)]))
          : v;
  const bodies = [instantiate(defs.body.defaultSnippets[0].body), { name: 'A', mass: 1, position: [2, 0, 0] }, { name: 'B', mass: 1, position: [3, 0, 0] }];
  const constraints = (defs.constraint.defaultSnippets as Schema[]).map((s) => instantiate(s.body));
  const doc = { bodies, constraints };
  assert.equal(validate(doc), true, errorsOf());
  const r = parseScene(JSON.stringify(doc));
  assert.deepEqual(r.diagnostics.filter((d) => d.code !== 'CL206-duplicate-constraint-name'), []);
  const whole = instantiate(schema.defaultSnippets[0].body);
  assert.equal(validate(whole), true, errorsOf());
  assert.deepEqual(parseScene(JSON.stringify(whole)).diagnostics, []);
});

test('the schema rejects what the parser rejects at the field level', () => {
  const ok = { bodies: [{ name: 'A', mass: 1 }], constraints: [{ type: 'ball', bodyA: 'A', bodyB: 'world' }] };
  assert.equal(validate(ok), true, errorsOf());
  const bad: unknown[] = [
    { bodies: [{ name: 'A', mass: 0 }] },
    { bodies: [{ name: 'world', mass: 1 }] },
    { bodies: [{ name: 'A', mass: 1, extra: 1 }] },
    { bodies: [{ name: 'A', mass: 1, inertia: [1, 0, 1] }] },
    { bodies: [{ name: 'A', mass: 1, position: [1, 2] }] },
    { bodies: [], solver: { method: 'qr' } },
    { bodies: [], solver: { steps: 1.5 } },
    { bodies: [], constraints: [{ type: 'hinge', bodyA: 'A', bodyB: 'world', length: 1 }] },
    { bodies: [], constraints: [{ type: 'slider', bodyA: 'A', bodyB: 'world', axisB: [0, 0, 1] }] },
    { bodies: [], constraints: [{ type: 'lock', bodyA: 'A', bodyB: 'world', linear: [true] }] },
    { bodies: [], constraints: [{ type: 'weld', bodyA: 'A', bodyB: 'world' }] },
    { constraints: [] },
  ];
  for (const doc of bad) {
    assert.equal(validate(doc), false, JSON.stringify(doc));
    assert.ok(parseScene(JSON.stringify(doc)).diagnostics.length > 0, JSON.stringify(doc));
  }
});

test('property: a scene the parser accepts without any diagnostic is schema-valid', () => {
  const num = fc.oneof(fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom(0, 1, -1, 2.5));
  const v3 = fc.array(num, { minLength: 3, maxLength: 3 });
  const body = fc.record(
    {
      name: fc.constantFrom('A', 'B', 'world', ''),
      mass: fc.oneof({ weight: 4, arbitrary: fc.double({ min: 0.1, max: 10, noNaN: true }) }, { weight: 1, arbitrary: num }),
      inertia: fc.oneof(v3, fc.constant([[2, 0.1, 0], [0.1, 2, 0], [0, 0, 1]])),
      position: v3,
      orientation: fc.oneof(fc.constant([0, 0, 0, 1]), fc.array(num, { minLength: 4, maxLength: 4 })),
      fixed: fc.boolean(),
      gravity: fc.boolean(),
    },
    { requiredKeys: ['name', 'mass'] },
  );
  const constraint = fc.record(
    {
      name: fc.constantFrom('r1', 'r2'),
      type: fc.constantFrom(...CONSTRAINT_TYPES),
      bodyA: fc.constantFrom('A', 'B', 'world'),
      bodyB: fc.constantFrom('A', 'B', 'world'),
      anchorA: v3,
      length: num,
      axisA: v3,
      axisB: v3,
      linear: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    },
    { requiredKeys: ['type', 'bodyA', 'bodyB'] },
  );
  const solver = fc.record({ dt: fc.oneof(fc.constant(0.01), num), steps: fc.oneof(fc.nat(200), num), erp: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), num), method: fc.constantFrom(...SOLVE_METHODS) }, { requiredKeys: [] });
  let accepted = 0;
  fc.assert(
    fc.property(fc.record({ bodies: fc.array(body, { maxLength: 3 }), constraints: fc.array(constraint, { maxLength: 3 }), solver }, { requiredKeys: ['bodies'] }), (doc) => {
      const r = parseScene(JSON.stringify(doc));
      if (r.diagnostics.length > 0) return;
      accepted++;
      assert.equal(validate(doc), true, `${JSON.stringify(doc)}: ${errorsOf()}`);
    }),
    { numRuns: 300, seed: 4 },
  );
  assert.ok(accepted >= 10, `only ${accepted} generated scenes were accepted: the property is too weak`);
});

test('the example in docs/scene-format.md parses cleanly and validates', () => {
  const md = readFileSync(join(ROOT, 'docs', 'scene-format.md'), 'utf8');
  const block = /```jsonc\n([\s\S]*?)```/.exec(md);
  assert.ok(block, 'no jsonc example block');
  const r = parseScene(block[1]);
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.scene!.bodies.map((b) => b.name), ['Bob', 'Link', 'Ceiling']);
  assert.equal(r.scene!.constraints[0].length, 1);
  assert.equal(validate(parseJsonc(block[1], [], { allowTrailingComma: true })), true, errorsOf());
  // The diagnostic table names every parse/validation code.
  const parseCodes = Object.values(Codes).filter((c) => /^CL[012]\d\d-/.test(c));
  assert.ok(parseCodes.length >= 18);
  for (const code of parseCodes) assert.ok(md.includes('| `' + code + '` |'), code);
});

test('shapes: schema defaults are the parser defaults; snippets are schema-valid and parse cleanly', () => {
  const r = parseScene('{ "solver": { "formulation": "velocity" }, "bodies": [ { "name": "A", "mass": 1, "shapes": [ { "type": "sphere", "radius": 1 } ] } ], "world": { "shapes": [ { "type": "plane" } ] } }');
  assert.deepEqual(r.diagnostics, []);
  const sphere = r.scene!.bodies[0].shapes[0] as unknown as Record<string, unknown>;
  const plane = r.scene!.world.shapes[0] as unknown as Record<string, unknown>;
  const p = defs.shape.properties;
  for (const k of ['position', 'orientation', 'friction', 'restitution']) assert.deepEqual(p[k].default, sphere[k], `shape.${k}`);
  for (const k of ['normal', 'offset']) assert.deepEqual(p[k].default, plane[k], `shape.${k}`);
  // One snippet per shape type; instantiated, each is valid where it belongs (planes in the world).
  const snippets = defs.shape.defaultSnippets as Schema[];
  assert.deepEqual(sorted(snippets.map((s) => s.body.type)), sorted(SHAPE_TYPES));
  const instantiate = (v: unknown): unknown =>
    typeof v === 'string' ? (v.startsWith('^') ? JSON.parse(v.slice(1).replace(/\$\{\d+:([^}]*)\}/g, '$1')) : v) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, instantiate(x)])) : v;
  const shapes = snippets.map((s) => instantiate(s.body) as { type: string });
  const doc = {
    solver: { formulation: 'nonlinear' },
    bodies: [{ name: 'A', mass: 1, shapes: shapes.filter((s) => s.type !== 'plane') }],
    world: { shapes },
  };
  assert.equal(validate(doc), true, errorsOf());
  assert.deepEqual(parseScene(JSON.stringify(doc)).diagnostics, []);
});

test('shapes: the schema rejects what the parser rejects at the field level', () => {
  const body = (shape: unknown) => ({ solver: { formulation: 'velocity' }, bodies: [{ name: 'A', mass: 1, shapes: [shape] }] });
  const bad: unknown[] = [
    body({ type: 'plane' }),
    body({ type: 'cone', radius: 1 }),
    body({ type: 'cylinder', radius: 1 }),
    body({ type: 'ellipsoid', radii: [1, 0, 1] }),
    body({ type: 'convex', vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0]] }),
    body({ type: 'sphere', radius: 1, condim: 2 }),
    body({ type: 'sphere', radius: 1, contype: -1 }),
    body({ type: 'sphere', radius: 1, margin: -0.1 }),
    { bodies: [], world: { exclude: [{ bodyA: 'A' }] } },
    { bodies: [], world: { pairs: [{ bodyA: 'world', shapeA: 'x', bodyB: 'world' }] } },
    { bodies: [], solver: { contacts: { frictionRule: 'min' } } },
    body({ type: 'sphere' }),
    body({ type: 'sphere', radius: 0 }),
    body({ type: 'box', halfExtents: [1, 0, 1] }),
    body({ type: 'capsule', radius: 1 }),
    body({ type: 'sphere', radius: 1, friction: -1 }),
    body({ type: 'sphere', radius: 1, restitution: 2 }),
    body({ type: 'box', halfExtents: [1, 1, 1], radius: 1 }),
    { bodies: [], world: { shapes: [{ type: 'plane', position: [0, 0, 1] }] } },
    { bodies: [], world: { shape: [] } },
    { bodies: [], solver: { contacts: { margin: -1 } } },
    { bodies: [], solver: { contacts: { level: 'acceleration' } } },
    { bodies: [], solver: { newton: { maxIterations: 0 } } },
    { bodies: [], solver: { fb: { alpha: 0 } } },
    { bodies: [], solver: { pgs: { iterations: 1.5 } } },
    { bodies: [], solver: { regularization: -1 } },
  ];
  for (const doc of bad) {
    assert.equal(validate(doc), false, JSON.stringify(doc));
    assert.ok(parseScene(JSON.stringify(doc)).diagnostics.some((d) => d.severity === 'error' || d.code === Codes.unknownField), JSON.stringify(doc));
  }
});

test('property: a scene with shapes the parser accepts without any diagnostic is schema-valid', () => {
  const num = fc.oneof(fc.double({ min: -2, max: 2, noNaN: true }), fc.constantFrom(0, 1, -1, 0.5));
  const v3 = fc.array(num, { minLength: 3, maxLength: 3 });
  const mostly = <T,>(good: fc.Arbitrary<T>, any: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: any });
  const unit = fc.double({ min: 0, max: 1, noNaN: true });
  const pos = fc.double({ min: 0.01, max: 2, noNaN: true });
  const rarely = <T,>(good: fc.Arbitrary<T>, any: fc.Arbitrary<T>) => fc.oneof({ weight: 40, arbitrary: good }, { weight: 1, arbitrary: any });
  const fieldArb: Record<string, fc.Arbitrary<unknown>> = {
    name: fc.constantFrom('s', 'lid'),
    radius: mostly(pos, num),
    halfLength: mostly(pos, num),
    halfExtents: mostly(fc.array(pos, { minLength: 3, maxLength: 3 }), v3),
    normal: v3,
    offset: num,
    position: v3,
    orientation: fc.constantFrom([0, 0, 0, 1], [0, 0, 1, 0]),
    friction: mostly(unit, num),
    restitution: mostly(unit, num),
    radii: mostly(fc.array(pos, { minLength: 3, maxLength: 3 }), v3),
    vertices: mostly<number[][]>(fc.constant([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]), fc.constant([[0, 0, 0], [1, 0, 0], [0, 1, 0]])),
    // the collision rules: many optional fields, so a bad value only rarely
    contype: rarely(fc.constantFrom(0, 1, 3), fc.constantFrom(-1, 0.5)),
    conaffinity: rarely(fc.constantFrom(0, 1, 2), fc.constantFrom(-1, 2.5)),
    margin: rarely(unit, num),
    gap: rarely(unit, num),
    priority: rarely(fc.constantFrom(0, 1, -2), fc.constant(0.5)),
    condim: rarely(fc.constantFrom(1, 3, 4, 6), fc.constant(2)),
    fluidEllipsoid: rarely<number[]>(fc.constant([0.5, 0.25, 1.5, 1, 1]), fc.constantFrom([1, 2, 3], [0.5, -1, 0, 0, 0])),
    solref: rarely<number[]>(fc.constantFrom([0.02, 1], [0.005, 0.5]), fc.constantFrom([0, 1], [0.02])),
    solimp: rarely<number[]>(fc.constant([0.9, 0.95, 0.001, 0.5, 2]), fc.constantFrom([1, 2, 3], [0.9, 0.95, 0.001, 0.5, 0.5])),
    solmix: rarely(fc.constantFrom(0, 1, 3), fc.constant(-1)),
  };
  // Mostly the fields of the type (required ones always), sometimes one of another type.
  const shape = fc.oneof(
    ...SHAPE_TYPES.map((type) => {
      const own = shapeFields(type).filter((f) => f !== 'type');
      const record = Object.fromEntries(own.map((f) => [f, fieldArb[f]]));
      return fc.tuple(
        fc.record(record, { requiredKeys: [...SHAPE_REQUIRED_FIELDS[type]] }),
        fc.option(fc.constantFrom('radius', 'normal', 'halfLength'), { freq: 4 }),
      ).map(([fields, stray]) => ({ type, ...fields, ...(stray ? { [stray]: 1 } : {}) }));
    }),
    fc.constant({ type: 'cone', radius: 1 }),
  );
  const shapes = fc.array(shape, { maxLength: 2 });
  const solver = fc.record(
    {
      formulation: fc.constantFrom('velocity', 'nonlinear', 'nonlinear', 'acceleration'),
      contacts: fc.record({ margin: mostly(unit, num), level: fc.constantFrom('position', 'velocity'), enabled: fc.boolean() }, { requiredKeys: [] }),
      newton: fc.record({ maxIterations: fc.integer({ min: 0, max: 30 }), tolerance: mostly(pos, num) }, { requiredKeys: [] }),
      fb: fc.record({ alpha: mostly(pos, num) }, { requiredKeys: [] }),
      pgs: fc.record({ iterations: fc.integer({ min: 0, max: 30 }) }, { requiredKeys: [] }),
      regularization: mostly(unit, num),
    },
    { requiredKeys: [] },
  );
  let accepted = 0;
  fc.assert(
    fc.property(fc.record({ solver, bodies: fc.constant([]), world: fc.record({ shapes }) }), shapes, (doc, bodyShapes) => {
      const full = { ...doc, bodies: [{ name: 'A', mass: 1, shapes: bodyShapes }] };
      const r = parseScene(JSON.stringify(full));
      if (r.diagnostics.length > 0) return;
      if (bodyShapes.length + doc.world.shapes.length === 0) return;
      accepted++;
      assert.equal(validate(full), true, `${JSON.stringify(full)}: ${errorsOf()}`);
    }),
    { numRuns: 1000, seed: 5 },
  );
  assert.ok(accepted >= 30, `only ${accepted} generated scenes with shapes were accepted: the property is too weak`);
});
