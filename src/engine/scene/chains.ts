// The `joints` of a chain constraint: the hinges and slides from bodyA to bodyB in the order they act,
// each with its axis and anchor in bodyA's frame at the initial state. A chain whose joints have no
// closed form (chainPattern.ts) is reported with CL211 on its `joints`. A joint may carry a drive, limits
// and friction loss as a lone hinge's or slider's (its coordinate: model/chainCoordinate.ts; CL217 where
// the chain's joints cannot have coordinates).
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { classifyJointChain } from './chainPattern';
import { CHAIN_JOINT_FIELDS, CHAIN_JOINT_TYPES, DEFAULT_HINGE_AXIS } from './fields';
import { BAD, type Bad, type Data, describe, type FieldObject, type FieldReader, quote } from './reader';
import type { ChainJointSpec, JsonPath } from './spec';
import type { Vec3 } from '../types';
import { COORDINATE } from './ranges';
import { readMemberForces } from './groupFields';
import { chainHasCoordinates } from './chainJoints';

type AxisReader = (r: FieldReader, o: FieldObject, key: string, label: string, def: Readonly<Vec3>, data: Data) => Vec3 | Bad;

/** Read and check `joints`; BAD when it has errors (reported). */
export function readChainJoints(
  r: FieldReader,
  o: FieldObject,
  path: JsonPath,
  name: string,
  data: Data,
  readAxis: AxisReader,
  onName: (name: string, node: Node) => void = () => {},
): ChainJointSpec[] | Bad {
  const node = r.valueOf(o, 'joints');
  if (node === BAD) return BAD;
  if (node === undefined) {
    return r.missing(o, 'joints', `Chain ${quote(name)} has no \`joints\`. Add \`"joints": [{ "type": "slider", "axis": [1, 0, 0] }, { "type": "hinge", "axis": [0, 1, 0] }]\`.`, data);
  }
  const at = [...path, 'joints'];
  const shape = 'an array of 1 to 6 joints such as `{ "type": "hinge", "axis": [0, 0, 1], "anchor": [0, 0, 0] }`';
  if (node.type !== 'array') return r.typeError(node, at, `\`joints\` of chain ${quote(name)} must be ${shape}, not ${describe(node)}.`, data);
  const items: Node[] = node.children ?? [];
  if (items.length < 1 || items.length > 6) return r.typeError(node, at, `\`joints\` of chain ${quote(name)} must be ${shape}: it has ${items.length} entries.`, data);
  const errorsBefore = r.errorCount;
  const joints: ChainJointSpec[] = [];
  const withForces: Node[] = [];
  items.forEach((item, k) => {
    const jp = [...at, k];
    const label = (f: string): string => `\`${f}\` of joint ${k} of chain ${quote(name)}`;
    if (item.type !== 'object') {
      r.typeError(item, jp, `Joint ${k} of chain ${quote(name)} must be an object such as \`{ "type": "hinge", "axis": [0, 0, 1] }\`, not ${describe(item)}.`, data);
      return;
    }
    const jo = r.object(item, jp, CHAIN_JOINT_FIELDS, data);
    const type = r.enumeration(jo, 'type', label('type'), CHAIN_JOINT_TYPES, data);
    if (type === undefined) r.missing(jo, 'type', `Joint ${k} of chain ${quote(name)} has no \`type\`. Add \`"type": "hinge"\` or \`"type": "slider"\`.`, data);
    const axis = readAxis(r, jo, 'axis', label('axis'), DEFAULT_HINGE_AXIS, data);
    const anchor = r.vec3(jo, 'anchor', label('anchor'), [0, 0, 0], data, COORDINATE);
    const jn = r.string(jo, 'name', label('name'), data);
    if (type === undefined || type === BAD || axis === BAD || anchor === BAD) return;
    const forces = readMemberForces(r, jo, type, label, data);
    if (forces === BAD) return;
    if (Object.keys(forces).length) {
      withForces.push(item);
      // named by actuators and tendons like a constraint
      if (jn && jn !== BAD) onName(jn.value, jn.node);
    }
    // a joint with a limit or friction loss but no drive fields still needs its coordinate (0 initially)
    const drive = forces.drive ?? (Object.keys(forces).length ? { coordinate: 0, damping: 0, stiffness: 0, springRef: 0, armature: 0 } : undefined);
    joints.push({ type, axis, anchor, ...(jn && jn !== BAD ? { name: jn.value } : {}), ...forces, ...(drive ? { drive } : {}) });
  });
  if (r.errorCount !== errorsBefore) return BAD;
  if (withForces.length && !chainHasCoordinates(joints)) {
    r.report(
      'error',
      Codes.jointCoordinates,
      `Chain ${quote(name)}: its joints cannot each have a coordinate (that takes at most one hinge, two with independent axes or three whose axes span space, and slides along independent directions), so a joint's drive, limits or friction loss cannot act. Remove them or split the chain with an intermediate body. The constraint is left out.`,
      withForces[0],
      { ...data, path: at },
    );
    return BAD;
  }
  const scale = Math.max(1, ...joints.map((j) => Math.hypot(...j.anchor)));
  const pattern = classifyJointChain(joints, scale);
  if (pattern.kind === 'error') {
    r.report('error', Codes.degenerateChain, `Chain ${quote(name)} cannot be modelled: ${pattern.reason}.`, node, { ...data, path: at });
    return BAD;
  }
  return joints;
}
