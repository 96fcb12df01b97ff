// MuJoCo's collision rules in the scene format: per shape `contype`, `conaffinity`, `margin`, `gap`,
// `priority`, `condim`; a convex shape's `vertices`; and the world's `exclude` (body pairs that never
// touch) and `pairs` (explicit shape pairs with their own parameters). Every problem is reported on
// its value with a stable code; a bad entry is left out.
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import type { CollisionRules, ExcludeSpec, PairSpec, ShapeSpec } from './contactSpec';
import type { Vec3 } from '../types';
import { CONDIMS, EXCLUDE_FIELDS, MAX_CONVEX_VERTICES, PAIR_FIELDS } from './contactFields';
import { WORLD } from './fields';
import { BAD, quote, type Bad, type Data, type FieldObject, type FieldReader } from './reader';
import { closest, replaceNodeEdit } from './text';
import type { BodySpec, WorldSpec } from './spec';
import { COORDINATE } from './ranges';
import { readSoftRules } from './softRules';

const isBad = (v: unknown): v is symbol => typeof v === 'symbol';

/** A bitmask: a whole number in [0, 2³¹ − 1] (MuJoCo's int). */
const MASK = { min: 0, max: 2 ** 31 - 1, integer: true, expect: 'a whole number from 0 to 2147483647 (a bitmask)' };

/** The optional collision-rule fields of a shape (only those written). */
export function readRules(r: FieldReader, o: FieldObject, label: (f: string) => string, data: Data, pair = false): CollisionRules | Bad {
  const soft = readSoftRules(r, o, label, data, !pair);
  const out: CollisionRules = isBad(soft) ? {} : soft;
  let bad = isBad(soft);
  const take = (key: 'contype' | 'conaffinity' | 'margin' | 'gap' | 'priority' | 'condim', v: number | undefined | Bad): void => {
    if (isBad(v)) bad = true;
    else if (v !== undefined) out[key] = v;
  };
  take('contype', r.number(o, 'contype', label('contype'), MASK, data));
  take('conaffinity', r.number(o, 'conaffinity', label('conaffinity'), MASK, data));
  take('margin', r.number(o, 'margin', label('margin'), { min: 0 }, data));
  take('gap', r.number(o, 'gap', label('gap'), { min: 0 }, data));
  take('priority', r.number(o, 'priority', label('priority'), { integer: true }, data));
  take('condim', condim(r, o, label('condim'), data));
  return bad ? BAD : out;
}

function condim(r: FieldReader, o: FieldObject, label: string, data: Data): number | undefined | Bad {
  const v = r.number(o, 'condim', label, { integer: true }, data);
  if (v === undefined || isBad(v)) return v;
  if (CONDIMS.includes(v)) return v;
  r.report('error', Codes.invalidValue, `${label} must be one of ${CONDIMS.join(', ')} (1 frictionless, 3 sliding friction, 4 and 6 add torsional and rolling friction); it is ${v}.`, r.valueOf(o, 'condim') as Node, {
    ...data,
    path: [...o.path, 'condim'],
    value: v,
  });
  return BAD;
}

/** A convex shape's points: an array of at least 4 3-vectors, not all in one plane. */
export function convexVertices(r: FieldReader, o: FieldObject, label: string, missing: string, data: Data): Vec3[] | undefined {
  const node = r.valueOf(o, 'vertices');
  if (node === undefined) {
    r.missing(o, 'vertices', missing, data);
    return undefined;
  }
  if (isBad(node)) return undefined;
  const path = [...o.path, 'vertices'];
  if (node.type !== 'array') {
    r.typeError(node, path, `${label} must be an array of points such as \`[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]\`, not ${r.describe(node)}.`, data);
    return undefined;
  }
  const items = node.children ?? [];
  if (items.length < 4 || items.length > MAX_CONVEX_VERTICES) {
    r.report('error', Codes.invalidValue, `${label} has ${items.length} point${items.length === 1 ? '' : 's'}; a convex shape needs from 4 to ${MAX_CONVEX_VERTICES}.`, node, { ...data, path, count: items.length });
    return undefined;
  }
  const out: Vec3[] = [];
  for (let i = 0; i < items.length; i++) {
    const v = r.numbers(items[i], [...path, i], `Point ${i} of ${label}`, 3, 'a 3-vector `[x, y, z]`', data, COORDINATE);
    if (isBad(v)) return undefined;
    out.push([v[0], v[1], v[2]]);
  }
  if (!(spannedVolume(out) > 0)) {
    r.report('error', Codes.nonPositiveSize, `${label}: the points lie in one plane (or on a line), so their hull has no volume.`, node, { ...data, path });
    return undefined;
  }
  return out;
}

