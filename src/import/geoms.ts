// MuJoCo's geoms → shapes, and MuJoCo's collision filtering → the scene's collision rules.
//   geoms → shapes of their scene body (planes and the world's geoms → world shapes), each with its
//   contype, conaffinity, margin, gap, priority and condim; meshes → their convex hull (MuJoCo's own,
//   from the compiled model), as MuJoCo collides them; height fields and SDFs are listed as not simulated.
//   MuJoCo's body-level filters (two geoms of bodies welded together never collide, nor a body and its
//   parent unless `filterparent` is disabled, nor `<exclude>`d bodies) → `world.exclude` entries for
//   the scene bodies they separate; `<pair>`s → `world.pairs` with their own friction, margin, gap, condim.
//   Friction of equal priority combines by maximum (solver.contacts.frictionRule "max"), as in MuJoCo.
import type { CollisionRules, ExcludeSpec, PairSpec, ShapeSpec } from '../engine';
import { WORLD_FRAME, dot, matq, qconj, qmul, qnormalize, toLocal } from './geometry';
import type { CompiledModel, Vec3 } from './mujoco';
import { isFixed, notSimulated, type ConvertContext } from './types';

/** Where each geom went: its owner's name ("world" for world shapes) and its shape's name. */
type Placed = { owner: string; shape: string } | undefined;

/** Geoms → shapes; then the filters and explicit pairs that involve them. */
export function convertGeoms(ctx: ConvertContext): void {
  const placed = ctx.m.geoms.map((_, i) => convertGeom(ctx, i));
  ctx.geomShapes = placed.map((p) => p && (p.owner === 'world' ? ctx.scene.world.shapes : ctx.scene.bodies.find((b) => b.name === p.owner)?.shapes)?.find((s) => s.name === p.shape));
  convertFilters(ctx, placed);
  convertPairs(ctx, placed);
}

function convertGeom(ctx: ConvertContext, i: number): Placed {
  const { m, st, map } = ctx;
  const g = m.geoms[i];
  const owner = ctx.sceneOf[g.body];
  const label = `\`${g.name || `geom${i}`}\``;
  const inPair = m.pairs.some((p) => p.geom1 === i || p.geom2 === i);
  // MuJoCo's ellipsoid fluid model acts on every geom so marked of a body with mass, colliding or not;
  // a massless body (merged into its parent here) feels no fluid force
  const fluid = m.fluid.density > 0 || m.fluid.viscosity > 0 ? fluidEllipsoid(g) : undefined;
  const merged = g.body > 0 && owner === ctx.sceneOf[m.bodies[g.body].parent];
  const fluidShape = fluid !== undefined && owner >= 0 && !merged && !ctx.scene.bodies[owner].fixed;
  if (g.contype === 0 && g.conaffinity === 0 && !inPair && !fluidShape) return void notSimulated(ctx, 'visual-only geoms (contype = conaffinity = 0)', label, map.geom[i]);
  if (g.condim === 4 || g.condim === 6) notSimulated(ctx, 'torsional and rolling friction (condim 4, 6: solved as 3)', label, map.geom[i]);
  // only what differs from the scene format's defaults, so that Export as Scene reads back the same shapes
  const rules: CollisionRules = {};
  if (g.contype !== 1) rules.contype = g.contype;
  if (g.conaffinity !== 1) rules.conaffinity = g.conaffinity;
  if (g.margin) rules.margin = g.margin;
  if (g.gap) rules.gap = g.gap;
  if (g.priority) rules.priority = g.priority;
  if (g.condim === 1) rules.condim = 1;
  const base = { friction: g.friction[0], restitution: 0, ...rules, ...(fluidShape ? { fluidEllipsoid: fluid } : {}) };
  const ownerName = owner < 0 ? 'world' : ctx.scene.bodies[owner].name;
  const list = owner < 0 ? ctx.scene.world.shapes : ctx.scene.bodies[owner].shapes;
  const name = uniqueShapeName(list, g.name || `${g.type}${list.length}`);
  if (g.type === 'plane') {
    if (!isFixed(ctx, owner)) return void notSimulated(ctx, 'planes on moving bodies', label, map.geom[i]);
    const R = st.geomXmat[i];
    const normal: Vec3 = [R[2], R[5], R[8]];
    const world = ctx.scene.world.shapes;
    const wname = uniqueShapeName(world, g.name || `plane${world.length}`);
    world.push({ ...base, type: 'plane', name: wname, index: world.length, position: [0, 0, 0], orientation: [0, 0, 0, 1], normal, offset: dot(normal, st.geomXpos[i]) });
    return { owner: 'world', shape: wname };
  }
  const F = owner < 0 ? WORLD_FRAME : ctx.frames[g.body];
  const pose = { position: toLocal(F, st.geomXpos[i]), orientation: qnormalize(qmul(qconj(F.q), matq(st.geomXmat[i]))) };
  const common = { ...base, ...pose, name, index: list.length };
  let shape: ShapeSpec;
  const s = g.size;
  switch (g.type) {
    case 'sphere':
      shape = { ...common, type: 'sphere', radius: s[0] };
      break;
    case 'capsule':
      shape = { ...common, type: 'capsule', radius: s[0], halfLength: s[1] };
      break;
    case 'cylinder':
      shape = { ...common, type: 'cylinder', radius: s[0], halfLength: s[1] };
      break;
    case 'ellipsoid':
      shape = { ...common, type: 'ellipsoid', radii: [s[0], s[1], s[2]] };
      break;
    case 'box':
      shape = { ...common, type: 'box', halfExtents: [s[0], s[1], s[2]] };
      break;
    case 'mesh':
      if (fluidShape) notSimulated(ctx, 'fluid forces on meshes (fluidshape="ellipsoid")', label, map.geom[i]);
      if (!g.hull || g.hull.length < 4) return void notSimulated(ctx, 'meshes without a convex hull', label, map.geom[i]);
      delete common.fluidEllipsoid;
      shape = { ...common, type: 'convex', vertices: g.hull.map((v) => [v[0], v[1], v[2]]) };
      break;
    default:
      return void notSimulated(ctx, `${g.type} geoms`, label, map.geom[i]);
  }
  list.push(shape);
  return { owner: ownerName, shape: name };
}

