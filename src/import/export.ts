// "Export as Scene": the converted model as a *.scene.json the user can edit (docs/scene-format.md).
// Numbers are written with JSON's shortest round-trip form, so the scene parser reads back exactly
// the converted values. Shapes are written in the contact format (`shapes` per body, `world.shapes`).
import { type ActuatorSpec, type ConstraintSpec, type Diagnostic, integratorInfo, jointsOf, parseScene, type ShapeSpec, type TendonSpec } from '../engine';
import type { ImportedBody, ImportedScene } from './types';

interface ExportSource {
  /** The converted scene (ModelParseResult.scene). */
  scene: ImportedScene;
  /** The model file, for the header comment. */
  path?: string;
  keyframe?: string;
}

const vec = (v: readonly number[]) => [...v];

function shapeJson(s: ShapeSpec): Record<string, unknown> {
  const o: Record<string, unknown> = { name: s.name, type: s.type };
  if (s.type === 'plane') {
    o.normal = vec(s.normal);
    o.offset = s.offset;
  } else {
    o.position = vec(s.position);
    o.orientation = vec(s.orientation);
    if (s.type === 'sphere') o.radius = s.radius;
    if (s.type === 'capsule') Object.assign(o, { radius: s.radius, halfLength: s.halfLength });
    if (s.type === 'box') o.halfExtents = vec(s.halfExtents);
    if (s.type === 'cylinder') Object.assign(o, { radius: s.radius, halfLength: s.halfLength });
    if (s.type === 'ellipsoid') o.radii = vec(s.radii);
    if (s.type === 'convex') o.vertices = s.vertices.map(vec);
  }
  o.friction = s.friction;
  if (s.restitution) o.restitution = s.restitution;
  // MuJoCo's collision rules, where they differ from the defaults
  if (s.contype !== undefined && s.contype !== 1) o.contype = s.contype;
  if (s.conaffinity !== undefined && s.conaffinity !== 1) o.conaffinity = s.conaffinity;
  if (s.margin) o.margin = s.margin;
  if (s.gap) o.gap = s.gap;
  if (s.priority) o.priority = s.priority;
  if (s.condim !== undefined && s.condim !== 3) o.condim = s.condim;
  if (s.fluidEllipsoid) o.fluidEllipsoid = [...s.fluidEllipsoid];
  if (s.solref) o.solref = [...s.solref];
  if (s.solimp) o.solimp = [...s.solimp];
  if (s.solmix !== undefined) o.solmix = s.solmix;
  return o;
}

function bodyJson(b: ImportedBody): Record<string, unknown> {
  const I = b.inertia;
  const diagonal = I[1] === 0 && I[2] === 0 && I[3] === 0 && I[5] === 0 && I[6] === 0 && I[7] === 0;
  const o: Record<string, unknown> = {
    name: b.name,
    mass: b.mass,
    inertia: diagonal ? [I[0], I[4], I[8]] : [[I[0], I[1], I[2]], [I[3], I[4], I[5]], [I[6], I[7], I[8]]],
    position: vec(b.position),
    orientation: vec(b.orientation),
  };
  if (b.velocity.some((x) => x !== 0)) o.velocity = vec(b.velocity);
  if (b.angularVelocity.some((x) => x !== 0)) o.angularVelocity = vec(b.angularVelocity);
  if (!b.gravity) o.gravity = false;
  if (b.gravityCompensation) o.gravityCompensation = b.gravityCompensation;
  if (b.contactInvWeight !== undefined) o.contactInvWeight = b.contactInvWeight;
  if (b.sleep) o.sleep = b.sleep;
  if (b.fixed) o.fixed = true;
  if (b.shapes.length) o.shapes = b.shapes.map(shapeJson);
  return o;
}

