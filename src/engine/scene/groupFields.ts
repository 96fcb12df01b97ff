// The joints a constraint names inside itself, each with a coordinate of its own (scene/hingeGroups.ts):
// a universal's or ball's `hinges` (model/hingeGroup.ts) and the drive, limits and friction loss of a
// chain's `joints` (model/chainCoordinate.ts). Joints that cannot have a coordinate are CL217.
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { cross, dot } from '../core/math';
import type { Vec3 } from '../types';
import { GROUP_HINGE_FIELDS, DEFAULT_HINGE_AXIS } from './fields';
import { readDrive } from './drives';
import { readJointRowFields } from './jointLimits';
import { jointRowFields } from './hingeGroups';
import { BAD, type Bad, type Data, describe, type FieldObject, type FieldReader, quote } from './reader';
import type { ConstraintSpec, JointDriveSpec, JointRowFields, JsonPath, GroupHingeSpec } from './spec';

type AxisReader = (r: FieldReader, o: FieldObject, key: string, label: string, def: Readonly<Vec3>, data: Data) => Vec3 | Bad;

export interface MemberForces extends JointRowFields {
  drive?: JointDriveSpec;
}

/** A joint's drive fields, `limits`, `limitMargin`, the soft bounds' fields and `frictionLoss`, read as a lone hinge's or slider's. */
export function readMemberForces(r: FieldReader, o: FieldObject, type: 'hinge' | 'slider', label: (f: string) => string, data: Data): MemberForces | Bad {
  const before = r.errorCount;
  const drive = readDrive(r, o, label, data);
  const spec: ConstraintSpec = { index: -1, name: '', type, bodyA: '', bodyB: '', anchorA: [0, 0, 0], anchorB: [0, 0, 0], ...(drive && drive !== BAD ? { drive } : {}) };
  readJointRowFields(r, o, spec, label, data);
  if (r.errorCount !== before || drive === BAD) return BAD;
  return {
    ...(spec.drive ? { drive: spec.drive } : {}),
    ...jointRowFields(spec),
  };
}

/** Read a universal's (two) or ball's (three) `hinges`; BAD when it has errors (reported), undefined when absent. */
export function readGroupHinges(
  r: FieldReader,
  o: FieldObject,
  type: 'universal' | 'ball',
  path: JsonPath,
  name: string,
  data: Data,
  readAxis: AxisReader,
  onName: (name: string, node: Node) => void,
): GroupHingeSpec[] | Bad | undefined {
  const node = r.valueOf(o, 'hinges');
  if (node === undefined || node === BAD) return node;
  const at = [...path, 'hinges'];
  const count = type === 'universal' ? 2 : 3;
  const shape = `an array of ${count} hinges such as \`{ "name": "hip_x", "axis": [1, 0, 0] }\` (axes in bodyB's frame, in the order they turn it)`;
  if (node.type !== 'array') return r.typeError(node, at, `\`hinges\` of ${type} ${quote(name)} must be ${shape}, not ${describe(node)}.`, data);
  const items: Node[] = node.children ?? [];
  if (items.length !== count) {
    r.report('error', Codes.jointCoordinates, `\`hinges\` of ${type} ${quote(name)} must be ${shape}: it has ${items.length}. The constraint is left out.`, node, { ...data, path: at });
    return BAD;
  }
  const before = r.errorCount;
  const out: GroupHingeSpec[] = [];
  const names = new Map<string, Node>();
  items.forEach((item, k) => {
    const hp = [...at, k];
    const label = (f: string): string => `\`${f}\` of hinge ${k} of ${type} ${quote(name)}`;
    if (item.type !== 'object') {
      r.typeError(item, hp, `Hinge ${k} of ${type} ${quote(name)} must be an object such as \`{ "name": "hip_x", "axis": [1, 0, 0] }\`, not ${describe(item)}.`, data);
      return;
    }
    const ho = r.object(item, hp, GROUP_HINGE_FIELDS, data);
    const hn = r.string(ho, 'name', label('name'), data);
    if (hn === undefined) r.missing(ho, 'name', `Hinge ${k} of ${type} ${quote(name)} has no \`name\`. Add \`"name": "<unique joint name>"\` (actuators and tendons name it).`, data);
    if (!ho.props.has('axis')) r.missing(ho, 'axis', `Hinge ${k} of ${type} ${quote(name)} has no \`axis\`. Add \`"axis": [1, 0, 0]\` (in bodyB's frame).`, data);
    const axis = readAxis(r, ho, 'axis', label('axis'), DEFAULT_HINGE_AXIS, data);
    const zero = r.number(ho, 'zero', label('zero'), {}, data);
    const forces = readMemberForces(r, ho, 'hinge', label, data);
    if (hn === undefined || hn === BAD || axis === BAD || zero === BAD || forces === BAD) return;
    const prior = names.get(hn.value);
    if (prior) {
      r.report('error', Codes.jointCoordinates, `Hinges ${quote(hn.value)} of ${type} ${quote(name)}: the name is used twice; each hinge needs its own.`, hn.node, { ...data, path: [...hp, 'name'] }, { related: [r.related('first used here', prior)] });
      return;
    }
    names.set(hn.value, hn.node);
    onName(hn.value, hn.node);
    out.push({ name: hn.value, axis, ...(typeof zero === 'number' && zero !== 0 ? { zero } : {}), drive: forces.drive ?? { coordinate: 0, damping: 0, stiffness: 0, springRef: 0, armature: 0 }, ...forces });
  });
  if (r.errorCount !== before) return BAD;
  const [a, b, c] = out.map((h) => h.axis);
  const independent = count === 2 ? Math.hypot(...cross(a, b)) > 1e-9 : Math.abs(dot(cross(a, b), c)) > 1e-9;
  if (!independent) {
    const why = count === 2 ? 'the two axes are parallel' : 'the three axes lie in one plane, so they do not span every rotation';
    r.report('error', Codes.jointCoordinates, `\`hinges\` of ${type} ${quote(name)}: ${why}, so the hinges' angles are not defined. The constraint is left out.`, node, { ...data, path: at });
    return BAD;
  }
  return out;
}
