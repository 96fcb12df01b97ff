// A scene in quaternion coordinates (`solver.coordinates: "quaternion"`): the free bodies with their
// 7 columns, msd-sim's rows (the unit-quaternion row every AssetInertial carries first, then the
// scene's distance constraints in file order), their names, and a CL117 warning for everything msd-sim's
// Lagrange framework does not model (left out of the run, never silently).
import { Codes } from '../core/codes';
import { mat3Inverse, quatToMat3 } from '../core/math';
import { constraintRange } from '../analysis/findings';
import type { BodySpec, SceneSpec, SourceMap } from '../scene/spec';
import type { Diagnostic, Mat3, Vec3 } from '../types';
import { MSD_DOF, type MsdRow } from './constraints';
import { omegaToQuaternionRate, type MsdState } from './state';

/** A free body (a column block of 7). */
export interface MsdBody {
  spec: BodySpec;
  name: string;
  mass: number;
  invInertiaBody: Mat3;
  /** External force (applied force and weight) and torque, world frame. */
  force: Vec3;
  torque: Vec3;
}

/** A row of J with its names. */
export interface MsdRowInfo {
  row: MsdRow;
  /** The constraint it belongs to (`Body_A unit quaternion`, or the scene constraint's name). */
  constraint: string;
  type: 'unit-quaternion' | 'distance';
  label: string;
  /** Index in the file's constraints (−1 for a unit-quaternion row). */
  fileIndex: number;
  bodyA: string;
  bodyB: string;
}

export interface MsdModel {
  bodies: MsdBody[];
  rows: MsdRowInfo[];
  /** One label per column: `Body_A.x` … `Body_A.qz`. */
  dofLabels: string[];
  /** CL117 warnings: what the run leaves out. */
  diagnostics: Diagnostic[];
}

const isZero = (v: Vec3): boolean => v[0] === 0 && v[1] === 0 && v[2] === 0;

function warn(message: string, range: Diagnostic['range'], data: Record<string, unknown>): Diagnostic {
  return { severity: 'warning', code: Codes.quaternionCoordinates, message, range, data };
}