/** MuJoCo's fluidcoef of a geom with fluidshape="ellipsoid" (geom_fluid's flag and next five), else undefined. */
function fluidEllipsoid(g: CompiledModel['geoms'][number]): [number, number, number, number, number] | undefined {
  const f = g.fluid;
  return f && f[0] > 0 ? [f[1], f[2], f[3], f[4], f[5]] : undefined;
}

function uniqueShapeName(list: readonly ShapeSpec[], name: string): string {
  if (!list.some((s) => s.name === name)) return name;
  for (let k = 2; ; k++) if (!list.some((s) => s.name === `${name}_${k}`)) return `${name}_${k}`;
}

/** Does MuJoCo's body-level filter keep bodies b1 and b2 apart (weld, parent–child, `<exclude>`)? */
export function bodiesFiltered(m: CompiledModel, b1: number, b2: number): boolean {
  const weld = (b: number): number => m.bodies[b].weldid;
  const weldParent = (b: number): number => weld(m.bodies[weld(b)].parent);
  const w1 = weld(b1);
  const w2 = weld(b2);
  if (w1 === w2) return true;
  if (!m.filterParentDisabled && w1 !== 0 && w2 !== 0 && (w1 === weldParent(b2) || w2 === weldParent(b1))) return true;
  const lo = Math.min(b1, b2);
  const hi = Math.max(b1, b2);
  return m.excludes.some(([a, b]) => a === lo && b === hi);
}

/**
 * One `world.exclude` entry per pair of scene owners whose shapes the engine would otherwise collide
 * and MuJoCo never does: every pair of their geoms that the bitmasks allow is filtered at body level.
 */
