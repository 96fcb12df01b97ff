// MuJoCo's compiled model at an initial state → the engine's maximal coordinates (docs/import.md).
//   bodies with mass → bodies at their centre of mass (xipos), oriented along their principal axes
//   (xquat ⊗ iquat, whose matrix is MuJoCo's ximat), diagonal inertia; massless bodies merge into
//   their parent; bodies welded to the world (and mocap bodies) are `fixed`.
//   joints → one constraint per body (joints.ts); equalities and mimics → equality.ts;
//   geoms → shapes and MuJoCo's collision filtering → the scene's rules (geoms.ts).
import { Codes, DEFAULT_SOLVER } from '../engine';
import type { NotSimulatedCategory } from '../engine';
import { convertDrives } from './actuators';
import { convertEqualities } from './equality';
import { contactsSetting, convertGeoms } from './geoms';
import { WORLD_FRAME, dirToLocal, frame, norm, qmul, qnormalize, toLocal, type Frame } from './geometry';
import { classifyChain, type ChainJoint } from './joints';
import { chainJoints, groupHinges } from './hingeGroups';
import { convertJointLimits } from './limits';
import { convertTendons } from './tendons';
import type { ElementMap } from './map';
import type { CompiledModel, MujocoState, Vec3 } from './mujoco';
import { addConstraint, bodyName, notSimulated, uniqueName, type ConvertContext, type ImportedScene, type Issue } from './types';
import type { XmlElement } from './xml';

export interface Converted {
  scene: ImportedScene;
  bodyElements: (XmlElement | undefined)[];
  constraintElements: (XmlElement | undefined)[];
  issues: Issue[];
  /** Per MuJoCo equality: index of its constraint in scene.constraints (undefined when not converted). */
  equalityConstraint: (number | undefined)[];
  /** Per MuJoCo joint: the hinge or slider constraint that holds it alone (the comparison reads its coordinate). */
  jointConstraint: ({ constraint: string; kind: 'hinge' | 'slider' } | undefined)[];
  /** Per MuJoCo joint combined with others into one constraint: that constraint's type (universal, ball, chain). */
  combinedInto?: ReadonlyMap<number, string>;
  /** Per such joint with a coordinate of its own (a universal's or ball's hinge, a chain's joint): its name in the scene. */
  ownCoordinate?: ReadonlyMap<number, string>;
  /** Scene body index per MuJoCo body (−1: the world). */
  sceneOf: number[];
  /** What is not simulated, by category (the CL606 note as data). */
  notSimulated: NotSimulatedCategory[];
}

/** Bodies lighter than this (or with a principal moment at or below it) count as massless. */
const MASSLESS = 1e-15;

const massive = (m: CompiledModel, b: number): boolean => {
  const B = m.bodies[b];
  return b > 0 && B.mass > MASSLESS && B.inertia.every((x) => x > MASSLESS) && Number.isFinite(B.mass);
};