function constraintJson(c: ConstraintSpec): Record<string, unknown> {
  if (c.type === 'coupler' && c.coupling) {
    return {
      name: c.name,
      type: 'coupler',
      joints: c.coupling.joints.map((j) => j.joint),
      coefficients: [...c.coupling.coefficients],
      initial: c.coupling.joints.map((j) => j.initial),
    };
  }
  const o: Record<string, unknown> = { name: c.name, type: c.type, bodyA: c.bodyA, bodyB: c.bodyB, anchorA: vec(c.anchorA), anchorB: vec(c.anchorB) };
  if ((c.type === 'hinge' || c.type === 'universal') && c.axisA) Object.assign(o, { axisA: vec(c.axisA), axisB: vec(c.axisB ?? c.axisA) });
  if (c.type === 'slider' && c.axisA) o.axisA = vec(c.axisA);
  Object.assign(o, forcesJson(c));
  if (c.type === 'fixed' && c.relativeOrientation) o.relativeOrientation = vec(c.relativeOrientation);
  if (c.type === 'chain' && c.chain) {
    o.joints = c.chain.map((j) => ({ ...(j.name !== undefined ? { name: j.name } : {}), type: j.type, axis: vec(j.axis), anchor: vec(j.anchor), ...forcesJson(j) }));
  }
  if ((c.type === 'universal' || c.type === 'ball') && c.hinges?.length) {
    o.hinges = c.hinges.map((h) => ({ name: h.name, axis: vec(h.axis), ...(h.zero ? { zero: h.zero } : {}), ...forcesJson(h) }));
  }
  return o;
}

/** The limits, friction loss and drive of a joint (a hinge or slider constraint, a group's hinge, a chain's joint). */
function forcesJson(c: Pick<ConstraintSpec, 'limits' | 'limitMargin' | 'limitSolref' | 'limitSolimp' | 'limitInvWeight' | 'frictionLoss' | 'drive'>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (c.limits) o.limits = vec(c.limits);
  if (c.limits && c.limitMargin) o.limitMargin = c.limitMargin;
  if (c.limits && c.limitSolref) o.limitSolref = vec(c.limitSolref);
  if (c.limits && c.limitSolimp) o.limitSolimp = vec(c.limitSolimp);
  if (c.limits && c.limitInvWeight !== undefined) o.limitInvWeight = c.limitInvWeight;
  if (c.frictionLoss) o.frictionLoss = c.frictionLoss;
  if (c.drive) {
    const d = c.drive;
    o.coordinate = d.coordinate;
    if (d.damping) o.damping = d.damping;
    if (d.stiffness) o.stiffness = d.stiffness;
    o.springRef = d.springRef;
    if (d.armature) o.armature = d.armature;
  }
  return o;
}

function tendonJson(t: TendonSpec): Record<string, unknown> {
  const { index: _index, ...rest } = t;
  return JSON.parse(JSON.stringify(rest)) as Record<string, unknown>;
}

function actuatorJson(a: ActuatorSpec): Record<string, unknown> {
  return {
    name: a.name,
    ...(a.tendon !== undefined ? { tendon: a.tendon } : { joint: a.joint }),
    gear: a.gear,
    gain: vec(a.gain),
    bias: vec(a.bias),
    ...(a.ctrlRange ? { ctrlRange: vec(a.ctrlRange) } : {}),
    ...(a.forceRange ? { forceRange: vec(a.forceRange) } : {}),
    ctrl: a.ctrl,
    ...(a.activation ? { activation: { ...a.activation, ...(a.activation.range ? { range: vec(a.activation.range) } : {}) } } : {}),
  };
}

/**
 * The solver settings as the scene format writes them: `contacts` says whether contacts are solved
 * (with shapes: the import's choice, written out so the file means what the import meant) and the
 * collision rules the import chose (friction rule, jointed bodies colliding); the contact solvers'
 * own settings are written where the import set them (PGS).
 */
