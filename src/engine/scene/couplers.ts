// The coupler constraint of a scene: it names the hinge or slider constraints whose coordinates it
// couples instead of two bodies, so it is read with the other constraints (`readCoupler`) and resolved
// once every constraint is known (`resolveCouplers`). See docs/scene-format.md and model/coupler.ts.
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { MAX_COUPLER_COEFFICIENTS } from './fields';
import { BAD, type Data, describe, type FieldObject, type FieldReader, quote } from './reader';
import { closest, replaceNodeEdit } from './text';
import type { ConstraintSpec, CoupledJoint, JsonPath } from './spec';

/** A coupler whose joint names are resolved once every constraint has been read. */
export interface PendingCoupler {
  index: number;
  name: string;
  joints: { value: string; node: Node }[];
  coefficients: number[];
  initial: number[];
  data: Data;
}

/** Read a coupler's `joints`, `coefficients` and `initial`; undefined when they have errors (reported). */
export function readCoupler(r: FieldReader, o: FieldObject, i: number, name: string, data: Data, label: (f: string) => string): PendingCoupler | undefined {
  const path: JsonPath = ['constraints', i];
  const errorsBefore = r.errorCount;
  const list = (key: string, shape: string, min: number, max: number): Node[] | undefined => {
    const node = r.valueOf(o, key);
    if (node === undefined || node === BAD) return undefined;
    const n = node.children?.length ?? 0;
    if (node.type !== 'array') r.typeError(node, [...path, key], `${label(key)} must be ${shape}, not ${describe(node)}.`, data);
    else if (n < min || n > max) r.typeError(node, [...path, key], `${label(key)} must be ${shape}: it has ${n} entries.`, data);
    else return node.children ?? [];
    return undefined;
  };
  const joints: { value: string; node: Node }[] = [];
  if (!o.props.has('joints')) r.missing(o, 'joints', `Coupler ${quote(name)} has no \`joints\`. Add \`"joints": ["<driven hinge or slider>", "<driving hinge or slider>"]\`.`, data);
  for (const [k, item] of (list('joints', 'one or two names of hinge or slider constraints', 1, 2) ?? []).entries()) {
    if (item.type === 'string') joints.push({ value: String(item.value), node: item });
    else r.typeError(item, [...path, 'joints', k], `Entry ${k} of ${label('joints')} must be a constraint name in double quotes, not ${describe(item)}.`, data);
  }
  const numbers = (key: string, nodes: Node[] | undefined): number[] | undefined => {
    if (!nodes) return undefined;
    const out = nodes.map((n, k) => r.numberNode(n, [...path, key, k], `Entry ${k} of ${label(key)}`, {}, data));
    return out.includes(BAD) ? undefined : (out as number[]);
  };
  const coefficients = numbers('coefficients', list('coefficients', `1 to ${MAX_COUPLER_COEFFICIENTS} polynomial coefficients [c0, c1, …]`, 1, MAX_COUPLER_COEFFICIENTS));
  const initial = numbers('initial', list('initial', 'one initial coordinate per joint', 1, 2));
  const initNode = r.valueOf(o, 'initial');
  if (initial && initNode && initNode !== BAD && joints.length && initial.length !== joints.length) {
    r.typeError(initNode, [...path, 'initial'], `${label('initial')} must have one entry per joint (${joints.length}), not ${initial.length}.`, data);
  }
  if (r.errorCount !== errorsBefore || joints.length === 0) return undefined;
  return {
    index: i,
    name,
    joints,
    coefficients: coefficients ?? (joints.length === 2 ? [0, 1] : [0]),
    initial: initial ?? joints.map(() => 0),
    data,
  };
}

/**
 * Resolve each coupler's joint names to hinge or slider constraints (CL207 otherwise) and add the
 * valid couplers to `constraints`, which is then in file order again.
 */
export function resolveCouplers(r: FieldReader, pending: readonly PendingCoupler[], constraints: ConstraintSpec[]): void {
  const byName = new Map(constraints.filter((c) => c.type === 'hinge' || c.type === 'slider').map((c) => [c.name, c]));
  for (const p of pending) {
    const coupled: CoupledJoint[] = [];
    for (const [k, j] of p.joints.entries()) {
      const c = byName.get(j.value);
      if (!c) {
        const other = constraints.find((x) => x.name === j.value);
        const why = other
          ? `${quote(j.value)} is a ${other.type} constraint; a coupler couples hinge or slider coordinates.`
          : `there is no valid hinge or slider constraint named ${JSON.stringify(j.value)}.`;
        const fixes = other
          ? []
          : closest(j.value, [...byName.keys()], Math.max(2, Math.floor(j.value.length / 2)), 3).map((n, rank) => ({
              title: `Rename to ${quote(n)}`,
              edits: [replaceNodeEdit(r.index, j.node, JSON.stringify(n))],
              preferred: rank === 0,
            }));
        r.report('error', Codes.couplerJoint, `Coupler ${quote(p.name)}: ${why}`, j.node, { ...p.data, path: ['constraints', p.index, 'joints', k], joint: j.value }, { fixes });
        continue;
      }
      coupled.push({ joint: c.name, kind: c.type as 'hinge' | 'slider', body: c.bodyB, parent: c.bodyA, axis: c.axisA ?? [0, 0, 1], initial: p.initial[k] ?? 0 });
    }
    if (coupled.length !== p.joints.length) continue;
    if (coupled.length === 2 && coupled[0].joint === coupled[1].joint) {
      r.report('error', Codes.couplerJoint, `Coupler ${quote(p.name)} couples ${quote(coupled[0].joint)} with itself.`, p.joints[1].node, {
        ...p.data,
        path: ['constraints', p.index, 'joints', 1],
      });
      continue;
    }
    constraints.push({
      index: p.index,
      name: p.name,
      type: 'coupler',
      bodyA: coupled[0].body,
      bodyB: coupled[0].parent,
      anchorA: [0, 0, 0],
      anchorB: [0, 0, 0],
      coupling: { joints: coupled as [CoupledJoint] | [CoupledJoint, CoupledJoint], coefficients: p.coefficients },
    });
  }
  constraints.sort((a, b) => a.index - b.index);
}
