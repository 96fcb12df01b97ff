// The contact-solver settings of `solver`: `contacts`, `newton`, `regularization`, `fb`, `pgs`.
// Read once the bodies and the world are known, because two defaults depend on the rest of the
// scene: `contacts.enabled` (true when any shape exists) and `contacts.level` ('position' for the
// nonlinear formulation). The acceleration formulation does not solve contacts: contacts are
// always disabled there, and shapes get a warning (CL116).
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import type { ContactSettings, ShapeSpec } from './contactSpec';
import type { Fix } from '../types';
import {
  CONTACTS_FIELDS,
  CONTACT_FORMULATIONS,
  CONTACT_LEVELS,
  DEFAULT_CONTACTS,
  DEFAULT_FB,
  DEFAULT_NEWTON,
  DEFAULT_PGS,
  DEFAULT_REGULARIZATION,
  DEFAULT_SOLIMP,
  FB_FIELDS,
  FRICTION_RULES,
  CONTACT_CONES,
  NEWTON_FIELDS,
  PGS_BILATERAL,
  PGS_FIELDS,
  PGS_ACCELERATION,
} from './contactFields';
import { quote, type FieldObject, type FieldReader } from './reader';
import { findProperty, replaceNodeEdit } from './text';
import type { BodySpec, SolverSettings } from './spec';

const isBad = (v: unknown): v is symbol => typeof v === 'symbol';

/**
 * Fill `s.contacts`, `s.newton`, `s.regularization`, `s.fb` and `s.pgs` (fresh objects, never the
 * shared defaults) from the `solver` object of the scene `top`, then resolve the defaults that
 * depend on the shapes and the formulation.
 */