/** A lower bound on the hull's extent in its thinnest direction, relative to its size (0: flat). */
function spannedVolume(p: readonly Vec3[]): number {
  const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const len = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
  const farthest = (score: (q: Vec3) => number): Vec3 => p.reduce((best, q) => (score(q) > score(best) ? q : best), p[0]);
  const a = p[0];
  const b = farthest((q) => len(sub(q, a)));
  const ab = sub(b, a);
  const scale = len(ab);
  if (!(scale > 0)) return 0;
  const c = farthest((q) => len(cross(ab, sub(q, a))));
  const n = cross(ab, sub(c, a));
  const area = len(n);
  if (!(area > 1e-12 * scale * scale)) return 0;
  const d = farthest((q) => Math.abs(n[0] * (q[0] - a[0]) + n[1] * (q[1] - a[1]) + n[2] * (q[2] - a[2])));
  const h = Math.abs(n[0] * (d[0] - a[0]) + n[1] * (d[1] - a[1]) + n[2] * (d[2] - a[2])) / area;
  return h > 1e-9 * scale ? h : 0;
}

/** `world.exclude` and `world.pairs`, with body and shape names resolved (bad entries are left out). */
export function readWorldRules(r: FieldReader, worldNode: Node | undefined, bodies: readonly BodySpec[], world: WorldSpec): void {
  if (!worldNode || worldNode.type !== 'object') return;
  // `world` itself (unknown and duplicate keys) was checked by readWorld: only read these fields here.
  const props = new Map<string, Node>();
  for (const p of worldNode.children ?? []) if (p.type === 'property' && p.children && p.children.length > 0) props.set(String(p.children[0].value), p);
  const o: FieldObject = { node: worldNode, path: ['world'], props };
  const shapesOf = new Map<string, readonly ShapeSpec[]>(bodies.map((b) => [b.name, b.shapes]));
  shapesOf.set(WORLD, world.shapes);
  const list = (key: 'exclude' | 'pairs', example: string): Node[] => {
    const node = r.valueOf(o, key);
    if (node === undefined || isBad(node)) return [];
    if (node.type !== 'array') {
      r.typeError(node, ['world', key], `\`world.${key}\` must be an array such as \`${example}\`, not ${r.describe(node)}.`, {});
      return [];
    }
    return node.children ?? [];
  };
  const entry = (node: Node, path: (string | number)[], fields: readonly string[], what: string): FieldObject | undefined => {
    if (node.type === 'object') return r.object(node, path, fields, {});
    r.typeError(node, path, `Each entry of \`world.${what}\` must be an object, not ${r.describe(node)}.`, {});
    return undefined;
  };
  const body = (e: FieldObject, key: string, label: string): string | undefined => {
    const s = r.string(e, key, label, {});
    if (s === undefined) {
      r.missing(e, key, `${label} is missing: name a body (or "${WORLD}").`, {});
      return undefined;
    }
    if (isBad(s)) return undefined;
    if (shapesOf.has(s.value)) return s.value;
    const fixes = closest(s.value, [...shapesOf.keys()], 3, 3).map((c, k) => ({ title: `Change to ${quote(c)}`, edits: [replaceNodeEdit(r.index, s.node, JSON.stringify(c))], preferred: k === 0 }));
    r.report('error', Codes.unknownBody, `${label} ${JSON.stringify(s.value)} is not a body of this scene (nor "${WORLD}").`, s.node, { path: [...e.path, key], value: s.value }, { fixes });
    return undefined;
  };
  const exclude: ExcludeSpec[] = [];
  list('exclude', '[{ "bodyA": "thigh", "bodyB": "foot" }]').forEach((node, i) => {
    const e = entry(node, ['world', 'exclude', i], EXCLUDE_FIELDS, 'exclude');
    if (!e) return;
    const a = body(e, 'bodyA', `\`world.exclude[${i}].bodyA\``);
    const b = body(e, 'bodyB', `\`world.exclude[${i}].bodyB\``);
    if (a !== undefined && b !== undefined) exclude.push({ bodyA: a, bodyB: b, index: i });
  });
  const pairs: PairSpec[] = [];
  list('pairs', '[{ "bodyA": "foot", "shapeA": "sole", "bodyB": "world", "shapeB": "floor" }]').forEach((node, i) => {
    const e = entry(node, ['world', 'pairs', i], PAIR_FIELDS, 'pairs');
    if (!e) return;
    const at = `\`world.pairs[${i}]`;
    const a = body(e, 'bodyA', `${at}.bodyA\``);
    const b = body(e, 'bodyB', `${at}.bodyB\``);
    const sa = a === undefined ? undefined : shape(r, e, 'shapeA', `${at}.shapeA\``, a, shapesOf.get(a)!);
    const sb = b === undefined ? undefined : shape(r, e, 'shapeB', `${at}.shapeB\``, b, shapesOf.get(b)!);
    const rules = readRules(r, e, (f) => `${at}.${f}\``, {}, true);
    const friction = r.number(e, 'friction', `${at}.friction\``, { min: 0, rangeCode: Codes.negativeFriction, expect: 'at least 0' }, {});
    if (a === undefined || b === undefined || sa === undefined || sb === undefined || isBad(rules) || isBad(friction)) return;
    pairs.push({ bodyA: a, shapeA: sa, bodyB: b, shapeB: sb, index: i, ...(friction !== undefined ? { friction } : {}), ...pick(rules) });
  });
  if (exclude.length) world.exclude = exclude;
  if (pairs.length) world.pairs = pairs;
}

