// Solfec's midpoint time stepping, the kinematic half of it (bod.c BODY_Dynamic_Step_Begin and
// BODY_Dynamic_Step_End for rigid bodies; the seed's equations q1 and q2):
//   q^{t+h/2} = q^t + (h/2)·u^t            (Step_Begin: x += (h/2)·v, R = R·exp[(h/2)·W])
//   q^{t+h}   = q^{t+h/2} + (h/2)·u^{t+h}  (Step_End, the same update with the new velocity)
// Between the two, H and f are evaluated at q^{t+h/2} and u^{t+h} comes from U = B + W·R
// (kkt.ts, the velocity formulation). Both halves are one move: half a step along the body's
// current velocity, with the rotation taken through the exponential map as Solfec's EXPMAP does
// (not the first-order quaternion update of the Euler step), so |q| stays 1 up to round-off.
import type { SolverSettings } from '../scene/spec';
import type { BodyModel, BodyState } from './body';

/** Whether a scene's steps are Solfec's midpoint scheme: the velocity formulation asked for it. */
export function isMidpoint(s: Pick<SolverSettings, 'formulation' | 'integrator'>): boolean {
  return s.formulation === 'velocity' && s.integrator === 'midpoint';
}

/**
 * Move one body half a step, dt/2, along its own velocity (in place): p += (dt/2)·v and
 * q ← exp((dt/2)·ω)⊗q with ω the world-frame angular velocity (the engine's convention; Solfec's
 * R·exp[(h/2)·W] with the body-frame W = Rᵀω is the same rotation). Returns |q|−1 after the move
 * and before the renormalisation (the drift the Euler step reports; here only round-off).
 */
export function halfStepInto(st: BodyState, dt: number): number {
  const h = 0.5 * dt;
  const v = st.v, w = st.w, p = st.p, q = st.q;
  p[0] += h * v[0];
  p[1] += h * v[1];
  p[2] += h * v[2];
  // rotation by the vector θ = h·ω: (s·θ̂, cos(|θ|/2)) with s = sin(|θ|/2)
  const tx = h * w[0], ty = h * w[1], tz = h * w[2];
  const a = Math.sqrt(tx * tx + ty * ty + tz * tz);
  // sin(a/2)/a by its series below 1e-4 (a⁴ term under round-off), where the quotient loses digits
  const s = a < 1e-4 ? 0.5 - (a * a) / 48 : Math.sin(0.5 * a) / a;
  const ex = s * tx, ey = s * ty, ez = s * tz, ew = Math.cos(0.5 * a);
  // e⊗q with quaternions stored [x, y, z, w]
  const x = q[0], y = q[1], z = q[2], qw = q[3];
  const nx = ew * x + ex * qw + ey * z - ez * y;
  const ny = ew * y + ey * qw + ez * x - ex * z;
  const nz = ew * z + ez * qw + ex * y - ey * x;
  const nw = ew * qw - ex * x - ey * y - ez * z;
  const n = Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
  q[0] = nx / n;
  q[1] = ny / n;
  q[2] = nz / n;
  q[3] = nw / n;
  return n - 1;
}

/** Every moving body (column ≥ 0) half a step along its velocity, in place: q^{t+h/2} from q^t and u^t. */
export function toMidpointInto(bodies: readonly BodyModel[], states: BodyState[], dt: number): void {
  for (let i = 0; i < states.length; i++) if (bodies[i].column >= 0) halfStepInto(states[i], dt);
}
