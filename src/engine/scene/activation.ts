// An actuator's `activation` (MuJoCo's activation dynamics, model/activation.ts): read with source
// ranges like every other field; a bad one is an error on its own node and the actuator is left out.
import { Codes } from '../core/codes';
import { ACTIVATION_FIELDS, ACTIVATION_TYPES } from './fields';
import { BAD, type Bad, type Data, describe, type FieldObject, type FieldReader } from './reader';
import type { ActivationSpec, JsonPath } from './spec';

/** The `activation` of an actuator: undefined when absent, BAD when it has errors (reported). */
export function readActivation(r: FieldReader, o: FieldObject, path: JsonPath, label: (f: string) => string, data: Data): ActivationSpec | undefined | Bad {
  const node = r.valueOf(o, 'activation');
  if (node === undefined || node === BAD) return node;
  const at = [...path, 'activation'];
  if (node.type !== 'object') return r.typeError(node, at, `${label('activation')} must be an object such as \`{ "type": "filter", "timeConstant": 0.1 }\`, not ${describe(node)}.`, data);
  const errors = r.errorCount;
  const a = r.object(node, at, ACTIVATION_FIELDS, data);
  const sub = (f: string): string => `${label('activation')}'s \`${f}\``;
  const type = r.enumeration(a, 'type', sub('type'), ACTIVATION_TYPES, data);
  if (type === undefined) r.missing(a, 'type', `${label('activation')} has no \`type\`. Add \`"type": "filter"\` (or "filterexact", "integrator").`, data);
  const tau = r.number(a, 'timeConstant', sub('timeConstant'), { min: 0, exclusiveMin: true }, data);
  if (tau === undefined && (type === 'filter' || type === 'filterexact')) r.missing(a, 'timeConstant', `${label('activation')} of type ${JSON.stringify(type)} needs a \`timeConstant\` (s, > 0).`, data);
  const act0 = r.number(a, 'act0', sub('act0'), {}, data);
  let range: [number, number] | undefined;
  const rn = r.valueOf(a, 'range');
  if (rn !== undefined && rn !== BAD) {
    const v = r.numbers(rn, [...at, 'range'], sub('range'), 2, 'two numbers `[lower, upper]`', data);
    if (v !== BAD && !(v[0] <= v[1])) r.report('error', Codes.invalidValue, `${sub('range')} must have lower ≤ upper; it is [${v[0]}, ${v[1]}].`, rn, { ...data, path: [...at, 'range'], value: v });
    else if (v !== BAD) range = [v[0], v[1]];
  }
  const early = r.boolean(a, 'early', sub('early'), data);
  if (r.errorCount !== errors || type === undefined || type === BAD) return BAD;
  return { type, timeConstant: typeof tau === 'number' ? tau : 0, act0: typeof act0 === 'number' ? act0 : 0, ...(range ? { range } : {}), ...(early === true ? { early } : {}) };
}
