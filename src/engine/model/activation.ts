// MuJoCo's actuator activation dynamics (its `dyntype`): an actuator with an activation state `act`
// makes its force from act where a stateless one uses the control u (force = gain·act + bias), and act
// follows u over time:
//   integrator   act' = u
//   filter       act' = (u − act)/τ                     (τ: dynprm[0])
//   filterexact  the same ODE solved exactly over the step: act += (u − act)·(1 − e^(−h/τ))
// integrated after the step as MuJoCo's mj_advance does (explicit Euler for the first two) and clamped
// to the activation range when one is given (actlimited). The control is fixed for a run, so act after
// n steps is a function of n alone: the forces ask for it by the number of steps taken before the
// state they are evaluated at, which the simulation sets before each step (also when it re-takes a
// past step from a checkpoint), so a replayed step sees the activation the run saw. With actearly the
// force takes the activation one update ahead (MuJoCo's mj_nextActivation in mj_fwdActuation).
import type { ActuatorSpec } from '../scene/spec';

/** MuJoCo's mjMINVAL: the smallest time constant a filter divides by. */
const MIN_TIME_CONSTANT = 1e-15;

export class Activations {
  /** Steps taken before the state the forces are evaluated at (0: the initial state). */
  steps = 0;
  /** Per actuator, the last activation computed and after how many steps (the run asks in order). */
  private readonly memo = new Map<ActuatorSpec, { n: number; act: number; u: number; h: number }>();

  /** The activation of `a` after `this.steps` steps of size h with the (clamped) control u. */
  of(a: ActuatorSpec, u: number, h: number): number {
    const dyn = a.activation;
    if (!dyn) return u;
    const n = this.steps;
    let m = this.memo.get(a);
    if (!m || m.n > n || m.u !== u || m.h !== h) m = { n: 0, act: dyn.act0, u, h };
    let act = m.act;
    for (let k = m.n; k < n; k++) act = nextActivation(a, act, u, h);
    m.n = n;
    m.act = act;
    this.memo.set(a, m);
    return dyn.early ? nextActivation(a, act, u, h) : act;
  }
}

/** One step of MuJoCo's activation update (mj_advance), clamped to the activation range. */
export function nextActivation(a: ActuatorSpec, act: number, u: number, h: number): number {
  const dyn = a.activation;
  if (!dyn) return act;
  let next: number;
  if (dyn.type === 'integrator') next = act + h * u;
  else {
    const tau = Math.max(dyn.timeConstant, MIN_TIME_CONSTANT);
    next = dyn.type === 'filterexact' ? act + (u - act) * (1 - Math.exp(-h / tau)) : act + (h * (u - act)) / tau;
  }
  if (dyn.range) next = Math.min(Math.max(next, dyn.range[0]), dyn.range[1]);
  return next;
}
