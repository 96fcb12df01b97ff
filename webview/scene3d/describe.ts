// Sizes, scales and words of the 3D view: the glyph unit (from the scene's spacing), the arrow
// scales (metres per newton, from the step shown, absurd values left out: robust.ts), the legend's content
// and the label of a body or constraint. Pure: no DOM, no three.
import type { PanelModel } from '../../src/protocol';
import { formatNumber as fmt } from '../../src/shared';
import { norm3, type V3 } from './math';
import { poseOf, recordsRun, type Frame, type ItemState, type RunRecords, type SceneData } from './model';
import type { ContactState } from './read';
import { ABSURD_WEIGHTS, NOISE_RELATIVE, noiseFloor, robustMax } from './robust';
import { readContacts } from './read';
import { contactName, targetPoint, type Target } from './selection';

/** Which force arrows are drawn. */
export type ForceMode = 'all' | 'selected' | 'off';

export interface LegendInfo {
  states: Set<ItemState>;
  redundantSet: boolean;
  contacts: Set<ContactState>;
  /** Constraint force arrows are drawn (the reference arrow takes their colour; else a neutral one). */
  constraintForces: boolean;
  /** Contact normal / friction arrows are drawn (the normal in its contact's state colour, friction in its own). */
  contactArrows: boolean;
  /** Reference arrows: a round value and its length in px; undefined when nothing is drawn. */
  force?: { value: number; px: number };
  torque?: { value: number; px: number };
  note: string;
  /** Moving bodies whose centre of mass is below a world plane (through the floor): never "ok". */
  belowFloor: string[];
}

/** Below a floor by more than this (m), a body has left the world it was meant to stay in. */
export const BELOW_FLOOR_TOLERANCE = 1e-3;

/** Names of the moving bodies whose centre of mass lies on the solid side of a world plane by more than the tolerance. */
export function bodiesBelowFloor(d: SceneData, f: Frame): string[] {
  const planes = d.worldShapes.filter((s) => s.type === 'plane');
  if (!planes.length) return [];
  const out: string[] = [];
  d.bodies.forEach((b, i) => {
    if (b.fixed) return;
    const p = [f.poses[7 * i], f.poses[7 * i + 1], f.poses[7 * i + 2]];
    if (planes.some((pl) => pl.normal[0] * p[0] + pl.normal[1] * p[1] + pl.normal[2] * p[2] - pl.offset < -BELOW_FLOOR_TOLERANCE)) out.push(b.name);
  });
  return out;
}

export interface Scales {
  /** Metres of arrow per newton, per newton-metre; the longest arrow (before the user's factor). */
  force: number;
  torque: number;
  maxArrow: number;
  /** The largest force and torque of the step shown (the ones `force`, `torque` map to maxArrow; 0: none): the widest arrows. */
  maxForce: number;
  maxTorque: number;
  /** Forces (N) and torques (N·m) below these read as zero: no arrow (robust.ts). */
  floor: { force: number; torque: number };
}

const diag = (d: SceneData): number => {
  const { min, max } = d.bounds;
  return Math.max(1e-6, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]));
};

/** The median distance between what each constraint joins (body centres; world anchors). */
function typicalSpacing(d: SceneData, f: Frame): number {
  const ds: number[] = [];
  d.constraints.forEach((c, i) => {
    const pa: V3 = c.a >= 0 ? poseOf(f.poses, c.a).p : f.anchorA[i];
    const pb: V3 = c.b >= 0 ? poseOf(f.poses, c.b).p : f.anchorB[i];
    const x = Math.hypot(pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]);
    if (x > 0 && Number.isFinite(x) && x <= diag(d)) ds.push(x); // an exploded step's spacing is no scale
  });
  if (!ds.length) return diag(d) / 4;
  ds.sort((a, b) => a - b);
  return ds[Math.floor(ds.length / 2)];
}

/** Size of joint glyphs (a ball joint's radius is 1.3 units). */
export function glyphUnit(d: SceneData, f: Frame): number {
  const size = diag(d);
  return Math.max(size * 0.003, Math.min(size * 0.02, typicalSpacing(d, f) * 0.15));
}

/** Arrow scales from the largest force and torque of the model's snapshots and of every recorded contact. */
export function arrowScales(model: PanelModel, d: SceneData, f: Frame, log10: number, run: RunRecords = recordsRun(model.history)): Scales {
  const floor = noiseFloor(d.bodies.map((b) => b.mass), diag(d));
  // Constraint forces of the step shown (the model's snapshot when the step has none): the worst
  // step of the run (1e57 N after a blow-up) never sets the scale of the others.
  const forces = f.forces ?? model.snapshot.constraints;
  const maxF0 = robustMax(forces.flatMap((c) => [norm3(c.forceA), norm3(c.forceB)]), floor.force);
  const maxT = robustMax(forces.flatMap((c) => [norm3(c.torqueA), norm3(c.torqueB)]), floor.torque);
  const maxF = Math.max(maxF0, robustMax(contactForces(f.contacts), floor.force), runContactMax(run, floor.force));
  const maxArrow = Math.min(diag(d) * 0.15, typicalSpacing(d, f) * 1.2);
  const mult = Math.pow(10, log10);
  return {
    force: maxF > 0 ? (maxArrow / maxF) * mult : mult,
    torque: maxT > 0 ? (maxArrow / maxT) * mult : mult,
    maxArrow,
    maxForce: maxF,
    maxTorque: maxT,
    floor,
  };
}

