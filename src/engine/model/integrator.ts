// Which time integrator a scene runs, in words, beside the one its source model asked for (an
// imported model's MuJoCo `<option integrator>`): what the CLI, the snapshot and the panel header show.
import type { SceneSpec } from '../scene/spec';
import { explicitActuators } from './forces';
import { isMidpoint } from './midpoint';

export interface IntegratorInfo {
  /** The integrator that runs, e.g. "semi-implicit Euler, velocity level (implicit joint damping)". */
  runs: string;
  /** The one the source model asked for (MuJoCo's spelling: Euler, RK4, implicit, implicitfast), when known. */
  requested?: string;
  /** How the two differ, when they do (absent when the run computes what was asked for). */
  difference?: string;
}

/** Whether any joint damping or actuator velocity term is taken implicitly (model/forces.ts). */
function implicitDamping(scene: SceneSpec): boolean {
  // sliders too in the velocity formulation (their drive rows); elsewhere a slider's damping is explicit
  const implicitOn = (c: SceneSpec['constraints'][number]) => c.type === 'hinge' || (c.type === 'slider' && scene.solver.formulation === 'velocity');
  const hinges = new Set(scene.constraints.filter(implicitOn).map((c) => c.name));
  return (
    scene.constraints.some((c) => implicitOn(c) && (c.drive?.damping ?? 0) > 0) ||
    (!explicitActuators(scene.requestedIntegrator) && (scene.actuators ?? []).some((a) => hinges.has(a.joint) && (a.activation ? a.gain[2] !== 0 || a.bias[2] < 0 : a.gear * a.gear * (a.gain[2] * a.ctrl + a.bias[2]) < 0)))
  );
}

export function integratorInfo(scene: SceneSpec): IntegratorInfo {
  const f = scene.solver.formulation;
  const base =
    f === 'nonlinear'
      ? "implicit Euler (Axion's nonlinear system, positions at the end of the step)"
      : f === 'velocity'
        ? isMidpoint(scene.solver)
          ? "midpoint, velocity level (Solfec's scheme: H and f at q + (h/2)·u, then q + (h/2)·u⁺)"
          : 'semi-implicit Euler, velocity level (Solfec)'
        : 'semi-implicit Euler';
  const runs = implicitDamping(scene) && f !== 'nonlinear' ? `${base}, joint damping implicit` : base;
  const requested = scene.requestedIntegrator;
  if (!requested) return { runs };
  const difference = differenceFrom(requested);
  return { runs, requested, ...(difference ? { difference } : {}) };
}

/** What MuJoCo's integrator computes that the run does not (first order in h, explicit but for damping). */
function differenceFrom(requested: string): string | undefined {
  switch (requested) {
    case 'Euler':
      return undefined; // MuJoCo's Euler: semi-implicit, joint damping implicit, as here
    case 'RK4':
      return 'RK4 is fourth order and explicit: this first-order step departs from it by O(h) per unit time, and treats joint damping implicitly where RK4 does not';
    case 'implicitfast':
      return 'implicitfast also takes the other velocity derivatives of the forces (actuators, and their coupling across joints) implicitly; here only joint damping and the actuators\' own velocity terms are, joint by joint';
    case 'implicit':
      return 'implicit also takes the Coriolis and all other velocity derivatives implicitly; here only joint damping and the actuators\' own velocity terms are, joint by joint';
    default:
      return `MuJoCo's ${requested} integrator is not implemented`;
  }
}