export function readContactSettings(r: FieldReader, top: FieldObject, s: SolverSettings, bodies: readonly BodySpec[], world: { shapes: readonly ShapeSpec[] }): void {
  s.contacts = { ...DEFAULT_CONTACTS };
  s.newton = { ...DEFAULT_NEWTON };
  s.regularization = DEFAULT_REGULARIZATION;
  s.fb = { ...DEFAULT_FB };
  s.pgs = { ...DEFAULT_PGS };
  let enabled: boolean | undefined;
  let level: (typeof CONTACT_LEVELS)[number] | undefined;
  const solverNode = r.valueOf(top, 'solver');
  if (solverNode !== undefined && !isBad(solverNode) && solverNode.type === 'object') {
    // `solver` itself (unknown and duplicate keys) was checked by the parser: only read these fields here.
    const solver: FieldObject = { node: solverNode, path: ['solver'], props: propsOf(solverNode) };
    const reg = r.number(solver, 'regularization', '`solver.regularization`', { min: 0 }, {});
    if (typeof reg === 'number') s.regularization = reg;

    const contacts = sub(r, solver, 'contacts', CONTACTS_FIELDS, '{ "margin": 0.001 }');
    if (contacts) {
      const e = r.boolean(contacts, 'enabled', '`solver.contacts.enabled`', {});
      if (typeof e === 'boolean') enabled = e;
      const margin = r.number(contacts, 'margin', '`solver.contacts.margin`', { min: 0 }, {});
      if (typeof margin === 'number') s.contacts.margin = margin;
      const l = r.enumeration(contacts, 'level', '`solver.contacts.level`', CONTACT_LEVELS, {});
      if (typeof l === 'string') level = l;
      const jc = r.boolean(contacts, 'jointedCollide', '`solver.contacts.jointedCollide`', {});
      if (typeof jc === 'boolean') s.contacts.jointedCollide = jc;
      const pt = r.number(contacts, 'penetrationTolerance', '`solver.contacts.penetrationTolerance`', { min: 0 }, {});
      if (typeof pt === 'number') s.contacts.penetrationTolerance = pt;
      const fr = r.enumeration(contacts, 'frictionRule', '`solver.contacts.frictionRule`', FRICTION_RULES, {});
      if (typeof fr === 'string') s.contacts.frictionRule = fr;
      readSoftContacts(r, contacts, s.contacts);
      const soft = r.boolean(contacts, 'soft', '`solver.contacts.soft`', {});
      if (soft === true) s.contacts.soft = true;
      const cone = r.enumeration(contacts, 'cone', '`solver.contacts.cone`', CONTACT_CONES, {});
      if (typeof cone === 'string') s.contacts.cone = cone;
      const impratio = r.number(contacts, 'impratio', '`solver.contacts.impratio`', { min: 0, exclusiveMin: true }, {});
      if (typeof impratio === 'number') s.contacts.impratio = impratio;
      const sleep = r.boolean(contacts, 'sleep', '`solver.contacts.sleep`', {});
      if (sleep === true) s.contacts.sleep = true;
      const st = r.number(contacts, 'sleepTolerance', '`solver.contacts.sleepTolerance`', { min: 0 }, {});
      if (typeof st === 'number') s.contacts.sleepTolerance = st;
    }
    const newton = sub(r, solver, 'newton', NEWTON_FIELDS, '{ "maxIterations": 20 }');
    if (newton) {
      const it = r.number(newton, 'maxIterations', '`solver.newton.maxIterations`', { min: 1, integer: true }, {});
      if (typeof it === 'number') s.newton.maxIterations = it;
      const tol = r.number(newton, 'tolerance', '`solver.newton.tolerance`', { min: 0, exclusiveMin: true }, {});
      if (typeof tol === 'number') s.newton.tolerance = tol;
      const ls = r.boolean(newton, 'lineSearch', '`solver.newton.lineSearch`', {});
      if (typeof ls === 'boolean') s.newton.lineSearch = ls;
    }
    const fb = sub(r, solver, 'fb', FB_FIELDS, '{ "alpha": 1, "beta": 1 }');
    if (fb) {
      for (const key of FB_FIELDS) {
        const v = r.number(fb, key, `\`solver.fb.${key}\``, { min: 0, exclusiveMin: true }, {});
        if (typeof v === 'number') s.fb[key] = v;
      }
    }
    const pgs = sub(r, solver, 'pgs', PGS_FIELDS, '{ "iterations": 100 }');
    if (pgs) {
      const it = r.number(pgs, 'iterations', '`solver.pgs.iterations`', { min: 1, integer: true }, {});
      if (typeof it === 'number') s.pgs.iterations = it;
      const tol = r.number(pgs, 'tolerance', '`solver.pgs.tolerance`', { min: 0 }, {});
      if (typeof tol === 'number') s.pgs.tolerance = tol;
      const bil = r.enumeration(pgs, 'bilateral', '`solver.pgs.bilateral`', PGS_BILATERAL, {});
      if (typeof bil === 'string') s.pgs.bilateral = bil;
      const slop = r.number(pgs, 'slop', '`solver.pgs.slop`', { min: 0 }, {});
      if (typeof slop === 'number') s.pgs.slop = slop;
      const acc = r.enumeration(pgs, 'acceleration', '`solver.pgs.acceleration`', PGS_ACCELERATION, {});
      if (typeof acc === 'string') s.pgs.acceleration = acc;
    }
  }

  const shapeCount = bodies.reduce((n, b) => n + b.shapes.length, 0) + world.shapes.length;
  s.contacts.level = level ?? (s.formulation === 'nonlinear' ? 'position' : 'velocity');
  s.contacts.enabled = enabled ?? shapeCount > 0;
  if (s.formulation === 'acceleration') {
    if (shapeCount > 0 && s.contacts.enabled) unsupported(r, top, solverNode, shapeCount);
    s.contacts.enabled = false;
  }
}

/**
 * `solref` [time constant > 0, damping ratio > 0] and `solimp` [dmin, dmax, width, mid, power]
 * (MuJoCo's ranges: 0 < dmin, dmax < 1, width > 0, 0 < mid < 1, power ≥ 1). `solimp` alone takes
 * MuJoCo's default `solref` [0.02, 1]; `solref` alone MuJoCo's default `solimp`.
 */