/** The model of a scene in quaternion coordinates. */
export function buildMsdModel(scene: SceneSpec, sm: SourceMap): MsdModel {
  const s = scene.solver;
  const diagnostics: Diagnostic[] = [];
  const coordRange = sm.rangeOf(['solver', 'coordinates']);
  const bodies: MsdBody[] = [];
  const freeIndex = new Map<string, number>();
  const fixedPose = new Map<string, { p: Vec3; R: Mat3 }>();
  for (const b of scene.bodies) {
    if (b.fixed) {
      fixedPose.set(b.name, { p: b.position, R: quatToMat3(b.orientation) });
      continue;
    }
    const inv = mat3Inverse(b.inertia);
    if (!inv) continue; // the parser already reported a singular inertia (CL104) and dropped the body
    const gs = b.gravity ? 1 - (b.gravityCompensation ?? 0) : 0;
    const force: Vec3 = [b.force[0] + b.mass * scene.gravity[0] * gs, b.force[1] + b.mass * scene.gravity[1] * gs, b.force[2] + b.mass * scene.gravity[2] * gs];
    freeIndex.set(b.name, bodies.length);
    bodies.push({ spec: b, name: b.name, mass: b.mass, invInertiaBody: inv, force, torque: [...b.torque] as Vec3 });
  }
  const rows: MsdRowInfo[] = bodies.map((b, i) => ({
    row: { kind: 'unit-quaternion', body: i, alpha: s.alpha, beta: s.beta },
    constraint: `${b.name} unit quaternion`,
    type: 'unit-quaternion',
    label: `${b.name}.QᵀQ−1`,
    fileIndex: -1,
    bodyA: b.name,
    bodyB: '',
  }));
  // a world point for an end that does not move: the world's anchor, or a fixed body's anchor in the world
  const worldPoint = (body: string, anchor: Vec3): Vec3 | undefined => {
    if (body === 'world') return [...anchor] as Vec3;
    const f = fixedPose.get(body);
    if (!f) return undefined;
    const R = f.R;
    return [0, 1, 2].map((k) => f.p[k] + R[3 * k] * anchor[0] + R[3 * k + 1] * anchor[1] + R[3 * k + 2] * anchor[2]) as Vec3;
  };
  for (const c of scene.constraints) {
    const range = constraintRange(sm, c.index);
    const data = { constraintIndex: c.index, constraintName: c.name, path: ['constraints', c.index, 'type'] };
    if (c.type !== 'distance') {
      diagnostics.push(warn(`Constraint "${c.name}" (${c.type}) has no row in quaternion coordinates: msd-sim's Lagrange framework models the unit quaternion and distances between centres. The run leaves it out; use \`"coordinates": "twist"\` to simulate it.`, range, data));
      continue;
    }
    const a = freeIndex.get(c.bodyA), bIdx = freeIndex.get(c.bodyB);
    const endA = a ?? bIdx;
    const offCentre = (a !== undefined && !isZero(c.anchorA)) || (bIdx !== undefined && !isZero(c.anchorB));
    if (endA === undefined || offCentre) {
      diagnostics.push(warn(`Distance constraint "${c.name}" ${offCentre ? 'has an anchor off a free body\'s centre' : 'connects no free body'}: in quaternion coordinates a distance is msd-sim's |X_A − X_B|² − d² between centres (or a centre and a world point). The run leaves it out.`, range, data));
      continue;
    }
    // put the free end first; the other end is a free body or a world point
    const swap = a === undefined;
    const otherName = swap ? c.bodyA : c.bodyB;
    const other = swap ? undefined : bIdx;
    const point = other === undefined ? worldPoint(otherName, swap ? c.anchorA : c.anchorB) : undefined;
    if (other === undefined && !point) continue; // an unknown body: the parser reported it (CL201)
    const length = c.length ?? 0;
    rows.push({
      row: { kind: 'distance', a: endA, b: other ?? -1, point: point ?? [0, 0, 0], length, alpha: s.alpha, beta: s.beta },
      constraint: c.name,
      type: 'distance',
      label: `${c.name}.|Δ|²−d²`,
      fileIndex: c.index,
      bodyA: c.bodyA,
      bodyB: c.bodyB,
    });
  }
  const shapeCount = scene.bodies.reduce((n, b) => n + b.shapes.length, 0) + scene.world.shapes.length;
  if (shapeCount > 0) diagnostics.push(warn(`Quaternion coordinates do not solve contacts: the ${shapeCount} shape${shapeCount === 1 ? ' is' : 's are'} ignored.`, coordRange, { path: ['solver', 'coordinates'], shapes: shapeCount }));
  if (s.formulation !== 'acceleration')
    diagnostics.push(warn(`Quaternion coordinates solve msd-sim's acceleration-level system; \`"formulation": "${s.formulation}"\` is not used.`, coordRange, { path: ['solver', 'coordinates'], formulation: s.formulation }));
  if ((scene.actuators?.length ?? 0) > 0)
    diagnostics.push(warn('Quaternion coordinates have no joint coordinates: the actuators are not applied.', coordRange, { path: ['solver', 'coordinates'] }));
  if ((scene.tendons?.length ?? 0) > 0)
    diagnostics.push(warn('Quaternion coordinates have no tendons: the tendons are not simulated.', coordRange, { path: ['solver', 'coordinates'], tendons: scene.tendons!.length }));
  if (scene.fluid && (scene.fluid.density > 0 || scene.fluid.viscosity > 0))
    diagnostics.push(warn('Quaternion coordinates have no fluid forces: the `fluid` medium is not applied.', coordRange, { path: ['solver', 'coordinates'] }));
  const dofLabels = bodies.flatMap((b) => MSD_DOF.map((d) => `${b.name}.${d}`));
  return { bodies, rows, dofLabels, diagnostics };
}

/** The initial state: X, Ẋ, Q from the scene, Q̇ = ½·Q ⊗ [0, ω] (InertialState::setAngularVelocity). */
export function msdInitialState(model: MsdModel): MsdState {
  const n = model.bodies.length;
  const st: MsdState = { X: new Float64Array(3 * n), V: new Float64Array(3 * n), Q: new Float64Array(4 * n), Qdot: new Float64Array(4 * n) };
  model.bodies.forEach((b, i) => {
    const spec = b.spec;
    st.X.set(spec.position, 3 * i);
    st.V.set(spec.velocity, 3 * i);
    st.Q.set(spec.orientation, 4 * i);
    st.Qdot.set(omegaToQuaternionRate(spec.angularVelocity, spec.orientation), 4 * i);
  });
  return st;
}
