// The smooth forces of hinges and sliders in the scene format: the joint fields (damping, stiffness,
// springRef, armature, coordinate) and the top-level `actuators` (model/forces.ts applies them).
import { readActivation } from './activation';
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { closest, replaceNodeEdit } from './text';
import { BAD, type Bad, type Data, describe, type FieldObject, type FieldReader, quote } from './reader';
import type { ActuatorSpec, ConstraintSpec, JointDriveSpec, TendonSpec } from './spec';

import { ACTUATOR_FIELDS, DRIVE_FIELDS } from './fields';
import { jointsOf } from './hingeGroups';

export const DEFAULT_ACTUATOR = { gear: 1, gain: [1, 0, 0], bias: [0, 0, 0], ctrl: 0 } as const;

/** A hinge's or slider's drive fields, undefined when it has none (BAD after a reported error). */
export function readDrive(r: FieldReader, o: FieldObject, label: (f: string) => string, data: Data): JointDriveSpec | undefined | Bad {
  if (!DRIVE_FIELDS.some((f) => o.props.has(f))) return undefined;
  const nonNegative = { min: 0 };
  const damping = r.number(o, 'damping', label('damping'), nonNegative, data);
  const stiffness = r.number(o, 'stiffness', label('stiffness'), nonNegative, data);
  const springRef = r.number(o, 'springRef', label('springRef'), {}, data);
  const armature = r.number(o, 'armature', label('armature'), nonNegative, data);
  const coordinate = r.number(o, 'coordinate', label('coordinate'), {}, data);
  if ([damping, stiffness, springRef, armature, coordinate].includes(BAD)) return BAD;
  const c = (coordinate as number | undefined) ?? 0;
  return {
    coordinate: c,
    damping: (damping as number | undefined) ?? 0,
    stiffness: (stiffness as number | undefined) ?? 0,
    // MuJoCo's springref defaults to the reference configuration; here to the initial coordinate
    springRef: (springRef as number | undefined) ?? c,
    armature: (armature as number | undefined) ?? 0,
  };
}

/** The top-level `actuators` array; each must name a hinge or slider among `constraints` (CL215 otherwise). */
export function readActuators(r: FieldReader, top: FieldObject, constraints: readonly ConstraintSpec[], tendons: readonly TendonSpec[] = []): ActuatorSpec[] | undefined {
  const node = r.valueOf(top, 'actuators');
  if (node === undefined || node === BAD) return undefined;
  if (node.type !== 'array') {
    r.typeError(node, ['actuators'], `\`actuators\` must be an array of actuators such as \`{ "joint": "elbow", "gain": [1, 0, 0] }\`, not ${describe(node)}.`, {});
    return undefined;
  }
  // a hinge or slider constraint, or a joint it names inside itself (a universal's or ball's hinges, a chain's joints)
  const joints = new Map(constraints.flatMap(jointsOf).map((c) => [c.name, c]));
  const out: ActuatorSpec[] = [];
  (node.children ?? []).forEach((n, i) => {
    const a = readActuator(r, n, i, joints, constraints, new Set(tendons.map((t) => t.name)));
    if (a) out.push(a);
  });
  return out;
}