function readSoftContacts(r: FieldReader, contacts: FieldObject, out: ContactSettings): void {
  const vector = (key: 'solref' | 'solimp', n: number, shape: string, ok: (v: number[]) => string | undefined): number[] | undefined => {
    const node = r.valueOf(contacts, key);
    if (node === undefined || isBad(node)) return undefined;
    const path = [...contacts.path, key];
    const v = r.numbers(node, path, `\`solver.contacts.${key}\``, n, shape, {});
    if (isBad(v)) return undefined;
    const why = ok(v);
    if (why) {
      r.report('error', Codes.invalidValue, `\`solver.contacts.${key}\` ${why}; it is [${v.join(', ')}].`, node, { path, value: v });
      return undefined;
    }
    return v;
  };
  const ref = vector('solref', 2, 'two numbers `[timeconst, dampratio]`', (v) => (v[0] > 0 && v[1] > 0 ? undefined : 'needs a positive time constant and damping ratio'));
  const imp = vector('solimp', 5, 'five numbers `[dmin, dmax, width, mid, power]`', (v) =>
    v[0] > 0 && v[0] < 1 && v[1] > 0 && v[1] < 1 && v[2] > 0 && v[3] > 0 && v[3] < 1 && v[4] >= 1 ? undefined : 'needs 0 < dmin, dmax < 1, width > 0, 0 < mid < 1 and power ≥ 1',
  );
  if (!ref && !imp) return;
  out.solref = ref ? [ref[0], ref[1]] : [0.02, 1];
  const i = imp ?? DEFAULT_SOLIMP;
  out.solimp = [i[0], i[1], i[2], i[3], i[4]];
}

/** Properties of an object node by key (the last of duplicate keys). */
function propsOf(node: Node): Map<string, Node> {
  const props = new Map<string, Node>();
  for (const p of node.children ?? []) if (p.type === 'property' && p.children && p.children.length > 0) props.set(String(p.children[0].value), p);
  return props;
}

/** A sub-object of `solver`, with its own fields checked; undefined when absent or not an object. */
function sub(r: FieldReader, solver: FieldObject, key: string, fields: readonly string[], example: string): FieldObject | undefined {
  const node = r.valueOf(solver, key);
  if (node === undefined || isBad(node)) return undefined;
  if (node.type !== 'object') {
    r.typeError(node, ['solver', key], `\`solver.${key}\` must be an object such as \`${example}\`, not ${r.describe(node)}.`, {});
    return undefined;
  }
  return r.object(node, ['solver', key], fields, {});
}

/** CL116 on `solver.formulation` (or, when it is not written, on the first `shapes`). */
function unsupported(r: FieldReader, top: FieldObject, solverNode: Node | symbol | undefined, shapeCount: number): void {
  const formNode = solverNode && !isBad(solverNode) ? findProperty(solverNode, 'formulation')?.children?.[1] : undefined;
  const at = formNode ?? firstShapesKey(top);
  if (!at) return;
  const fixes: Fix[] = formNode
    ? CONTACT_FORMULATIONS.map((f, k) => ({ title: `Change to ${quote(f)}`, edits: [replaceNodeEdit(r.index, formNode, JSON.stringify(f))], preferred: k === 0 }))
    : [];
  const where = formNode ? 'The acceleration formulation' : 'The acceleration formulation (the default)';
  r.report(
    'warning',
    Codes.contactsUnsupported,
    `${where} does not solve contacts, so the ${shapeCount} shape${shapeCount === 1 ? ' is' : 's are'} ignored. Contacts are solved by the formulations ${CONTACT_FORMULATIONS.map((f) => JSON.stringify(f)).join(' and ')}: set \`"solver": { "formulation": "velocity" }\` (projected Gauss–Seidel) or \`"nonlinear"\` (Axion's Newton solver).`,
    at,
    { path: formNode ? ['solver', 'formulation'] : pathOf(top, at), formulations: [...CONTACT_FORMULATIONS], shapes: shapeCount },
    { fixes },
  );
}

/** The key node of the first non-empty `shapes` (bodies in order, then the world). */
function firstShapesKey(top: FieldObject): Node | undefined {
  const keyOf = (obj: Node | undefined): Node | undefined => {
    const p = obj && obj.type === 'object' ? findProperty(obj, 'shapes') : undefined;
    return p?.children?.[1]?.type === 'array' && (p.children[1].children?.length ?? 0) > 0 ? p.children[0] : undefined;
  };
  const bodies = findProperty(top.node, 'bodies')?.children?.[1];
  for (const b of bodies?.type === 'array' ? (bodies.children ?? []) : []) {
    const k = keyOf(b);
    if (k) return k;
  }
  return keyOf(findProperty(top.node, 'world')?.children?.[1]);
}

/** The JSON path of a `shapes` key node found by firstShapesKey. */
function pathOf(top: FieldObject, key: Node): (string | number)[] {
  const owner = key.parent?.parent;
  const bodies = findProperty(top.node, 'bodies')?.children?.[1];
  const i = bodies?.children?.indexOf(owner!) ?? -1;
  return i >= 0 ? ['bodies', i, 'shapes'] : ['world', 'shapes'];
}
