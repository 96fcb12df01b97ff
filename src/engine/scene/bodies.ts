// The `bodies` section of a scene: one body per entry (name, mass, inertia, initial state, loads).
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { HUGE, isPositiveDefinite3, mat3Inverse } from '../core/math';
import type { Mat3 } from '../types';
import { BODY_FIELDS, BODY_SLEEP, DEFAULT_INERTIA_DIAGONAL, INERTIA_SYMMETRY_TOLERANCE, WORLD } from './fields';
import { BAD, type Bad, type Data, describe, type FieldObject, type FieldReader, fmt, quote } from './reader';
import { readBodyShapes } from './shapes';
import type { BodySpec, JsonPath } from './spec';
import { COORDINATE, MASS_MAGNITUDE } from './ranges';

/** A body name as declared, valid or not (constraints that name an invalid body are dropped with a note). */
export interface DeclaredBody {
  index: number;
  nameNode: Node;
  valid: boolean;
}

/** Body `i` of the file, or undefined when it has errors (reported). Records its name in `declared`. */
export function readBody(r: FieldReader, node: Node, i: number, declared: Map<string, DeclaredBody>): BodySpec | undefined {
  const path: JsonPath = ['bodies', i];
  if (node.type !== 'object') {
    r.typeError(node, path, `Each body must be an object such as \`{ "name": "A", "mass": 1 }\`, not ${describe(node)}.`, { bodyIndex: i });
    return undefined;
  }
  const errorsBefore = r.errorCount;
  const o = r.object(node, path, BODY_FIELDS, { bodyIndex: i });

  // Name.
  let name: string | undefined;
  let nameNode: Node | undefined;
  const n = r.string(o, 'name', 'A body `name`', { bodyIndex: i });
  if (n === undefined) {
    r.missing(o, 'name', `Body ${i} has no \`name\`. Add \`"name": "..."\`: constraints refer to bodies by name.`, { bodyIndex: i });
  } else if (n !== BAD) {
    nameNode = n.node;
    if (n.value.trim() === '') {
      r.report('error', Codes.invalidValue, 'A body name must not be empty.', n.node, { bodyIndex: i, path: [...path, 'name'] });
    } else if (n.value === WORLD) {
      r.report(
        'error',
        Codes.reservedBodyName,
        '`world` is the fixed world frame and cannot name a body. Rename the body (constraints can use "world" to attach to the world).',
        n.node,
        { bodyIndex: i, bodyName: n.value, path: [...path, 'name'] },
      );
    } else {
      name = n.value;
    }
  }
  const data: Data = name !== undefined ? { bodyIndex: i, bodyName: name } : { bodyIndex: i };
  const label = (f: string): string => `\`${f}\` of body ${name !== undefined ? quote(name) : i}`;

  // Duplicate names: the first definition keeps the name, later ones are dropped.
  let duplicate = false;
  if (name !== undefined && nameNode) {
    const prior = declared.get(name);
    if (prior) {
      duplicate = true;
      r.report(
        'error',
        Codes.duplicateBody,
        `Body name ${quote(name)} is already used by body ${prior.index}. Body names must be unique: rename one of them.`,
        nameNode,
        { ...data, path: [...path, 'name'], firstIndex: prior.index },
        { related: [r.related(`${quote(name)} first defined here`, prior.nameNode)] },
      );
    }
  }

  // Mass.
  let mass = r.number(o, 'mass', label('mass'), { min: 0, exclusiveMin: true, rangeCode: Codes.nonPositiveMass, expect: 'greater than 0 (use `"fixed": true` for an immovable body)', magnitude: MASS_MAGNITUDE }, data);
  if (mass === undefined) {
    mass = r.missing(o, 'mass', `Body ${name !== undefined ? quote(name) : i} has no \`mass\`. Add \`"mass": <kg>\` (a number greater than 0).`, data);
  } else if (typeof mass === 'number' && !(1 / mass <= HUGE)) {
    r.report('error', Codes.invalidValue, `${label('mass')} is ${fmt(mass)}: so small that 1/m ${1 / mass === Infinity ? 'overflows to ∞' : `= ${fmt(1 / mass)} exceeds ${fmt(HUGE)}`}, which makes M⁻¹ meaningless. A mass must be at least ${fmt(1 / HUGE)}.`, r.valueOf(o, 'mass') as Node, {
      ...data,
      path: [...path, 'mass'],
      value: mass,
      min: 1 / HUGE,
    });
    mass = BAD;
  }

  const inertia = readInertia(r, o, label('inertia'), data);
  const position = r.vec3(o, 'position', label('position'), [0, 0, 0], data, COORDINATE);
  const orientation = r.orientation(o, label('orientation'), data);
  const velocity = r.vec3(o, 'velocity', label('velocity'), [0, 0, 0], data);
  const angularVelocity = r.vec3(o, 'angularVelocity', label('angularVelocity'), [0, 0, 0], data);
  const force = r.vec3(o, 'force', label('force'), [0, 0, 0], data);
  const torque = r.vec3(o, 'torque', label('torque'), [0, 0, 0], data);
  const gravity = r.boolean(o, 'gravity', label('gravity'), data);
  const gravityCompensation = r.number(o, 'gravityCompensation', label('gravityCompensation'), {}, data);
  const contactInvWeight = r.number(o, 'contactInvWeight', label('contactInvWeight'), { min: 0, exclusiveMin: true, expect: 'greater than 0' }, data);
  const fixed = r.boolean(o, 'fixed', label('fixed'), data);
  const sleep = r.enumeration(o, 'sleep', label('sleep'), BODY_SLEEP, data);
  const shapes = readBodyShapes(r, o, name !== undefined ? quote(name) : String(i), data);

  const valid = r.errorCount === errorsBefore && name !== undefined && !duplicate;
  if (name !== undefined && nameNode && !declared.has(name)) declared.set(name, { index: i, nameNode, valid });
  if (
    !valid ||
    name === undefined ||
    mass === BAD ||
    inertia === BAD ||
    position === BAD ||
    orientation === BAD ||
    velocity === BAD ||
    angularVelocity === BAD ||
    force === BAD ||
    torque === BAD ||
    gravity === BAD ||
    gravityCompensation === BAD ||
    contactInvWeight === BAD ||
    fixed === BAD ||
    sleep === BAD
  ) {
    return undefined;
  }
  return {
    index: i,
    name,
    mass,
    inertia,
    position,
    orientation,
    velocity,
    angularVelocity,
    force,
    torque,
    gravity: gravity ?? true,
    ...(gravityCompensation ? { gravityCompensation } : {}),
    ...(contactInvWeight !== undefined ? { contactInvWeight } : {}),
    fixed: fixed ?? false,
    ...(sleep !== undefined ? { sleep } : {}),
    shapes,
  };
}