function solverJson(s: ImportedScene): Record<string, unknown> {
  const { contacts, newton: _newton, regularization: _regularization, fb: _fb, pgs, ...rest } = s.solver;
  const shapes = s.world.shapes.length + s.bodies.reduce((n, b) => n + b.shapes.length, 0);
  // a contact-free model runs PGS too when it has limits or friction loss (the import's choice)
  const solverPgs = rest.formulation === 'velocity' ? { pgs: { ...pgs } } : {};
  if (shapes === 0) return { ...rest, ...solverPgs };
  const c: Record<string, unknown> = { enabled: contacts.enabled };
  if (contacts.frictionRule && contacts.frictionRule !== 'geometric') c.frictionRule = contacts.frictionRule;
  if (contacts.jointedCollide) c.jointedCollide = true;
  if (contacts.solref) c.solref = [...contacts.solref];
  if (contacts.solimp) c.solimp = [...contacts.solimp];
  if (contacts.soft) c.soft = true;
  if (contacts.cone) c.cone = contacts.cone;
  if (contacts.impratio !== undefined) c.impratio = contacts.impratio;
  if (contacts.sleep) c.sleep = true;
  if (contacts.sleepTolerance !== undefined) c.sleepTolerance = contacts.sleepTolerance;
  if (contacts.margin) c.margin = contacts.margin;
  return { ...rest, contacts: c, ...solverPgs };
}

function worldJson(s: ImportedScene): Record<string, unknown> | undefined {
  const w: Record<string, unknown> = {};
  if (s.world.shapes.length) w.shapes = s.world.shapes.map(shapeJson);
  if (s.world.exclude?.length) w.exclude = s.world.exclude.map((e) => ({ bodyA: e.bodyA, bodyB: e.bodyB }));
  if (s.world.pairs?.length) {
    w.pairs = s.world.pairs.map(({ index: _index, ...p }) => p);
  }
  return Object.keys(w).length ? w : undefined;
}

/** The converted model as scene-file text (JSON with a header comment). */
export function exportScene(model: ExportSource): string {
  const s = model.scene;
  const doc: Record<string, unknown> = {
    name: s.name,
    gravity: vec(s.gravity),
    ...(s.fluid ? { fluid: { density: s.fluid.density, viscosity: s.fluid.viscosity, wind: vec(s.fluid.wind) } } : {}),
    solver: solverJson(s),
    bodies: s.bodies.map(bodyJson),
    constraints: s.constraints.map(constraintJson),
  };
  const world = worldJson(s);
  if (world) doc.world = world;
  // Actuators and tendons name hinge and slider constraints, or the joints a universal, ball or chain
  // names inside itself (its `hinges` or `joints`, written above); one that names anything else is left
  // out and said in the header.
  const named = new Set(s.constraints.flatMap(jointsOf).map((c) => c.name));
  const tendons = (s.tendons ?? []).filter((t) => (t.joints ?? []).every((j) => named.has(j.joint)));
  const kept = new Set(tendons.map((t) => t.name));
  const actuators = (s.actuators ?? []).filter((a) => (a.tendon !== undefined ? kept.has(a.tendon) : named.has(a.joint)));
  const left = [
    ...(s.actuators ?? []).filter((a) => !actuators.includes(a)).map((a) => `actuator ${a.name}`),
    ...(s.tendons ?? []).filter((t) => !kept.has(t.name)).map((t) => `tendon ${t.name}`),
  ];
  if (actuators.length) doc.actuators = actuators.map(actuatorJson);
  if (tendons.length) doc.tendons = tendons.map(tendonJson);
  const from = model.path ? model.path.split(/[\\/]/).pop() : 'an imported model';
  const header = [
    `// Converted from ${from}${model.keyframe ? ` (keyframe ${JSON.stringify(model.keyframe)})` : ''} by Constraint Lens.`,
    '// Bodies sit at their centres of mass, oriented along their principal axes (see docs/import.md).',
  ];
  if (left.length) header.push(`// Left out (they act on joints that have no coordinate of their own here): ${left.join(', ')}.`);
  if (s.requestedIntegrator) header.push(`// The model asks for MuJoCo's ${s.requestedIntegrator} integrator; this scene runs ${integratorInfo(s).runs}.`);
  return `${header.join('\n')}\n${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * The exported text as the scene parser reads it back: its errors, if any. Export as Scene never
 * writes a file its own parser rejects (a non-finite number would be written as null, for instance).
 */
export function exportErrors(text: string): Diagnostic[] {
  return parseScene(text).diagnostics.filter((d) => d.severity === 'error');
}
