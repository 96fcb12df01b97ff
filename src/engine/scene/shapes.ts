// Collision shapes: a body's `shapes` and the top-level `"world": { "shapes": [...] }` (the world
// may also hold planes). Every problem is reported on its value with a stable code (CL110–CL115);
// a shape with an error is left out (and, on a body, the body is dropped like for any other error).
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { normalize } from '../core/math';
import type { ShapeSpec, ShapeType } from './contactSpec';
import type { Vec3 } from '../types';
import {
  BODY_SHAPE_TYPES,
  DEFAULT_FRICTION,
  DEFAULT_PLANE_NORMAL,
  DEFAULT_PLANE_OFFSET,
  DEFAULT_RESTITUTION,
  SHAPE_ALL_FIELDS,
  SHAPE_TYPES,
  SHAPE_TYPE_FIELDS,
  WORLD_FIELDS,
  shapeFields,
} from './contactFields';
import { ZERO_LENGTH } from './fields';
import { convexVertices, readRules } from './shapeRules';
import { quote, type Bad, type Data, type FieldObject, type FieldReader } from './reader';
import { closest, findProperty, replaceNodeEdit } from './text';
import type { JsonPath, WorldSpec } from './spec';
import { COORDINATE, SIZE_MAGNITUDE } from './ranges';

/** Whose shapes: a body (its object and diagnostic context) or the world. */
type Owner = { kind: 'body'; label: string; data: Data } | { kind: 'world'; data: Data };

const isBad = (v: unknown): v is symbol => typeof v === 'symbol';

/** The `shapes` of a body (`o` is the body object). Bad shapes are reported and left out. */
export function readBodyShapes(r: FieldReader, o: FieldObject, bodyLabel: string, data: Data): ShapeSpec[] {
  return readShapeArray(r, o, { kind: 'body', label: bodyLabel, data });
}

/** The top-level `world` object (`top` is the scene object). */
export function readWorld(r: FieldReader, top: FieldObject): WorldSpec {
  const node = r.valueOf(top, 'world');
  if (node === undefined || isBad(node)) return { shapes: [] };
  if (node.type !== 'object') {
    r.typeError(node, ['world'], `\`world\` must be an object such as \`{ "shapes": [ { "type": "plane" } ] }\`, not ${r.describe(node)}.`, {});
    return { shapes: [] };
  }
  const o = r.object(node, ['world'], WORLD_FIELDS, {});
  return { shapes: readShapeArray(r, o, { kind: 'world', data: { world: true } }) };
}

function readShapeArray(r: FieldReader, o: FieldObject, owner: Owner): ShapeSpec[] {
  const node = r.valueOf(o, 'shapes');
  if (node === undefined || isBad(node)) return [];
  const path = [...o.path, 'shapes'];
  if (node.type !== 'array') {
    r.typeError(node, path, `${ownerText(owner, '`shapes`')} must be an array of shapes such as \`[ { "type": "sphere", "radius": 0.5 } ]\`, not ${r.describe(node)}.`, owner.data);
    return [];
  }
  const out: ShapeSpec[] = [];
  (node.children ?? []).forEach((child, i) => {
    const s = readShape(r, child, [...path, i], i, owner);
    if (s) out.push(s);
  });
  return out;
}

const ownerText = (owner: Owner, what: string): string => (owner.kind === 'body' ? `${what} of body ${owner.label}` : `${what} of the world`);