/** Three positive diagonal values, or a symmetric positive-definite 3×3 (3 rows of 3). */
function readInertia(r: FieldReader, o: FieldObject, label: string, data: Data): Mat3 | Bad {
  const node = r.valueOf(o, 'inertia');
  const d = DEFAULT_INERTIA_DIAGONAL;
  if (node === undefined) return [d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]];
  if (node === BAD) return BAD;
  const path = [...o.path, 'inertia'];
  const shape = 'three diagonal values `[Ixx, Iyy, Izz]` or a 3×3 matrix `[[..], [..], [..]]`';
  if (node.type !== 'array') return r.typeError(node, path, `${label} must be ${shape}, not ${describe(node)}.`, data);
  const items = node.children ?? [];
  const matrixForm = items.length > 0 && items[0].type === 'array';
  if (!matrixForm) {
    const v = r.numbers(node, path, label, 3, shape, data);
    if (v === BAD) return BAD;
    for (let k = 0; k < 3; k++) {
      if (!(v[k] > 0)) {
        r.report(
          'error',
          Codes.inertiaNotSpd,
          `${label}: the diagonal value ${fmt(v[k])} must be greater than 0 (a rigid body resists rotation about every axis).`,
          items[k],
          { ...data, path: [...path, k], value: v[k] },
        );
        return BAD;
      }
    }
    const k = v.findIndex((x) => !(1 / x <= HUGE));
    if (k >= 0) return tinyInertia(r, label, items[k], [...path, k], v[k], data);
    return [v[0], 0, 0, 0, v[1], 0, 0, 0, v[2]];
  }
  if (items.length !== 3) return r.typeError(node, path, `${label} must be ${shape}: it has ${items.length} rows instead of 3.`, data);
  const m: number[] = [];
  let bad = false;
  items.forEach((row, i) => {
    const v = r.numbers(row, [...path, i], `row ${i} of ${label}`, 3, 'a row of 3 numbers', data);
    if (v === BAD) bad = true;
    else m.push(...v);
  });
  if (bad) return BAD;
  const M = m as Mat3;
  const scale = Math.max(...M.map(Math.abs));
  for (let i = 0; i < 3; i++) {
    for (let c = i + 1; c < 3; c++) {
      if (Math.abs(M[i * 3 + c] - M[c * 3 + i]) > INERTIA_SYMMETRY_TOLERANCE * scale) {
        r.report(
          'error',
          Codes.inertiaNotSpd,
          `${label} is not symmetric: entry [${i}][${c}] = ${fmt(M[i * 3 + c])} but [${c}][${i}] = ${fmt(M[c * 3 + i])}. Make them equal.`,
          node,
          { ...data, path, entry: [i, c] },
        );
        return BAD;
      }
    }
  }
  const S: Mat3 = [...M] as Mat3;
  for (let i = 0; i < 3; i++)
    for (let c = i + 1; c < 3; c++) {
      const avg = (M[i * 3 + c] + M[c * 3 + i]) / 2;
      S[i * 3 + c] = avg;
      S[c * 3 + i] = avg;
    }
  if (!isPositiveDefinite3(S)) {
    r.report(
      'error',
      Codes.inertiaNotSpd,
      `${label} is not positive definite (Cholesky fails): every principal moment must be greater than 0. Check the signs of the products of inertia.`,
      node,
      { ...data, path },
    );
    return BAD;
  }
  const inv = mat3Inverse(S);
  const worst = inv ? Math.max(...inv.map(Math.abs)) : Infinity;
  if (!(worst <= HUGE)) return tinyInertia(r, label, node, path, 1 / worst, data);
  return S;
}

/** An inertia so small that its inverse overflows (CL005 with the allowed minimum). */
function tinyInertia(r: FieldReader, label: string, node: Node, path: JsonPath, value: number, data: Data): Bad {
  r.report('error', Codes.invalidValue, `${label}: a principal moment of about ${fmt(value)} is so small that the inverse inertia overflows, which makes M⁻¹ meaningless. Every principal moment must be at least ${fmt(1 / HUGE)}.`, node, {
    ...data,
    path,
    value,
    min: 1 / HUGE,
  });
  return BAD;
}