export function convertModel(m: CompiledModel, st: MujocoState, map: ElementMap, name: string): Converted {
  const nb = m.bodies.length;
  // MuJoCo's default solref (timeconst 0.02 s, dampratio 1) as Baumgarte gains: α = 1/τ², β = 2ζ/τ.
  const solref = commonSolref(m) ?? [0.02, 1];
  const tau = Math.max(solref[0], 2 * m.timestep);
  const scene: ImportedScene = {
    name,
    // MuJoCo's gravity flag leaves opt.gravity as written and applies none
    gravity: m.gravityDisabled ? [0, 0, 0] : [...m.gravity],
    ...(m.fluid.density > 0 || m.fluid.viscosity > 0 ? { fluid: { density: m.fluid.density, viscosity: m.fluid.viscosity, wind: [...m.fluid.wind] } } : {}),
    solver: {
      ...DEFAULT_SOLVER,
      dt: m.timestep,
      steps: Math.min(5000, Math.max(100, Math.round(1 / m.timestep))),
      stabilization: 'baumgarte',
      alpha: 1 / (tau * tau),
      beta: (2 * solref[1]) / tau,
    },
    bodies: [],
    constraints: [],
    world: { shapes: [] },
  };
  // Fresh contact settings (never the engine's shared defaults); contactsSetting turns contacts on
  // (velocity formulation) when the model has collision geoms and MuJoCo's contacts are enabled.
  scene.solver.contacts = { ...DEFAULT_SOLVER.contacts, enabled: false };
  scene.solver.newton = { ...DEFAULT_SOLVER.newton };
  scene.solver.fb = { ...DEFAULT_SOLVER.fb };
  scene.solver.pgs = { ...DEFAULT_SOLVER.pgs };
  const ctx: ConvertContext = {
    m,
    st,
    map,
    sceneOf: new Array<number>(nb).fill(-1),
    frames: new Array<Frame>(nb).fill(WORLD_FRAME),
    mjFrames: st.xpos.map((p, b) => frame(p, st.xquat[b])),
    scene,
    constraintElements: [],
    issues: [],
    jointConstraint: m.joints.map(() => undefined),
    equalityConstraint: m.equalities.map(() => undefined),
    notSimulated: new Map(),
    usedNames: new Set(),
  };
  const bodyElements: (XmlElement | undefined)[] = [];

  // Bodies (ids follow the tree: a parent always comes before its children).
  for (let b = 1; b < nb; b++) {
    const B = m.bodies[b];
    const el = map.body[b];
    if (!massive(m, b)) {
      ctx.sceneOf[b] = ctx.sceneOf[B.parent];
      ctx.frames[b] = ctx.frames[B.parent];
      const into = bodyName(ctx, ctx.sceneOf[b]);
      const joints = B.jntnum > 0 ? ` Its joints (${jointList(m, B.jntadr, B.jntnum)}) act between ${into} and its children.` : '';
      ctx.issues.push({
        severity: 'information',
        code: Codes.masslessBody,
        message: `Body \`${(B.name.trim() ? B.name : `body${b}`)}\` has no mass${B.mass > MASSLESS ? ' (no rotational inertia)' : ''}: merged into \`${into}\`.${joints}`,
        element: el,
        data: { body: b, mergedInto: into },
      });
      continue;
    }
    const q = qnormalize(qmul(st.xquat[b], B.iquat));
    const p: Vec3 = [...st.xipos[b]];
    const fixed = B.weldid === 0 || B.mocap;
    if (B.mocap) notSimulated(ctx, 'mocap bodies (kept fixed)', `\`${(B.name.trim() ? B.name : `body${b}`)}\``, el);
    const w = st.cvel[b];
    // sleeping islands: the tree's compiled policy, where the model sleeps at all
    const sleeps = m.sleepTolerance !== undefined && !fixed;
    if (sleeps && B.sleep === 'init') notSimulated(ctx, 'bodies initialised asleep (body/sleep="init": they start awake)', `\`${(B.name.trim() ? B.name : `body${b}`)}\``, el);
    const index = scene.bodies.length;
    const bname = (B.name.trim() ? B.name : `body${b}`);
    scene.bodies.push({
      index,
      name: bname,
      mass: B.mass,
      inertia: [B.inertia[0], 0, 0, 0, B.inertia[1], 0, 0, 0, B.inertia[2]],
      position: p,
      orientation: q,
      velocity: fixed ? [0, 0, 0] : [w[3], w[4], w[5]],
      angularVelocity: fixed ? [0, 0, 0] : [w[0], w[1], w[2]],
      force: [0, 0, 0],
      torque: [0, 0, 0],
      gravity: B.gravcomp !== 1,
      ...(B.gravcomp !== 0 && B.gravcomp !== 1 ? { gravityCompensation: B.gravcomp } : {}),
      // what a soft contact's regularisation scales with: the articulated body's weight, as MuJoCo's
      ...(!fixed && B.invweight0[0] > 0 ? { contactInvWeight: B.invweight0[0] } : {}),
      fixed,
      ...(sleeps && (B.sleep === 'never' || B.sleep === 'allowed') ? { sleep: B.sleep } : {}),
      shapes: [],
    });
    bodyElements.push(el);
    ctx.sceneOf[b] = index;
    ctx.frames[b] = frame(p, q);
    ctx.usedNames.add(bname);
  }
  ctx.usedNames.clear(); // constraint names live in their own namespace

  convertJoints(ctx);
  convertEqualities(ctx);
  convertGeoms(ctx);
  contactsSetting(ctx);
  notSimulatedParts(ctx);
  convertTendons(ctx);
  convertDrives(ctx);
  convertJointLimits(ctx);
  if (ctx.notSimulated.size) {
    const parts = [...ctx.notSimulated].map(([cat, e]) => `${cat} (${e.items.length > 6 ? `${e.items.length}: ${e.items.slice(0, 6).join(', ')}, …` : e.items.join(', ')})`);
    ctx.issues.push({
      severity: 'information',
      code: Codes.notSimulated,
      message: `Not simulated: ${parts.join('; ')}.`,
      element: map.root,
      related: [...ctx.notSimulated].filter(([, e]) => e.element).map(([cat, e]) => ({ message: cat, element: e.element })),
      data: { notSimulated: Object.fromEntries([...ctx.notSimulated].map(([k, v]) => [k, v.items])) },
    });
  }
  const notSimulatedList = [...ctx.notSimulated].map(([category, e]) => ({ category, items: [...e.items] }));
  return { scene, bodyElements, constraintElements: ctx.constraintElements, issues: ctx.issues, equalityConstraint: ctx.equalityConstraint, jointConstraint: ctx.jointConstraint.map((j) => (j ? { constraint: j.constraint, kind: j.kind } : undefined)), ...(ctx.combinedInto ? { combinedInto: ctx.combinedInto } : {}), ...(ctx.groupHinge ? { ownCoordinate: new Map([...ctx.groupHinge].map(([id, g]) => [id, g.hinge.name])) } : {}), sceneOf: ctx.sceneOf, notSimulated: notSimulatedList };
}