function readShape(r: FieldReader, node: Node, path: JsonPath, i: number, owner: Owner): ShapeSpec | undefined {
  const allowed = owner.kind === 'body' ? BODY_SHAPE_TYPES : SHAPE_TYPES;
  if (node.type !== 'object') {
    r.typeError(node, path, `Each shape must be an object such as \`{ "type": "box", "halfExtents": [0.5, 0.5, 0.5] }\`, not ${r.describe(node)}.`, { ...owner.data, shapeIndex: i });
    return undefined;
  }
  // The type decides which fields are known, so read it first.
  const typeNode = findProperty(node, 'type')?.children?.[1];
  const type = typeNode?.type === 'string' && (SHAPE_TYPES as readonly string[]).includes(String(typeNode.value)) ? (typeNode.value as ShapeType) : undefined;
  const o = type
    ? r.object(node, path, shapeFields(type), { ...owner.data, shapeIndex: i }, { fields: SHAPE_ALL_FIELDS, why: (f) => `${quote(f)} is not a field of a ${type} shape (${type} takes ${describeFields(type)}).` })
    : r.object(node, path, SHAPE_ALL_FIELDS, { ...owner.data, shapeIndex: i });
  const nameValue = r.string(o, 'name', 'A shape `name`', { ...owner.data, shapeIndex: i });
  const name = nameValue !== undefined && !isBad(nameValue) ? nameValue.value : `${type ?? 'shape'}${i}`;
  const data: Data = { ...owner.data, shapeIndex: i, shapeName: name };
  const label = (f: string): string => ownerText(owner, `\`${f}\` of shape ${quote(name)}`);
  let bad = false;
  const ok = <T>(v: T | Bad): T | undefined => {
    if (isBad(v)) {
      bad = true;
      return undefined;
    }
    return v;
  };

  if (!type) {
    if (typeNode === undefined) {
      r.missing(o, 'type', `${ownerText(owner, `Shape ${quote(name)}`)} has no \`type\`. Add \`"type": "${allowed.join('" | "')}"\`.`, data);
    } else if (typeNode.type !== 'string') {
      r.typeError(typeNode, [...path, 'type'], `${label('type')} must be a string such as "sphere", not ${r.describe(typeNode)}.`, data);
    } else {
      const value = String(typeNode.value);
      const fixes = closest(value, allowed, 3, 3).map((c, k) => ({ title: `Change to ${quote(c)}`, edits: [replaceNodeEdit(r.index, typeNode, JSON.stringify(c))], preferred: k === 0 }));
      r.report('error', Codes.unknownShapeType, `${label('type')} ${JSON.stringify(value)} is not a shape type. Use one of: ${allowed.map((a) => JSON.stringify(a)).join(', ')}.`, typeNode, {
        ...data,
        path: [...path, 'type'],
        value,
        allowed: [...allowed],
      }, { fixes });
    }
    return undefined;
  }
  if (!allowed.includes(type)) {
    r.report(
      'error',
      Codes.planeOnBody,
      `${label('type')}: a plane is infinite and cannot belong to a body. Move it to the top-level \`"world": { "shapes": [...] }\`, or use a thin box.`,
      typeNode!,
      { ...data, path: [...path, 'type'] },
    );
    return undefined;
  }

  const friction = ok(r.number(o, 'friction', label('friction'), { min: 0, rangeCode: Codes.negativeFriction, expect: 'at least 0' }, data)) ?? DEFAULT_FRICTION;
  const restitution = ok(r.number(o, 'restitution', label('restitution'), { min: 0, max: 1, rangeCode: Codes.restitutionRange, expect: 'between 0 and 1' }, data)) ?? DEFAULT_RESTITUTION;
  const base = { name, index: i, friction, restitution, position: [0, 0, 0] as Vec3, orientation: [0, 0, 0, 1] as ShapeSpec['orientation'], ...ok(readRules(r, o, label, data)) };
  if (type !== 'plane') {
    base.position = ok(r.vec3(o, 'position', label('position'), [0, 0, 0], data, COORDINATE)) ?? base.position;
    base.orientation = ok(r.orientation(o, label('orientation'), data)) ?? base.orientation;
  }
  const fluidNode = r.valueOf(o, 'fluidEllipsoid');
  if (fluidNode !== undefined && !isBad(fluidNode)) {
    const coef = ok(r.numbers(fluidNode, [...path, 'fluidEllipsoid'], label('fluidEllipsoid'), 5, 'five numbers `[blunt, slender, angular, kutta, magnus]` (MuJoCo\'s fluidcoef)', data, { min: 0, expect: 'at least 0' }));
    if (coef) Object.assign(base, { fluidEllipsoid: coef as [number, number, number, number, number] });
  }
  const size = (key: string): number | undefined => {
    const v = ok(r.number(o, key, label(key), { min: 0, exclusiveMin: true, rangeCode: Codes.nonPositiveSize, expect: 'greater than 0', magnitude: SIZE_MAGNITUDE }, data));
    if (v === undefined && !o.props.has(key)) {
      r.missing(o, key, `${ownerText(owner, `The ${type} shape ${quote(name)}`)} has no \`${key}\`. Add \`"${key}": <m>\` (a number greater than 0).`, data);
      bad = true;
    }
    return v;
  };

  let spec: ShapeSpec | undefined;
  switch (type) {
    case 'sphere': {
      const radius = size('radius');
      if (radius !== undefined) spec = { ...base, type, radius };
      break;
    }
    case 'capsule': {
      const radius = size('radius');
      const halfLength = size('halfLength');
      if (radius !== undefined && halfLength !== undefined) spec = { ...base, type, radius, halfLength };
      break;
    }
    case 'cylinder': {
      const radius = size('radius');
      const halfLength = size('halfLength');
      if (radius !== undefined && halfLength !== undefined) spec = { ...base, type, radius, halfLength };
      break;
    }
    case 'ellipsoid': {
      const radii = positiveVec(r, o, 'radii', label('radii'), `${ownerText(owner, `The ellipsoid shape ${quote(name)}`)} has no \`radii\`. Add \`"radii": [a, b, c]\` (its semi-axes, each greater than 0).`, data);
      if (radii === undefined) bad = true;
      else spec = { ...base, type, radii };
      break;
    }
    case 'convex': {
      const vertices = convexVertices(r, o, label('vertices'), `${ownerText(owner, `The convex shape ${quote(name)}`)} has no \`vertices\`. Add \`"vertices": [[x, y, z], ...]\` (at least 4 points, not all in one plane).`, data);
      if (vertices === undefined) bad = true;
      else spec = { ...base, type, vertices };
      break;
    }
    case 'box': {
      const h = positiveVec(r, o, 'halfExtents', label('halfExtents'), `${ownerText(owner, `The box shape ${quote(name)}`)} has no \`halfExtents\`. Add \`"halfExtents": [x, y, z]\` (half the box's size along its axes, each greater than 0).`, data);
      if (h === undefined) bad = true;
      else spec = { ...base, type, halfExtents: h };
      break;
    }
    case 'plane': {
      const normal = planeNormal(r, o, label('normal'), data);
      const offset = ok(r.number(o, 'offset', label('offset'), COORDINATE, data));
      if (normal === undefined) bad = true;
      else spec = { ...base, type, normal, offset: offset ?? DEFAULT_PLANE_OFFSET };
      break;
    }
  }
  return bad ? undefined : spec;
}