const pick = (x: CollisionRules): Pick<PairSpec, 'margin' | 'gap' | 'condim' | 'solref' | 'solimp'> => ({
  ...(x.solref ? { solref: x.solref } : {}),
  ...(x.solimp ? { solimp: x.solimp } : {}),
  ...(x.margin !== undefined ? { margin: x.margin } : {}),
  ...(x.gap !== undefined ? { gap: x.gap } : {}),
  ...(x.condim !== undefined ? { condim: x.condim } : {}),
});

function shape(r: FieldReader, e: FieldObject, key: string, label: string, owner: string, shapes: readonly ShapeSpec[]): string | undefined {
  const s = r.string(e, key, label, {});
  if (s === undefined) {
    r.missing(e, key, `${label} is missing: name a shape of ${quote(owner)}.`, {});
    return undefined;
  }
  if (isBad(s)) return undefined;
  if (shapes.some((x) => x.name === s.value)) return s.value;
  const names = shapes.map((x) => x.name);
  const fixes = closest(s.value, names, 3, 3).map((c, k) => ({ title: `Change to ${quote(c)}`, edits: [replaceNodeEdit(r.index, s.node, JSON.stringify(c))], preferred: k === 0 }));
  r.report('error', Codes.invalidValue, `${label} ${JSON.stringify(s.value)} is not a shape of ${quote(owner)}${names.length ? ` (it has ${names.map(quote).join(', ')})` : ' (it has none)'}.`, s.node, { path: [...e.path, key], value: s.value }, { fixes });
  return undefined;
}
