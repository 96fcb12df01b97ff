// What the MuJoCo card shows of the two runs in joint space (cards/mujocoTrajectory.ts), computed
// without the DOM: per joint the largest |Δq| and |Δq̇| and when they happen, per body the largest
// distance between the centres of mass, a one-line summary, and the small charts' points. Pure:
// unit-tested in Node (test/unit/webview-mujoco-trajectory.test.ts).
import type { MaybeNumber, MujocoTrajectory } from '../src/protocol';
import { num } from './mujocoView';

type Joint = MujocoTrajectory['joints'][number];
type Body = MujocoTrajectory['bodies'][number];

const unitOf = (j: Joint, rate = false): string => (j.type === 'hinge' ? (rate ? 'rad/s' : 'rad') : rate ? 'm/s' : 'm');
const at = (step: number, dt: number): string => `t = ${num(step * dt, 4)} s (step ${step})`;

/**
 * Deviations at or below this (rad, m, and per second) are round-off of two runs that agree: shown as
 * ≈ 0 without a step, so that a difference of 1e-15 does not read as a finding.
 */
export const ROUND_OFF = 1e-9;

/** A deviation with its unit; a non-finite one means our run stopped or blew up there. */
function amount(max: number, unit: string): string {
  return max <= ROUND_OFF ? '≈ 0' : `${num(max, 3)} ${unit}`;
}

function deviation(d: { max: MaybeNumber; step: number }, unit: string, dt: number): [string, string] {
  return d.max === null ? ['not finite', at(d.step, dt)] : [amount(d.max, unit), d.max > ROUND_OFF ? at(d.step, dt) : '–'];
}

export const JOINT_COLUMNS = ['Joint', 'max |Δq|', 'when', 'max |Δq̇|', 'when'] as const;

/** One row per joint: name (type), max |Δq| and when, max |Δq̇| and when; joints we hold otherwise say why. */
export function jointRow(j: Joint, dt: number): string[] {
  const name = `${j.name} (${j.type})`;
  if (!j.ours.q.length) return [name, j.why ?? '–', '', '', ''];
  return [name, ...deviation(j.dq, unitOf(j), dt), ...deviation(j.dqd, unitOf(j, true), dt)];
}

export const BODY_COLUMNS = ['Body', 'max distance', 'when'] as const;

export function bodyRow(b: Body, dt: number): string[] {
  return [b.name, ...deviation(b, 'm', dt)];
}

/** The largest finite deviation of a list, or the first non-finite one. */
function worst<T extends { max: MaybeNumber }>(xs: readonly T[]): T | undefined {
  const bad = xs.find((x) => x.max === null);
  if (bad) return bad;
  return xs.reduce<T | undefined>((w, x) => (w === undefined || (x.max as number) > (w.max as number) ? x : w), undefined);
}

/** `Largest joint deviation: …; largest centre-of-mass distance: …` (rad and m listed apart). */
export function trajectorySummary(t: MujocoTrajectory, dt: number): string {
  const parts: string[] = [];
  const held = t.joints.filter((j) => j.ours.q.length);
  for (const type of ['hinge', 'slide'] as const) {
    const w = worst(held.filter((j) => j.type === type).map((j) => ({ ...j.dq, name: j.name, j })));
    if (w) parts.push(w.max !== null && w.max <= ROUND_OFF ? `${type} joints agree to round-off` : `largest ${type} |Δq| ${w.max === null ? 'not finite' : amount(w.max, unitOf(w.j))} (${w.name}, ${at(w.step, dt)})`);
  }
  const b = worst(t.bodies);
  if (b) parts.push(b.max !== null && b.max <= ROUND_OFF ? 'centres of mass agree to round-off' : `largest centre-of-mass distance ${b.max === null ? 'not finite' : amount(b.max, 'm')} (${b.name}, ${at(b.step, dt)})`);
  const other = t.joints.length - held.length;
  if (other) parts.push(`${other} of ${t.joints.length} joints are held by combined constraints here (no single coordinate to compare)`);
  if (!parts.length) return 'No hinge or slide joints and no moving bodies to compare over the run.';
  const s = parts.join('; ');
  return `Over the run, MuJoCo vs ours: ${s}.`;
}

/** Points of series in a `width × height` box on one linear scale, x by sample (null values skipped). */
export function seriesPoints(series: readonly (readonly MaybeNumber[])[], width: number, height: number, floorAtZero = false): { points: string[]; lo: number; hi: number } | undefined {
  const all = series.flat().filter((x): x is number => x !== null && Number.isFinite(x));
  if (!all.length) return undefined;
  let lo = floorAtZero ? 0 : Math.min(...all);
  let hi = Math.max(...all);
  if (!(hi - lo > 1e-12 * Math.max(1, Math.abs(hi)))) {
    lo -= 0.5 * Math.max(1e-9, Math.abs(lo));
    hi += 0.5 * Math.max(1e-9, Math.abs(hi));
  }
  const n = Math.max(...series.map((s) => s.length));
  const points = series.map((s) =>
    s
      .map((y, i) => (y === null || !Number.isFinite(y) ? undefined : `${((i / Math.max(1, n - 1)) * width).toFixed(1)},${(height - ((y - lo) / (hi - lo)) * height).toFixed(1)}`))
      .filter((p): p is string => p !== undefined)
      .join(' '),
  );
  return { points, lo, hi };
}