function convertFilters(ctx: ConvertContext, placed: readonly Placed[]): void {
  const { m } = ctx;
  const verdict = new Map<string, { a: string; b: string; filtered: boolean }>();
  const staticOwner = (name: string): boolean => name === 'world' || ctx.scene.bodies.some((b) => b.name === name && b.fixed);
  for (let i = 0; i < m.geoms.length; i++) {
    const pi = placed[i];
    if (!pi) continue;
    for (let j = i + 1; j < m.geoms.length; j++) {
      const pj = placed[j];
      if (!pj || pi.owner === pj.owner || (staticOwner(pi.owner) && staticOwner(pj.owner))) continue;
      const gi = m.geoms[i];
      const gj = m.geoms[j];
      if ((gi.contype & gj.conaffinity) === 0 && (gj.contype & gi.conaffinity) === 0) continue;
      const [a, b] = pi.owner < pj.owner ? [pi.owner, pj.owner] : [pj.owner, pi.owner];
      const key = `${a}\u0000${b}`;
      const filtered = bodiesFiltered(m, gi.body, gj.body);
      const v = verdict.get(key);
      if (!v) verdict.set(key, { a, b, filtered });
      else v.filtered &&= filtered;
    }
  }
  const exclude: ExcludeSpec[] = [];
  for (const v of verdict.values()) if (v.filtered) exclude.push({ bodyA: v.a, bodyB: v.b, index: exclude.length });
  if (exclude.length) ctx.scene.world.exclude = exclude;
}

/** MuJoCo's `<pair>`s → `world.pairs` (a pair whose geoms were not converted is listed as not simulated). */
function convertPairs(ctx: ConvertContext, placed: readonly Placed[]): void {
  const pairs: PairSpec[] = [];
  ctx.m.pairs.forEach((p, k) => {
    const a = placed[p.geom1];
    const b = placed[p.geom2];
    if (!a || !b) return notSimulated(ctx, 'explicit contact pairs of unconverted geoms', `pair ${k}`, ctx.map.geom[p.geom1]);
    if (p.condim === 4 || p.condim === 6) notSimulated(ctx, 'torsional and rolling friction (condim 4, 6: solved as 3)', `pair ${k}`, ctx.map.geom[p.geom1]);
    // a pair's solref/solimp are its own (MuJoCo does not mix its geoms' for it)
    const soft = p.solref[0] > 0 && p.solref[1] > 0 && p.solimp.length === 5 ? { solref: [p.solref[0], p.solref[1]] as [number, number], solimp: [p.solimp[0], p.solimp[1], p.solimp[2], p.solimp[3], p.solimp[4]] as [number, number, number, number, number] } : {};
    pairs.push({ bodyA: a.owner, shapeA: a.shape, bodyB: b.owner, shapeB: b.shape, friction: p.friction, margin: p.margin, gap: p.gap, condim: p.condim === 1 ? 1 : 3, ...soft, index: pairs.length });
  });
  if (pairs.length) ctx.scene.world.pairs = pairs;
}

/** Contacts between the shapes: solved by the converted scene unless MuJoCo's are disabled. */
export function contactsSetting(ctx: ConvertContext): void {
  const shapes = ctx.scene.world.shapes.length + ctx.scene.bodies.reduce((n, b) => n + b.shapes.length, 0);
  const s = ctx.scene.solver;
  s.contacts.frictionRule = 'max';
  s.contacts.jointedCollide = true;
  if (shapes === 0 || ctx.m.contactDisabled) {
    s.contacts.enabled = false;
    // MuJoCo still solves a contact-free model's limits, friction loss and tendon equalities, which only
    // the velocity formulation has rows for (a swimmer's ±100° joints are otherwise never reached)
    if (!ctx.m.contactDisabled && unilateralRows(ctx)) velocityRows(s);
    return;
  }
  velocityRows(s);
  s.contacts.enabled = true;
  softContacts(ctx);
  // `<flag sleep="enable"/>`: MuJoCo's sleeping islands, with its tolerance
  if (ctx.m.sleepTolerance !== undefined) {
    s.contacts.sleep = true;
    s.contacts.sleepTolerance = ctx.m.sleepTolerance;
  }
}

function velocityRows(s: ConvertContext['scene']['solver']): void {
  s.formulation = 'velocity';
  s.contacts.level = 'velocity';
  s.pgs.iterations = ROBOT_PGS_ITERATIONS;
  s.pgs.tolerance = ROBOT_PGS_TOLERANCE;
  s.pgs.bilateral = 'block';
}

/** Whether MuJoCo's model has rows only the velocity formulation solves: joint or tendon limits, friction loss, tendon equalities. */
function unilateralRows(ctx: ConvertContext): boolean {
  const { m } = ctx;
  return m.joints.some((j) => j.limited) || m.dofFrictionloss.some((f) => f > 0)
    || m.tendons.some((t) => t.range[0] < t.range[1] || t.frictionloss > 0) || (ctx.tendonEqualities?.length ?? 0) > 0;
}

