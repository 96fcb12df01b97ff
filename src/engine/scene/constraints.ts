// The `constraints` section of a scene: one constraint per entry (type, ends, anchors and the fields
// of its type), the ends resolved against the bodies, and names checked for duplicates.
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { mat3MulVec, mat3TMulVec, norm, normalize, quatToMat3, sub } from '../core/math';
import { worldPoint } from '../core/math';
import type { Fix, Vec3 } from '../types';
import type { DeclaredBody } from './bodies';
import { readChainJoints } from './chains';
import { type PendingCoupler, readCoupler } from './couplers';
import { readJointRowFields } from './jointLimits';
import { readDrive } from './drives';
import { readGroupHinges } from './groupFields';
import { CONSTRAINT_ALL_FIELDS, CONSTRAINT_TYPE_FIELDS, DEFAULT_HINGE_AXIS, DEFAULT_SLIDER_AXIS, WORLD, ZERO_LENGTH, constraintFields } from './fields';
import { BAD, type Bad, type Data, describe, type FieldObject, type FieldReader, quote } from './reader';
import { closest, removePropertyEdit, replaceNodeEdit } from './text';
import { CONSTRAINT_TYPES, type BodySpec, type ConstraintSpec, type ConstraintType, type JsonPath } from './spec';
import { COORDINATE } from './ranges';

/** Old names of constraint types, offered as fixes for an unknown `type`. */
const TYPE_ALIASES: Record<string, ConstraintType> = {
  rod: 'distance',
  spherical: 'ball',
  'ball-socket': 'ball',
  revolute: 'hinge',
  weld: 'fixed',
  prismatic: 'slider',
};

/** A constraint that has a name (given, or its type and index), for the duplicate-name check. */
export interface NamedConstraint {
  name: string;
  node: Node;
  index: number;
}