/** A type's own geometry fields (its size; fluidEllipsoid, shared by the solids, is no hint of which type to use). */
function describeFields(type: ShapeType): string {
  const extra = SHAPE_TYPE_FIELDS[type].filter((f) => f !== 'fluidEllipsoid').map(quote);
  return type === 'plane' ? `${extra.join(' and ')}, and no pose` : extra.join(' and ');
}

/** Three components, each greater than 0 (CL110 on the offending component). Required. */
function positiveVec(r: FieldReader, o: FieldObject, key: string, label: string, missing: string, data: Data): Vec3 | undefined {
  const node = r.valueOf(o, key);
  if (node === undefined) {
    r.missing(o, key, missing, data);
    return undefined;
  }
  const v = r.vec3(o, key, label, [0, 0, 0], data, COORDINATE);
  if (isBad(v) || isBad(node)) return undefined;
  for (let k = 0; k < 3; k++) {
    if (!(v[k] > 0)) {
      r.report('error', Codes.nonPositiveSize, `${label}: component ${k} is ${v[k]}; every component must be greater than 0.`, node.children![k], {
        ...data,
        path: [...o.path, key, k],
        value: v[k],
      });
      return undefined;
    }
  }
  return v;
}

/** A plane's normal, normalised; zero → CL111. Default [0, 0, 1]. */
function planeNormal(r: FieldReader, o: FieldObject, label: string, data: Data): Vec3 | undefined {
  const v = r.vec3(o, 'normal', label, DEFAULT_PLANE_NORMAL, data);
  if (isBad(v)) return undefined;
  const m = Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2]));
  if (!(m > ZERO_LENGTH)) {
    r.report('error', Codes.zeroNormal, `${label} has zero length, so it defines no half-space. Give the outward direction of the ground, such as [0, 0, 1].`, r.valueOf(o, 'normal') as Node, {
      ...data,
      path: [...o.path, 'normal'],
    }, { fixes: [{ title: 'Use [0, 0, 1]', edits: [replaceNodeEdit(r.index, r.valueOf(o, 'normal') as Node, '[0, 0, 1]')], preferred: true }] });
    return undefined;
  }
  // Scale first so that huge components cannot overflow the norm.
  return normalize([v[0] / m, v[1] / m, v[2] / m]);
}