const jointList = (m: CompiledModel, adr: number, n: number): string =>
  Array.from({ length: n }, (_, k) => `\`${m.joints[adr + k].name || `joint${adr + k}`}\``).join(', ');

/** The solref shared by every equality, if they all agree. */
function commonSolref(m: CompiledModel): [number, number] | undefined {
  const s = m.equalities.map((e) => e.solref).filter((r) => r[0] > 0 && r[1] > 0);
  return s.length && s.every((r) => r[0] === s[0][0] && r[1] === s[0][1]) ? s[0] : undefined;
}

/** One constraint per moving body from the joints between it and its nearest massive ancestor. */
function convertJoints(ctx: ConvertContext): void {
  const { m, st, map } = ctx;
  const claimedBy = new Map<number, number>();
  const scaleOf = Math.max(1, ...st.xpos.map((p) => norm(p)));
  for (let b = 1; b < m.bodies.length; b++) {
    const self = ctx.sceneOf[b];
    if (!massive(m, b) || ctx.scene.bodies[self].fixed) continue;
    const chain: ChainJoint[] = [];
    let a = b;
    let shared: number | undefined;
    for (;;) {
      const A = m.bodies[a];
      const js: ChainJoint[] = [];
      for (let k = 0; k < A.jntnum; k++) {
        const j = A.jntadr + k;
        js.push({ id: j, name: m.joints[j].name || `joint${j}`, type: m.joints[j].type, anchor: st.xanchor[j], axis: st.xaxis[j] });
      }
      chain.unshift(...js);
      if (a !== b && A.jntnum > 0) {
        if (claimedBy.has(a)) shared = a;
        else claimedBy.set(a, b);
      }
      if (A.parent === 0 || massive(m, A.parent)) break;
      a = A.parent;
    }
    const parentScene = ctx.sceneOf[m.bodies[a].parent];
    const P = ctx.frames[m.bodies[a].parent];
    const C = ctx.frames[b];
    const child = ctx.scene.bodies[self].name;
    const parent = bodyName(ctx, parentScene);
    const bodyEl = map.body[b];
    const first = chain[0] ? map.joint[chain[0].id] : undefined;
    const related = chain.slice(1).map((j) => ({ message: `joint \`${j.name}\``, element: map.joint[j.id] }));
    if (shared !== undefined) {
      ctx.issues.push({
        severity: 'error',
        code: Codes.unsupportedJoint,
        message: `Unsupported joint combination for body \`${child}\`: the massless body \`${m.bodies[shared].name}\` with joints carries several bodies, so its joints cannot belong to one constraint. \`${child}\` is left without a joint constraint.`,
        element: bodyEl,
        related,
        data: { body: child },
      });
      continue;
    }
    const kind = classifyChain(chain, scaleOf);
    // which constraint a joint went into, when it shares it with others: the notes on its limits and forces say so
    if (chain.length > 1 && (kind.kind === 'universal' || kind.kind === 'ball' || kind.kind === 'chain')) for (const j of chain) (ctx.combinedInto ??= new Map()).set(j.id, kind.kind);
    const base = { bodyA: parent, bodyB: child };
    const at = (x: Vec3) => ({ anchorA: toLocal(P, x), anchorB: toLocal(C, x) });
    const jointName = chain.map((j) => j.name).join('+');
    switch (kind.kind) {
      case 'free':
        break;
      case 'fixed':
        addConstraint(ctx, { ...base, name: uniqueName(ctx, `${child}_weld`), type: 'fixed', ...at(st.xipos[b]) }, bodyEl);
        break;
      case 'ball': {
        const name = uniqueName(ctx, jointName);
        const hinges = kind.hinges && groupHinges(ctx, kind.hinges, C, name);
        addConstraint(ctx, { ...base, name, type: 'ball', ...at(kind.point), ...(hinges ? { hinges } : {}) }, first ?? bodyEl);
        break;
      }
      case 'hinge':
      case 'slider': {
        const axisA = dirToLocal(P, kind.axis);
        const name = uniqueName(ctx, jointName);
        const extra = kind.kind === 'hinge' ? { axisA, axisB: dirToLocal(C, kind.axis) } : { axisA };
        addConstraint(ctx, { ...base, name, type: kind.kind, ...at(kind.point), ...extra }, first ?? bodyEl);
        ctx.jointConstraint[chain[0].id] = { constraint: name, kind: kind.kind, body: child, parent, axis: axisA };
        break;
      }
      case 'universal': {
        const name = uniqueName(ctx, jointName);
        const hinges = groupHinges(ctx, kind.hinges, C, name);
        addConstraint(ctx, { ...base, name, type: 'universal', ...at(kind.point), axisA: dirToLocal(P, kind.axisA), axisB: dirToLocal(C, kind.axisB), hinges }, first ?? bodyEl);
        break;
      }
      case 'chain': {
        const name = uniqueName(ctx, jointName);
        addConstraint(ctx, { ...base, name, type: 'chain', ...at(chain[0].anchor), chain: chainJoints(ctx, kind.joints, P, name) }, first ?? bodyEl);
        break;
      }
      case 'unsupported':
        ctx.issues.push({
          severity: 'error',
          code: Codes.unsupportedJoint,
          message: `Unsupported joint combination for body \`${child}\`: ${kind.reason}. \`${child}\` is left without a joint constraint to \`${parent}\`.`,
          element: bodyEl,
          related: chain.map((j) => ({ message: `joint \`${j.name}\``, element: map.joint[j.id] })),
          data: { body: child, joints: chain.map((j) => j.name) },
        });
        break;
    }
  }
}

/** Sensors, flexes and skins (tendons: tendons.ts; limits and friction loss: limits.ts; drives: actuators.ts). */
function notSimulatedParts(ctx: ConvertContext): void {
  const { m, map } = ctx;
  const c = m.counts;
  const count = (n: number, what: string) => {
    if (n > 0) notSimulated(ctx, what, String(n), firstElement(map.root, what));
  };
  count(c.sensors, 'sensors');
  count(c.flexes, 'flexes');
  count(c.skins, 'skins');
  // explicit <pair>s and <exclude>s are converted with the contacts (geoms.ts)
  // joints: limits and friction loss are listed by limits.ts (convertJointLimits), damping, stiffness and
  // armature by actuators.ts (convertDrives), where they cannot be taken
}

/** The first element of a section (e.g. <actuator>) for the related location of the note. */
function firstElement(root: XmlElement, what: string): XmlElement | undefined {
  const tag = { tendons: 'tendon', actuators: 'actuator', sensors: 'sensor', flexes: 'deformable', skins: 'deformable' }[what];
  return tag ? (root.children.find((e) => e.name === tag)?.children[0] ?? root.children.find((e) => e.name === tag)) : undefined;
}