/** Constraint `i` of the file, or undefined when it has errors (reported) or names an unusable body. */
export function readConstraint(
  r: FieldReader,
  node: Node,
  i: number,
  bodies: Map<string, BodySpec>,
  declared: Map<string, DeclaredBody>,
  named: NamedConstraint[],
  couplers: PendingCoupler[],
): ConstraintSpec | undefined {
  const path: JsonPath = ['constraints', i];
  if (node.type !== 'object') {
    r.typeError(node, path, `Each constraint must be an object such as \`{ "type": "ball", "bodyA": "A", "bodyB": "world" }\`, not ${describe(node)}.`, {
      constraintIndex: i,
    });
    return undefined;
  }
  const errorsBefore = r.errorCount;

  // The type decides which fields are known, so read it before the other fields.
  const typeProp = findLast(node, 'type');
  const typeNode = typeProp?.children?.[1];
  let type: ConstraintType | undefined;
  if (typeNode && typeNode.type === 'string' && (CONSTRAINT_TYPES as readonly string[]).includes(String(typeNode.value))) {
    type = typeNode.value as ConstraintType;
  }
  const o = type
    ? r.object(node, path, constraintFields(type), { constraintIndex: i }, {
        fields: CONSTRAINT_ALL_FIELDS,
        why: (f) => `${quote(f)} is not a field of a ${type} constraint (${type} takes ${describeTypeFields(type!)}).`,
      })
    : r.object(node, path, CONSTRAINT_ALL_FIELDS, { constraintIndex: i });

  const nameValue = r.string(o, 'name', 'A constraint `name`', { constraintIndex: i });
  const explicitName = nameValue !== undefined && nameValue !== BAD ? nameValue : undefined;
  const name = explicitName?.value ?? `${type ?? 'constraint'}${i}`;
  const data: Data = { constraintIndex: i, constraintName: name };
  const label = (f: string): string => `\`${f}\` of constraint ${quote(name)}`;

  if (!type) {
    if (typeNode === undefined && typeProp === undefined) {
      r.missing(o, 'type', `Constraint ${quote(name)} has no \`type\`. Add \`"type": "${CONSTRAINT_TYPES.join('" | "')}"\`.`, data);
    } else if (typeNode) {
      const t = r.enumeration(o, 'type', label('type'), CONSTRAINT_TYPES, data);
      if (t === BAD && typeNode.type === 'string') aliasFix(r, String(typeNode.value), typeNode);
    }
  }
  if (explicitName || (type && typeNode)) named.push({ name, node: explicitName?.node ?? typeNode!, index: i });
  if (type === 'coupler') {
    // Added by resolveCouplers (couplers.ts) once the joints it names are known.
    const pending = readCoupler(r, o, i, name, data, label);
    if (pending) couplers.push(pending);
    return undefined;
  }

  const ends: { key: 'bodyA' | 'bodyB'; value?: string; node?: Node }[] = [];
  for (const key of ['bodyA', 'bodyB'] as const) {
    const s = r.string(o, key, label(key), data);
    if (s === undefined) r.missing(o, key, `Constraint ${quote(name)} has no \`${key}\`. Add \`"${key}": "<body name or world>"\`.`, data);
    ends.push(s === undefined || s === BAD ? { key } : { key, value: s.value, node: s.node });
  }
  const anchorA = r.vec3(o, 'anchorA', label('anchorA'), [0, 0, 0], data, COORDINATE);
  const anchorB = r.vec3(o, 'anchorB', label('anchorB'), [0, 0, 0], data, COORDINATE);

  // Resolve the ends.
  let droppedBody = false;
  const resolved: (BodySpec | 'world' | undefined)[] = ends.map((e) => {
    if (e.value === undefined || !e.node) return undefined;
    if (e.value === WORLD) return 'world';
    const b = bodies.get(e.value);
    if (b) return b;
    const d = declared.get(e.value);
    if (d) {
      // The body exists but has errors (already reported): drop the constraint with a note.
      droppedBody = true;
      r.report(
        'information',
        Codes.constraintIgnored,
        `Constraint ${quote(name)} is ignored because body ${quote(e.value)} has errors. Fix the body first.`,
        e.node,
        { ...data, path: [...path, e.key], bodyName: e.value },
        { related: [r.related(`Body ${quote(e.value)}`, d.nameNode)] },
      );
      return undefined;
    }
    const candidates = [...bodies.keys(), WORLD];
    const maxDistance = Math.max(2, Math.floor(e.value.length / 2));
    const fixes = closest(e.value, candidates, maxDistance, 3).map((c, k) => ({
      title: `Rename to ${quote(c)}`,
      edits: [replaceNodeEdit(r.index, e.node!, JSON.stringify(c))],
      preferred: k === 0,
    }));
    const known = bodies.size > 0 ? `Known bodies: ${[...bodies.keys()].slice(0, 10).join(', ')}${bodies.size > 10 ? ', …' : ''}, or world.` : 'Use "world" or add the body to `bodies`.';
    r.report('error', Codes.unknownBody, `Constraint ${quote(name)}: no body named ${JSON.stringify(e.value)}. ${known}`, e.node, {
      ...data,
      path: [...path, e.key],
      bodyName: e.value,
      end: e.key,
    }, { fixes });
    return undefined;
  });

  const [endA, endB] = ends;
  const [rA, rB] = resolved;
  if (endA.value !== undefined && endA.value === endB.value && endB.node && endA.node) {
    r.report(
      'error',
      Codes.sameBody,
      `Constraint ${quote(name)} connects ${quote(endA.value)} to itself, which constrains nothing. Change \`bodyB\` to another body or "world".`,
      endB.node,
      { ...data, path: [...path, 'bodyB'], bodyName: endA.value },
      { related: [r.related('bodyA', endA.node)] },
    );
  } else if (rA && rB && isFixed(rA) && isFixed(rB)) {
    const what = (end: BodySpec | 'world'): string => (end === 'world' ? 'the world' : `${quote(end.name)} (fixed: true)`);
    r.report(
      'error',
      Codes.bothFixed,
      `Both ends of constraint ${quote(name)} are fixed: ${what(rA)} and ${what(rB)}. Its rows would be empty; attach at least one end to a moving body.`,
      endB.node!,
      { ...data, path: [...path, 'bodyB'], bodyA: endA.value, bodyB: endB.value },
      { related: [r.related('bodyA', endA.node!)] },
    );
  }

  const spec: ConstraintSpec = {
    index: i,
    name,
    type: type ?? 'distance',
    bodyA: endA.value ?? '',
    bodyB: endB.value ?? '',
    anchorA: anchorA === BAD ? [0, 0, 0] : anchorA,
    anchorB: anchorB === BAD ? [0, 0, 0] : anchorB,
  };

  switch (type) {
    case 'distance': {
      const length = r.number(o, 'length', label('length'), { min: 0 }, data);
      if (typeof length === 'number') {
        if (length <= ZERO_LENGTH) {
          r.report('error', Codes.zeroLength, `Constraint ${quote(name)} has length 0: a distance constraint needs a positive length. Use a ball joint for coincident points.`, r.valueOf(o, 'length') as Node, {
            ...data,
            path: [...path, 'length'],
          }, { fixes: toBallFix(r, o, typeNode) });
        }
        spec.length = length;
      } else if (length === undefined && rA && rB && anchorA !== BAD && anchorB !== BAD) {
        const d = norm(sub(anchorPoint(rB, anchorB), anchorPoint(rA, anchorA)));
        if (!Number.isFinite(d)) {
          r.report('error', Codes.invalidValue, `The anchors of constraint ${quote(name)} are too far apart for a default length. Give \`length\` explicitly.`, typeNode!, {
            ...data,
            path: [...path, 'type'],
          });
        } else if (!(d > ZERO_LENGTH)) {
          r.report(
            'error',
            Codes.zeroLength,
            `The anchors of constraint ${quote(name)} coincide initially, so its default length is 0. Give a positive \`length\`, move an anchor, or use a ball joint.`,
            typeNode!,
            { ...data, path: [...path, 'type'], defaultLength: d },
            { fixes: toBallFix(r, o, typeNode) },
          );
        }
        spec.length = d;
      }
      break;
    }
    case 'fixed': {
      if (o.props.has('relativeOrientation')) {
        const q = r.orientation(o, label('relativeOrientation'), data, 'relativeOrientation');
        if (q !== BAD) spec.relativeOrientation = q;
      }
      break;
    }
    case 'hinge':
    case 'universal': {
      if (type === 'hinge') readDriveInto(r, o, spec, label, data);
      const a = readAxis(r, o, 'axisA', label('axisA'), DEFAULT_HINGE_AXIS, data);
      if (a !== BAD) spec.axisA = a;
      if (o.props.has('axisB')) {
        const b = readAxis(r, o, 'axisB', label('axisB'), DEFAULT_HINGE_AXIS, data);
        if (b !== BAD) spec.axisB = b;
      } else if (a !== BAD) {
        // axisA carried into B's frame at the initial pose: the hinge holds at the start
        spec.axisB = rA && rB ? axisInB(a, rA, rB) : a;
      }
      if (type === 'hinge') readJointRowFields(r, o, spec, label, data);
      if (type === 'universal') readHingesInto(r, o, spec, path, name, data, named, i);
      break;
    }
    case 'ball':
      readHingesInto(r, o, spec, path, name, data, named, i);
      break;
    case 'slider': {
      const a = readAxis(r, o, 'axisA', label('axisA'), DEFAULT_SLIDER_AXIS, data);
      if (a !== BAD) spec.axisA = a;
      readJointRowFields(r, o, spec, label, data);
      readDriveInto(r, o, spec, label, data);
      break;
    }
    case 'chain': {
      const joints = readChainJoints(r, o, path, name, data, readAxis, (n, node) => named.push({ name: n, node, index: i }));
      if (joints !== BAD) spec.chain = joints;
      break;
    }
    case 'lock': {
      const linear = readMask(r, o, 'linear', label('linear'), data);
      const angular = readMask(r, o, 'angular', label('angular'), data);
      if (linear !== BAD && angular !== BAD) {
        spec.linear = linear;
        spec.angular = angular;
        if (!linear.includes(true) && !angular.includes(true)) {
          const key = o.props.has('linear') ? 'linear' : o.props.has('angular') ? 'angular' : 'type';
          const at = key === 'type' ? typeNode! : (r.valueOf(o, key) as Node);
          r.report(
            'warning',
            Codes.emptyLock,
            `Lock constraint ${quote(name)} locks no axis, so it has no rows. Set some entries of \`linear\` or \`angular\` to true.`,
            at,
            { ...data, path: [...path, key] },
          );
        }
      }
      break;
    }
    default:
      break;
  }

  if (r.errorCount !== errorsBefore || droppedBody || !type || !rA || !rB) return undefined;
  return spec;
}

