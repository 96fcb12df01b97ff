// What the 3D view ignores so that one exploded step cannot blank it: positions that are not
// finite or lie absurdly far from the scene (a blow-up puts bodies at 1e60 m), and forces below a
// noise floor set by the scene's own scale (2e-14 N on a 1 kg scene is round-off, not a force).
// Pure: no DOM, no three.
import type { V3 } from './math';

/** A point farther than this many scene sizes from the scene's reference is absurd (left out of the framing). */
export const ABSURD_SCENE_SIZES = 1e3;
/** Forces below this fraction of the scene's weight scale read as zero (round-off of doubles is ~1e-16 of the terms). */
export const NOISE_RELATIVE = 1e-10;
/** The reference acceleration of the weight scale: standard gravity, whatever the scene's own gravity. */
export const STANDARD_GRAVITY = 9.80665;

/** A ball around the scene's reference (its first recorded step, else its snapshot) outside which a point is absurd. */
export interface SaneBall {
  centre: V3;
  radius: number;
}

/** The ball of `ABSURD_SCENE_SIZES` scene sizes around the bounds `min`..`max` (at least 1e-3 m across). */
export function saneBall(min: V3, max: V3): SaneBall {
  const size = Math.max(1e-3, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]));
  return { centre: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2], radius: ABSURD_SCENE_SIZES * size };
}

/** No scene is drawn farther out than this (m), whatever its reference: a blown-up state is never one. */
export const ABSOLUTE_LIMIT = 1e9;

/** Finite, within ABSOLUTE_LIMIT of the origin and inside the ball. */
export function isSane(p: readonly number[], ball: SaneBall): boolean {
  if (!Number.isFinite(p[0]) || !Number.isFinite(p[1]) || !Number.isFinite(p[2])) return false;
  if (Math.abs(p[0]) > ABSOLUTE_LIMIT || Math.abs(p[1]) > ABSOLUTE_LIMIT || Math.abs(p[2]) > ABSOLUTE_LIMIT) return false;
  return Math.hypot(p[0] - ball.centre[0], p[1] - ball.centre[1], p[2] - ball.centre[2]) <= ball.radius;
}

/**
 * The noise floors of force and torque arrows: NOISE_RELATIVE × Σm·g₀ (newtons), and that times
 * the scene's size (newton-metres). Without masses, 1 kg.
 */
export function noiseFloor(masses: readonly (number | undefined)[], size: number): { force: number; torque: number } {
  let m = 0;
  for (const x of masses) if (x !== undefined && Number.isFinite(x) && x > 0) m += x;
  const force = NOISE_RELATIVE * (m > 0 ? m : 1) * STANDARD_GRAVITY;
  return { force, torque: force * Math.max(1e-3, Number.isFinite(size) ? size : 1) };
}

/**
 * Contact forces below this fraction of the weight of the bodies in contact read as zero. A
 * projected Gauss–Seidel solve stops at a tolerance, and what it leaves on a resting contact (a
 * friction of 1e-7 N between boxes weighing newtons) is the iteration's residue, not a force.
 */
export const CONTACT_NOISE_RELATIVE = 1e-5;

/**
 * The weight m·g₀ (N) of the moving bodies in a contact, from their names or scene indices (the
 * world and fixed bodies weigh nothing here); 0 when neither is known.
 */
export function contactWeight(bodies: readonly { name: string; fixed?: boolean; mass?: number }[], c: { bodyA?: string | number; bodyB?: string | number }): number {
  const mass = (b: string | number | undefined): number => {
    const body = typeof b === 'number' ? bodies[b] : typeof b === 'string' ? bodies.find((x) => x.name === b) : undefined;
    return body && !body.fixed && body.mass !== undefined && Number.isFinite(body.mass) && body.mass > 0 ? body.mass : 0;
  };
  return (mass(c.bodyA) + mass(c.bodyB)) * STANDARD_GRAVITY;
}

/** Largest finite value of `xs` from `floor` up to `ceiling` (0 when none): absurd values never set a scale. */
export function robustMax(xs: Iterable<number>, floor = 0, ceiling = Infinity): number {
  let m = 0;
  for (const x of xs) if (Number.isFinite(x) && x >= floor && x <= ceiling && x > m) m = x;
  return m;
}

/** A run-wide force above this many times the weight scale (floor / NOISE_RELATIVE) is a blow-up's, not a scale. */
export const ABSURD_WEIGHTS = 1e6;

/** The divergence diagnostic's stable code (the engine's Codes.divergence; the webview imports no engine values). */
export const DIVERGENCE_CODE = 'CL404-divergence';

/** The divergence onset step (CL404's data) among a model's diagnostics, when the run diverged and the growth was found. */
export function divergenceOnsetOf(diagnostics: readonly { code: string; data?: unknown }[]): number | undefined {
  for (const d of diagnostics) {
    const onset = (d.data as { onset?: unknown } | undefined)?.onset;
    if (d.code === DIVERGENCE_CODE && typeof onset === 'number' && Number.isInteger(onset) && onset >= 0) return onset;
  }
  return undefined;
}
