// The top-level `tendons` of a scene (docs/scene-format.md; model/tendon.ts, model/tendonForces.ts):
// fixed tendons over hinge and slider constraints (`joints`) and spatial tendons through points fixed in
// bodies (`path`), with limits, spring, damping, friction loss and an equality on the length. A joint
// that is not a valid hinge or slider, a body that does not exist, or an equality's unknown `other`
// tendon is CL216 on the name; the tendon is then left out.
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { jointsOf } from './hingeGroups';
import { TENDON_EQUALITY_FIELDS, TENDON_FIELDS, TENDON_JOINT_FIELDS, TENDON_POINT_FIELDS } from './fields';
import { BAD, type Bad, type Data, describe, type FieldObject, type FieldReader, quote } from './reader';
import type { BodySpec, ConstraintSpec, JsonPath, SolverSettings, TendonSpec } from './spec';

/** Read `tendons`; undefined when absent. */
export function readTendons(r: FieldReader, top: FieldObject, constraints: readonly ConstraintSpec[], bodies: readonly BodySpec[], solver: SolverSettings): TendonSpec[] | undefined {
  const node = r.valueOf(top, 'tendons');
  if (node === undefined || node === BAD) return undefined;
  if (node.type !== 'array') {
    r.typeError(node, ['tendons'], `\`tendons\` must be an array of tendons such as \`{ "name": "tie", "joints": [{ "joint": "knee", "coef": 1 }] }\`, not ${describe(node)}.`, {});
    return undefined;
  }
  const joints = new Set(constraints.flatMap(jointsOf).map((c) => c.name));
  const bodyNames = new Set(bodies.map((b) => b.name));
  const read = (node.children ?? []).map((n, i) => readTendon(r, n, i, joints, bodyNames));
  const out: TendonSpec[] = [];
  const names = new Set(read.filter((t) => t).map((t) => t!.spec.name));
  for (const t of read) {
    if (!t) continue;
    const other = t.other;
    if (other && !names.has(other.value)) {
      r.report('error', Codes.tendonReference, `Tendon ${quote(t.spec.name)}: its equality's \`other\` names no valid tendon (${JSON.stringify(other.value)}).`, other.node, { ...t.data, path: [...t.path, 'equality', 'other'] });
      continue;
    }
    out.push({ ...t.spec, index: out.length });
    // limits, friction loss and the equality are rows of the velocity step only: said on the field (CL210)
    const rows = (['limits', 'frictionLoss', 'equality'] as const).filter((k) => t.spec[k] !== undefined);
    if (solver.formulation !== 'velocity' && rows.length) {
      const at = r.valueOf(t.object, rows[0]);
      if (at && at !== BAD) r.report('warning', Codes.jointRowsNotSolved, `Tendon ${quote(t.spec.name)}: its ${rows.map((k) => `\`${k}\``).join(', ')} are rows only the velocity formulation solves; the ${solver.formulation} formulation runs without them. Set solver.formulation to "velocity".`, at, { ...t.data, path: [...t.path, rows[0]] });
    }
  }
  return out;
}

interface ReadTendon {
  spec: TendonSpec;
  object: FieldObject;
  other?: { value: string; node: Node };
  data: Data;
  path: JsonPath;
}

function readTendon(r: FieldReader, node: Node, i: number, joints: ReadonlySet<string>, bodies: ReadonlySet<string>): ReadTendon | undefined {
  const path: JsonPath = ['tendons', i];
  if (node.type !== 'object') {
    r.typeError(node, path, `Each tendon must be an object such as \`{ "joints": [{ "joint": "knee" }] }\`, not ${describe(node)}.`, { tendonIndex: i });
    return undefined;
  }
  const errors = r.errorCount;
  const o = r.object(node, path, TENDON_FIELDS, { tendonIndex: i });
  const nameValue = r.string(o, 'name', 'A tendon `name`', { tendonIndex: i });
  const name = nameValue !== undefined && nameValue !== BAD ? nameValue.value : `tendon${i}`;
  const data: Data = { tendonIndex: i, tendonName: name };
  const label = (f: string): string => `\`${f}\` of tendon ${quote(name)}`;
  const hasJoints = o.props.has('joints'), hasPath = o.props.has('path');
  if (hasJoints === hasPath) {
    r.report('error', Codes.invalidValue, `Tendon ${quote(name)} needs either \`joints\` (a fixed tendon: Σ coef·q) or \`path\` (a spatial tendon through points), ${hasJoints ? 'not both' : 'and has neither'}.`, node, { ...data, path });
    return undefined;
  }
  const items = (key: string, min: number): Node[] | undefined => {
    const n = r.valueOf(o, key);
    if (n === undefined || n === BAD) return undefined;
    if (n.type !== 'array' || (n.children?.length ?? 0) < min) {
      r.typeError(n, [...path, key], `${label(key)} must be an array of at least ${min} ${key === 'joints' ? 'joints' : 'points'}, not ${describe(n)}.`, data);
      return undefined;
    }
    return n.children ?? [];
  };
  const spec: TendonSpec = { index: i, name };
  if (hasJoints) {
    spec.joints = [];
    (items('joints', 1) ?? []).forEach((n, k) => {
      const p = [...path, 'joints', k];
      if (n.type !== 'object') return r.typeError(n, p, `Entry ${k} of ${label('joints')} must be an object \`{ "joint": "<hinge or slider>", "coef": 1 }\`, not ${describe(n)}.`, data);
      const jo = r.object(n, p, TENDON_JOINT_FIELDS, data);
      const joint = r.string(jo, 'joint', `\`joint\` of entry ${k} of ${label('joints')}`, data);
      const coef = r.number(jo, 'coef', `\`coef\` of entry ${k} of ${label('joints')}`, {}, data);
      if (joint === undefined) r.missing(jo, 'joint', `Entry ${k} of ${label('joints')} has no \`joint\`. Add \`"joint": "<name of a hinge or slider constraint>"\`.`, data);
      else if (joint !== BAD && !joints.has(joint.value)) r.report('error', Codes.tendonReference, `Tendon ${quote(name)}: there is no valid hinge or slider constraint named ${JSON.stringify(joint.value)}.`, joint.node, { ...data, path: [...p, 'joint'] });
      else if (joint !== BAD && coef !== BAD) spec.joints!.push({ joint: joint.value, coef: coef ?? 1 });
    });
  } else {
    spec.path = [];
    (items('path', 2) ?? []).forEach((n, k) => {
      const p = [...path, 'path', k];
      if (n.type !== 'object') return r.typeError(n, p, `Entry ${k} of ${label('path')} must be an object \`{ "body": "<body or world>", "point": [x, y, z] }\`, not ${describe(n)}.`, data);
      const po = r.object(n, p, TENDON_POINT_FIELDS, data);
      const body = r.string(po, 'body', `\`body\` of entry ${k} of ${label('path')}`, data);
      const pt = r.valueOf(po, 'point');
      const point = pt === undefined ? [0, 0, 0] : pt === BAD ? BAD : r.numbers(pt, [...p, 'point'], `\`point\` of entry ${k} of ${label('path')}`, 3, 'a point `[x, y, z]` in the body\'s frame (m)', data);
      if (body === undefined) r.missing(po, 'body', `Entry ${k} of ${label('path')} has no \`body\`. Add \`"body": "<body name or world>"\`.`, data);
      else if (body !== BAD && body.value !== 'world' && !bodies.has(body.value)) r.report('error', Codes.tendonReference, `Tendon ${quote(name)}: there is no body named ${JSON.stringify(body.value)}.`, body.node, { ...data, path: [...p, 'body'] });
      else if (body !== BAD && point !== BAD) spec.path!.push({ body: body.value, point: [point[0], point[1], point[2]] });
    });
  }
  const pair = (key: 'limits' | 'springLength'): [number, number] | undefined | Bad => {
    const n = r.valueOf(o, key);
    if (n === undefined || n === BAD) return n;
    const v = r.numbers(n, [...path, key], label(key), 2, 'two numbers `[lower, upper]` of tendon length', data);
    if (v === BAD) return BAD;
    if (v[0] <= v[1]) return [v[0], v[1]];
    r.report('error', Codes.invalidValue, `${label(key)} must have lower ≤ upper; it is [${v[0]}, ${v[1]}].`, n, { ...data, path: [...path, key], value: v });
    return BAD;
  };
  const limits = pair('limits');
  const springLength = pair('springLength');
  const nonNegative = { min: 0 };
  const margin = r.number(o, 'limitMargin', label('limitMargin'), nonNegative, data);
  const stiffness = r.number(o, 'stiffness', label('stiffness'), nonNegative, data);
  const damping = r.number(o, 'damping', label('damping'), nonNegative, data);
  const friction = r.number(o, 'frictionLoss', label('frictionLoss'), nonNegative, data);
  if (limits && limits !== BAD) spec.limits = limits;
  if (typeof margin === 'number' && margin > 0) spec.limitMargin = margin;
  if (typeof stiffness === 'number' && stiffness > 0) spec.stiffness = stiffness;
  if (springLength && springLength !== BAD) spec.springLength = springLength;
  if (typeof damping === 'number' && damping > 0) spec.damping = damping;
  if (typeof friction === 'number' && friction > 0) spec.frictionLoss = friction;
  let other: { value: string; node: Node } | undefined;
  const eqNode = r.valueOf(o, 'equality');
  if (eqNode !== undefined && eqNode !== BAD) {
    const p = [...path, 'equality'];
    if (eqNode.type !== 'object') r.typeError(eqNode, p, `${label('equality')} must be an object such as \`{ "polycoef": [0] }\`, not ${describe(eqNode)}.`, data);
    else {
      const eo = r.object(eqNode, p, TENDON_EQUALITY_FIELDS, data);
      const eqName = r.string(eo, 'name', `\`name\` of ${label('equality')}`, data);
      const length0 = r.number(eo, 'length0', `\`length0\` of ${label('equality')}`, {}, data);
      const otherLength0 = r.number(eo, 'otherLength0', `\`otherLength0\` of ${label('equality')}`, {}, data);
      const o2 = r.string(eo, 'other', `\`other\` of ${label('equality')}`, data);
      const pc = r.valueOf(eo, 'polycoef');
      const n = pc && pc !== BAD && pc.type === 'array' ? (pc.children?.length ?? 0) : 0;
      const polycoef = pc === undefined ? [0] : pc === BAD ? BAD : n >= 1 && n <= 5 ? r.numbers(pc, [...p, 'polycoef'], `\`polycoef\` of ${label('equality')}`, n, '1 to 5 polynomial coefficients', data) : r.typeError(pc, [...p, 'polycoef'], `\`polycoef\` of ${label('equality')} must be 1 to 5 numbers, not ${describe(pc)}.`, data);
      if (o2 !== undefined && o2 !== BAD) other = o2;
      if (polycoef !== BAD && length0 !== BAD && otherLength0 !== BAD) {
        spec.equality = {
          name: eqName !== undefined && eqName !== BAD ? eqName.value : `${name}.equality`,
          ...(typeof length0 === 'number' ? { length0 } : {}),
          polycoef,
          ...(other ? { other: other.value, ...(typeof otherLength0 === 'number' ? { otherLength0 } : {}) } : {}),
        };
      }
    }
  }
  if (r.errorCount !== errors) return undefined;
  return { spec, object: o, ...(other ? { other } : {}), data, path };
}