function toBallFix(r: FieldReader, o: FieldObject, typeNode: Node | undefined): Fix[] {
  if (!typeNode) return [];
  const edits = [replaceNodeEdit(r.index, typeNode, '"ball"')];
  const lengthProp = o.props.get('length');
  if (lengthProp) {
    const removal = removePropertyEdit(r.index, lengthProp);
    if (!removal) return [];
    edits.push(removal);
  }
  return [{ title: 'Change to a ball joint', edits }];
}


/** An unknown constraint type that is a known alias: add a fix to the last diagnostic. */
function aliasFix(r: FieldReader, value: string, node: Node): void {
  const target = TYPE_ALIASES[value.toLowerCase()];
  const d = r.diagnostics[r.diagnostics.length - 1];
  if (!target || !d || d.code !== Codes.invalidValue) return;
  const fix: Fix = { title: `Change to ${quote(target)}`, edits: [replaceNodeEdit(r.index, node, JSON.stringify(target))], preferred: true };
  const others = (d.fixes ?? []).filter((f) => f.title !== fix.title).map((f) => ({ ...f, preferred: false }));
  d.fixes = [fix, ...others];
  d.message += ` (${JSON.stringify(value)} is called ${JSON.stringify(target)} here.)`;
}

/** CL206 for every later use of a constraint name. */
export function reportDuplicateConstraintNames(r: FieldReader, named: NamedConstraint[]): void {
  const first = new Map<string, NamedConstraint>();
  for (const c of named) {
    const prior = first.get(c.name);
    if (!prior) {
      first.set(c.name, c);
      continue;
    }
    r.report(
      'warning',
      Codes.duplicateConstraintName,
      `Constraint name ${quote(c.name)} is already used by constraint ${prior.index}; charts and diagnostics would be ambiguous. Give it a unique \`name\`.`,
      c.node,
      { constraintIndex: c.index, constraintName: c.name, firstIndex: prior.index, path: ['constraints', c.index, c.node.parent?.children?.[0]?.value ?? 'name'] },
      { related: [r.related(`${quote(c.name)} first used here`, prior.node)] },
    );
  }
}