function readActuator(r: FieldReader, node: Node, i: number, joints: Map<string, ConstraintSpec>, all: readonly ConstraintSpec[], tendons: ReadonlySet<string>): ActuatorSpec | undefined {
  const path = ['actuators', i];
  if (node.type !== 'object') {
    r.typeError(node, path, `Each actuator must be an object such as \`{ "joint": "elbow" }\`, not ${describe(node)}.`, { actuatorIndex: i });
    return undefined;
  }
  const errors = r.errorCount;
  const o = r.object(node, path, ACTUATOR_FIELDS, { actuatorIndex: i });
  const nameValue = r.string(o, 'name', 'An actuator `name`', { actuatorIndex: i });
  const name = nameValue !== undefined && nameValue !== BAD ? nameValue.value : `actuator${i}`;
  const data: Data = { actuatorIndex: i, actuatorName: name };
  const label = (f: string): string => `\`${f}\` of actuator ${quote(name)}`;
  // a tendon instead of a joint: l = gear·L (model/tendonForces.ts)
  const tendon = r.string(o, 'tendon', label('tendon'), data);
  if (tendon !== undefined && tendon !== BAD && o.props.has('joint')) {
    r.report('error', Codes.invalidValue, `Actuator ${quote(name)} names both a \`joint\` and a \`tendon\`; it pulls one of them.`, tendon.node, { ...data, path: [...path, 'tendon'] });
  } else if (tendon !== undefined && tendon !== BAD && !tendons.has(tendon.value)) {
    r.report('error', Codes.tendonReference, `Actuator ${quote(name)}: there is no valid tendon named ${JSON.stringify(tendon.value)}.`, tendon.node, { ...data, path: [...path, 'tendon'] });
  }
  const joint = tendon === undefined ? r.string(o, 'joint', label('joint'), data) : { value: '', node };
  if (joint === undefined) r.missing(o, 'joint', `Actuator ${quote(name)} has no \`joint\` (or \`tendon\`). Add \`"joint": "<name of a hinge or slider constraint>"\`.`, data);
  else if (tendon === undefined && joint !== BAD && !joints.has(joint.value)) {
    const other = all.find((c) => c.name === joint.value);
    const why = other ? `${quote(joint.value)} is a ${other.type} constraint; an actuator drives a hinge or slider coordinate.` : `there is no valid hinge or slider constraint named ${JSON.stringify(joint.value)}.`;
    const fixes = other
      ? []
      : closest(joint.value, [...joints.keys()], Math.max(2, Math.floor(joint.value.length / 2)), 3).map((n, k) => ({
          title: `Rename to ${quote(n)}`,
          edits: [replaceNodeEdit(r.index, joint.node, JSON.stringify(n))],
          preferred: k === 0,
        }));
    r.report('error', Codes.actuatorJoint, `Actuator ${quote(name)}: ${why}`, joint.node, { ...data, path: [...path, 'joint'], joint: joint.value }, { fixes });
  }
  const gear = r.number(o, 'gear', label('gear'), {}, data);
  const triple = (key: 'gain' | 'bias', def: readonly number[]): [number, number, number] | Bad => {
    const n = r.valueOf(o, key);
    if (n === undefined) return [def[0], def[1], def[2]];
    if (n === BAD) return BAD;
    const v = r.numbers(n, [...path, key], label(key), 3, `three numbers \`[${key}₀, ${key}₁, ${key}₂]\` (constant, per length, per velocity)`, data);
    return v === BAD ? BAD : [v[0], v[1], v[2]];
  };
  const gain = triple('gain', DEFAULT_ACTUATOR.gain);
  const bias = triple('bias', DEFAULT_ACTUATOR.bias);
  const range = (key: 'ctrlRange' | 'forceRange'): [number, number] | undefined | Bad => {
    const n = r.valueOf(o, key);
    if (n === undefined || n === BAD) return n;
    const v = r.numbers(n, [...path, key], label(key), 2, 'two numbers `[lower, upper]`', data);
    if (v === BAD) return BAD;
    if (!(v[0] <= v[1])) {
      r.report('error', Codes.invalidValue, `${label(key)} must have lower ≤ upper; it is [${v[0]}, ${v[1]}].`, n, { ...data, path: [...path, key], value: v });
      return BAD;
    }
    return [v[0], v[1]];
  };
  const ctrlRange = range('ctrlRange');
  const forceRange = range('forceRange');
  const ctrl = r.number(o, 'ctrl', label('ctrl'), {}, data);
  const activation = readActivation(r, o, path, label, data);
  if (r.errorCount !== errors || joint === undefined || joint === BAD || tendon === BAD || gain === BAD || bias === BAD || ctrlRange === BAD || forceRange === BAD || activation === BAD) return undefined;
  return {
    index: i,
    name,
    joint: joint.value,
    ...(tendon ? { tendon: tendon.value } : {}),
    gear: typeof gear === 'number' ? gear : DEFAULT_ACTUATOR.gear,
    gain,
    bias,
    ...(ctrlRange ? { ctrlRange } : {}),
    ...(forceRange ? { forceRange } : {}),
    ctrl: typeof ctrl === 'number' ? ctrl : DEFAULT_ACTUATOR.ctrl,
    ...(activation ? { activation } : {}),
  };
}
