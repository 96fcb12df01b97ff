// The `solver` section of a scene: time step, stabilisation, formulation, method and thresholds.
import { Codes } from '../core/codes';
import { COORDINATES, DEFAULT_SOLVER, FORMULATIONS, INTEGRATORS, SOLVE_METHODS, SOLVER_FIELDS, STABILIZATIONS } from './fields';
import { BAD, describe, type FieldObject, type FieldReader, type NumberChecks } from './reader';
import type { SolverSettings } from './spec';

/** The settings that are numbers. */
type NumericSetting = { [K in keyof SolverSettings]: SolverSettings[K] extends number ? K : never }[keyof SolverSettings];

/** The solver settings, defaults filled in; a wrong field keeps its default (after its diagnostic). */
export function readSolver(r: FieldReader, top: FieldObject): SolverSettings {
  const s: SolverSettings = { ...DEFAULT_SOLVER };
  const node = r.valueOf(top, 'solver');
  if (node === undefined || node === BAD) return s;
  if (node.type !== 'object') {
    r.typeError(node, ['solver'], `\`solver\` must be an object such as \`{ "dt": 0.01, "steps": 100 }\`, not ${describe(node)}.`, {});
    return s;
  }
  const o = r.object(node, ['solver'], SOLVER_FIELDS, {});
  const num = (key: NumericSetting, checks: NumberChecks): void => {
    const v = r.number(o, key, `\`solver.${key}\``, checks, {});
    if (typeof v === 'number') s[key] = v;
  };
  num('dt', { min: 0, exclusiveMin: true });
  num('steps', { min: 0, integer: true });
  num('alpha', { min: 0 });
  num('beta', { min: 0 });
  num('erp', { min: 0, max: 1 });
  num('compliance', { min: 0 });
  num('conditionWarning', { min: 0, exclusiveMin: true });
  num('violationTolerance', { min: 0 });
  num('driftTolerance', { min: 0 });
  const stab = r.enumeration(o, 'stabilization', '`solver.stabilization`', STABILIZATIONS, {});
  if (typeof stab === 'string') s.stabilization = stab;
  const form = r.enumeration(o, 'formulation', '`solver.formulation`', FORMULATIONS, {});
  if (typeof form === 'string') s.formulation = form;
  const integrator = r.enumeration(o, 'integrator', '`solver.integrator`', INTEGRATORS, {});
  if (typeof integrator === 'string') s.integrator = integrator;
  const integratorNode = r.valueOf(o, 'integrator');
  // Solfec's midpoint step is a velocity-level scheme (U = B + W·R): the other formulations keep their own step
  if (s.integrator === 'midpoint' && s.formulation !== 'velocity' && integratorNode && integratorNode !== BAD)
    r.report(
      'information',
      Codes.integrator,
      `Integrator: \`"midpoint"\` (Solfec's midpoint step) is an option of the velocity formulation; the ${s.formulation} formulation keeps its own step (${s.formulation === 'nonlinear' ? "Axion's implicit Euler" : 'semi-implicit Euler'}). Set \`"formulation": "velocity"\` to run it.`,
      integratorNode,
      { path: ['solver', 'integrator'], requested: 'midpoint', formulation: s.formulation },
    );
  const coords = r.enumeration(o, 'coordinates', '`solver.coordinates`', COORDINATES, {});
  if (typeof coords === 'string') s.coordinates = coords;
  const method = r.enumeration(o, 'method', '`solver.method`', SOLVE_METHODS, {});
  if (typeof method === 'string') s.method = method;
  return s;
}