/** A universal's or ball's `hinges`; their names join the constraints' (actuators and tendons name them alike). */
function readHingesInto(r: FieldReader, o: FieldObject, spec: ConstraintSpec, path: JsonPath, name: string, data: Data, named: NamedConstraint[], index: number): void {
  const h = readGroupHinges(r, o, spec.type === 'ball' ? 'ball' : 'universal', path, name, data, readAxis, (n, node) => named.push({ name: n, node, index }));
  if (h && h !== BAD) spec.hinges = h;
}

/** A non-zero axis, normalised; zero → CL205. */
function readDriveInto(r: FieldReader, o: FieldObject, spec: ConstraintSpec, label: (f: string) => string, data: Data): void {
  const d = readDrive(r, o, label, data);
  if (d !== undefined && d !== BAD) spec.drive = d;
}

function readAxis(r: FieldReader, o: FieldObject, key: string, label: string, def: Readonly<Vec3>, data: Data): Vec3 | Bad {
  const v = r.vec3(o, key, label, def, data);
  if (v === BAD) return BAD;
  const m = Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2]));
  if (!(m > ZERO_LENGTH)) {
    const node = r.valueOf(o, key) as Node;
    r.report('error', Codes.zeroAxis, `${label} has zero length, so it defines no direction. Give a non-zero vector such as [0, 0, 1].`, node, {
      ...data,
      path: [...o.path, key],
    });
    return BAD;
  }
  // Scale first so that huge components cannot overflow the norm.
  return normalize([v[0] / m, v[1] / m, v[2] / m]);
}

function readMask(r: FieldReader, o: FieldObject, key: string, label: string, data: Data): [boolean, boolean, boolean] | Bad {
  const node = r.valueOf(o, key);
  if (node === undefined) return [false, false, false];
  if (node === BAD) return BAD;
  const path = [...o.path, key];
  const shape = 'three booleans `[x, y, z]`, e.g. [true, false, true]';
  if (node.type !== 'array') return r.typeError(node, path, `${label} must be ${shape}, not ${describe(node)}.`, data);
  const items = node.children ?? [];
  if (items.length !== 3) return r.typeError(node, path, `${label} must be ${shape}: it has ${items.length} entries instead of 3.`, data);
  let bad = false;
  items.forEach((item, i) => {
    if (item.type !== 'boolean') {
      r.typeError(item, [...path, i], `Entry ${i} of ${label} must be \`true\` or \`false\`, not ${describe(item)}.`, data);
      bad = true;
    }
  });
  return bad ? BAD : [items[0].value === true, items[1].value === true, items[2].value === true];
}

function findLast(obj: Node, key: string): Node | undefined {
  const children = obj.children ?? [];
  for (let k = children.length - 1; k >= 0; k--) {
    const p = children[k];
    if (p.type === 'property' && p.children?.[0]?.value === key) return p;
  }
  return undefined;
}

function describeTypeFields(type: ConstraintType): string {
  const extra = CONSTRAINT_TYPE_FIELDS[type];
  return extra.length === 0 ? 'no extra fields' : extra.map(quote).join(' and ');
}

const isFixed = (end: BodySpec | 'world'): boolean => end === 'world' || end.fixed;

/** A direction given in A's frame, expressed in B's frame at the initial pose: R_Bᵀ·R_A·axis. */
function axisInB(axis: Vec3, a: BodySpec | 'world', b: BodySpec | 'world'): Vec3 {
  const world = a === 'world' ? axis : mat3MulVec(quatToMat3(a.orientation), axis);
  return normalize(b === 'world' ? world : mat3TMulVec(quatToMat3(b.orientation), world));
}

/** x = p + R(q)·anchor; for the world, the anchor itself. */
function anchorPoint(end: BodySpec | 'world', anchor: Vec3): Vec3 {
  if (end === 'world') return anchor;
  return worldPoint(end.position, quatToMat3(end.orientation), anchor);
}