const contactForces = (cs: ReturnType<typeof readContacts>): number[] => cs.flatMap((c) => [c.normalForce ?? 0, c.friction ? Math.hypot(...c.friction) : 0]);

/** The run's largest finite contact force, read once per run and extended as it grows. */
const runContacts = new WeakMap<RunRecords, { length: number; max: number }>();
function runContactMax(run: RunRecords, floor: number): number {
  const memo = runContacts.get(run) ?? { length: 0, max: 0 };
  // Every recorded step with contacts: an impact lasts a step or two and carries the largest force.
  for (let k = memo.length + 1; k <= run.length; k++) memo.max = Math.max(memo.max, robustMax(contactForces(readContacts(run.extras ? run.extras(k) : run.record(k))), floor, (floor / NOISE_RELATIVE) * ABSURD_WEIGHTS));
  memo.length = run.length;
  runContacts.set(run, memo);
  return memo.max;
}

/** A reference arrow of a round value about 24–60 px long. */
function reference(metresPerUnit: number, upp: number): { value: number; px: number } | undefined {
  const v0 = (60 * upp) / metresPerUnit;
  if (!(v0 > 0) || !Number.isFinite(v0)) return undefined;
  const p = Math.pow(10, Math.floor(Math.log10(v0)));
  const value = [5, 2, 1].map((k) => k * p).find((x) => x <= v0 * (1 + 1e-9)) ?? p;
  return { value, px: (value * metresPerUnit) / upp };
}

/** What the legend shows; `selected` is the selected constraint (-1: none) for the 'selected' mode. */
export function legendInfo(d: SceneData, f: Frame, s: Scales, upp: number, mode: ForceMode, selected = -1): LegendInfo {
  const states = new Set(f.states.filter((x) => x !== 'fixed'));
  const contacts = new Set<ContactState>(f.contacts.map((c) => c.state));
  const drawn = (f.forces ?? []).filter((_, i) => mode === 'all' || (mode === 'selected' && i === selected));
  const constraintForces = drawn.some((x) => norm3(x.forceA) > 0 || norm3(x.forceB) > 0);
  const contactArrows = mode !== 'off' && f.contacts.some((c) => (c.normalForce ?? 0) > 0);
  const anyF = constraintForces || contactArrows;
  const anyT = drawn.some((x) => norm3(x.torqueA) > 0 || norm3(x.torqueB) > 0);
  const notes: string[] = [];
  if (!f.exact) notes.push(`step ${f.step} is not recorded: poses of ${f.step === 0 ? 'the analysis' : 'the snapshot'}`);
  if (f.asleepCount) notes.push(`${f.asleepCount} ${f.asleepCount === 1 ? 'body' : 'bodies'} asleep${f.asleep.size ? ' (faded)' : ''}`);
  if (mode !== 'off' && d.constraints.length) {
    if (!f.forces) notes.push(`no forces at step ${f.step} (only analysed steps carry them)`);
    else if (mode === 'selected' && selected < 0) notes.push('forces: select a constraint');
    else notes.push(`forces of step ${f.step}`);
  }
  return {
    states,
    redundantSet: f.redundantSet.size > 0,
    contacts,
    constraintForces,
    contactArrows,
    force: anyF ? reference(s.force, upp) : undefined,
    torque: anyT ? reference(s.torque, upp) : undefined,
    note: notes.join(' · '),
    belowFloor: bodiesBelowFloor(d, f),
  };
}

/** One line about a body, a constraint or a contact at the shown step (labels, the screen reader). */
export function describeTarget(d: SceneData, f: Frame, t: Target): string {
  if (t.kind === 'body') {
    const b = d.bodies[t.index];
    return `${b.name}${b.fixed ? ' · fixed' : ''}${b.mass !== undefined ? ` · m ${fmt(b.mass, 3)}` : ''}`;
  }
  if (t.kind === 'contact') {
    const c = f.contacts[t.index];
    if (!c) return `no contact at step ${f.step}`;
    const parts = [`contact ${contactName(d, f.contacts, t.index)}`, c.state];
    if (c.gap !== undefined) parts.push(`gap ${fmt(c.gap, 3)} m`);
    if (c.normalForce !== undefined) parts.push(`normal force ${fmt(c.normalForce, 3)} N`);
    if (c.friction) parts.push(`friction ${fmt(Math.hypot(...c.friction), 3)} N`);
    if (c.coneRatio !== undefined && c.state !== 'open') parts.push(`cone ${fmt(c.coneRatio, 2)}`);
    return parts.join(' · ');
  }
  const c = d.constraints[t.index];
  const lam = f.lambda[t.index];
  return `${c.name} · ${c.type} · ${f.states[t.index]}${lam !== undefined ? ` · |λ| ${fmt(lam, 3)}` : ''} · |C| ${fmt(f.violation[t.index], 3)}`;
}

/** The label of a target at its projected point (`project` → CSS px), or undefined when off screen. */
export function targetLabel(data: SceneData, frame: Frame, t: Target | undefined, project: (p: V3) => { x: number; y: number } | undefined): { text: string; x: number; y: number } | undefined {
  if (!t) return undefined;
  const p = targetPoint(data, frame, t);
  const s = p && project(p);
  return s && { text: describeTarget(data, frame, t), ...s };
}