/**
 * The colliding geoms' solref/solimp → `solver.contacts.solref`/`solimp`: overlaps recover as MuJoCo's
 * soft contacts do (a robot whose links start 3 cm into the floor is not launched at erp·r/h). The
 * most common pair is the scene's; a geom with others gets them on its shape (with its solmix), and
 * the contact mixes the two shapes' as MuJoCo does (engine collision/solmix.ts). MuJoCo's direct
 * (non-positive) solref keeps `erp`, listed.
 */
function softContacts(ctx: ConvertContext): void {
  const counts = new Map<string, { n: number; solref: [number, number]; solimp: number[]; geoms: number[] }>();
  ctx.m.geoms.forEach((g, i) => {
    if ((g.contype === 0 && g.conaffinity === 0) || !g.solref || !g.solimp || g.solimp.length < 5) return;
    const key = [...g.solref, ...g.solimp].join(' ');
    const e = counts.get(key);
    if (e) {
      e.n++;
      e.geoms.push(i);
    } else counts.set(key, { n: 1, solref: g.solref, solimp: g.solimp, geoms: [i] });
  });
  const all = [...counts.values()].sort((a, b) => b.n - a.n);
  const top = all[0];
  if (!top) return;
  if (!(top.solref[0] > 0 && top.solref[1] > 0)) {
    notSimulated(ctx, "contacts' direct solref (negative stiffness and damping: recovered by erp)", geomLabel(ctx, top.geoms[0]), ctx.map.geom[top.geoms[0]]);
    return;
  }
  const i = top.solimp;
  ctx.scene.solver.contacts.solref = [top.solref[0], top.solref[1]];
  ctx.scene.solver.contacts.solimp = [i[0], i[1], i[2], i[3], i[4]];
  // MuJoCo's contacts are soft constraints: a resting foot sinks where the regularised force carries it
  ctx.scene.solver.contacts.soft = true;
  // and their friction is MuJoCo's cone, pyramidal unless the model asks for the elliptic one
  ctx.scene.solver.contacts.cone = ctx.m.cone;
  if (ctx.m.impratio > 0 && ctx.m.impratio !== 1) ctx.scene.solver.contacts.impratio = ctx.m.impratio;
  for (const other of all.slice(1)) {
    if (!(other.solref[0] > 0 && other.solref[1] > 0)) {
      const g = other.geoms[0];
      notSimulated(ctx, `contacts' direct solref (negative stiffness and damping: these geoms' contacts use [${top.solref.join(', ')}])`, geomLabel(ctx, g), ctx.map.geom[g]);
      continue;
    }
    const o = other.solimp;
    for (const g of other.geoms) {
      const shape = ctx.geomShapes?.[g];
      if (!shape) continue;
      if (other.solref[0] !== top.solref[0] || other.solref[1] !== top.solref[1]) shape.solref = [other.solref[0], other.solref[1]];
      if (o.some((x, k) => x !== i[k])) shape.solimp = [o[0], o[1], o[2], o[3], o[4]];
    }
  }
  ctx.m.geoms.forEach((g, k) => {
    const shape = ctx.geomShapes?.[k];
    if (shape && g.solmix !== 1) shape.solmix = g.solmix;
  });
}

const geomLabel = (ctx: ConvertContext, i: number): string => `\`${ctx.m.geoms[i].name || `geom${i}`}\``;

/**
 * Gauss–Seidel sweeps per step for a converted robot: a legged robot landing on its feet couples every
 * joint row with the contacts, and 100 sweeps leave the joints drifting by 3 mm on Gymnasium's ant
 * where 300 halve it (at about 1.3 times the cost per step).
 */
export const ROBOT_PGS_ITERATIONS = 300;

/**
 * The sweeps' stopping tolerance for a converted robot, relative to each island's scale (the scene
 * format's default is 1e-10): each force to about 1e-6 of its size. With the joints as one block per
 * sweep (`pgs.bilateral: "block"`, contact/bilateralBlock.ts) and the contacts and limits stepped in the
 * joints' reduced space (contact/contactReduce.ts), Gymnasium's ant converges in about 8 sweeps a step.
 */
export const ROBOT_PGS_TOLERANCE = 1e-6;
