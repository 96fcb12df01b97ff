// Per-contact results shared by both contact solvers: force, state and cone ratio.
import type { ContactForce } from '../collision/contacts';

/** Tangential speed above which a loaded contact on the cone boundary is reported as slipping (m/s). */
export const SLIP_SPEED = 1e-6;
/** Relative tolerance of "on the cone boundary" for the slip state. */
export const CONE_BOUNDARY = 1e-3;

/**
 * Classify one contact from its forces (normal ≥ 0 when closed; friction along t1, t2), the
 * friction coefficient, the tangential speed after the step and the normal force below which the
 * contact counts as open (`openBelow`, e.g. a tiny fraction of the largest normal force).
 *   open  — normal force ≤ openBelow
 *   slip  — tangential speed > SLIP_SPEED and the friction force on the cone boundary
 *           (‖f_t‖ ≥ (1 − CONE_BOUNDARY)·μ·f_n, always true when μ = 0)
 *   stick — otherwise
 * coneRatio = ‖f_t‖ / (μ·f_n), 0 when μ·f_n = 0 and f_t = 0.
 */
export function classifyContact(normal: number, f1: number, f2: number, mu: number, slipSpeed: number, openBelow: number): ContactForce {
  const ft = Math.hypot(f1, f2);
  const limit = mu * Math.max(normal, 0);
  const coneRatio = limit > 0 ? ft / limit : ft > 0 ? Infinity : 0;
  let state: ContactForce['state'];
  if (!(normal > openBelow)) state = 'open';
  else if (slipSpeed > SLIP_SPEED && (mu === 0 || ft >= (1 - CONE_BOUNDARY) * limit)) state = 'slip';
  else state = 'stick';
  return { normalForce: normal, frictionForce: [f1, f2], state, coneRatio };
}

/** The "open" threshold of a set of normal forces: 1e-9 of the largest (0 when all are ≤ 0). */
export function openThreshold(normals: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < normals.length; i++) if (normals[i] > m) m = normals[i];
  return 1e-9 * m;
}
