// The joint-limit and friction-loss fields of hinge and slider constraints (`limits`, `limitMargin`,
// `frictionLoss`), and the note that only the velocity formulation solves them: they are inequality
// rows (a unilateral row per bound, a box-bounded row on q̇), which the acceleration formulation's
// linear solve cannot hold and the nonlinear formulation's Newton system does not include.
import type { Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { BAD, type Data, type FieldObject, type FieldReader } from './reader';
import { findProperty } from './text';
import type { ConstraintSpec, SolverSettings } from './spec';
import { jointsOf } from './hingeGroups';

/** Read `limits`, `limitMargin` and `frictionLoss` of a hinge or slider into `spec`. */
export function readJointRowFields(r: FieldReader, o: FieldObject, spec: ConstraintSpec, label: (f: string) => string, data: Data): void {
  const unit = spec.type === 'slider' ? 'm' : 'rad';
  const node = r.valueOf(o, 'limits');
  if (node !== undefined && node !== BAD) {
    const path = [...o.path, 'limits'];
    const v = r.numbers(node, path, label('limits'), 2, `a pair \`[lower, upper]\` of joint coordinates (${unit}, on the scale of the joint's \`coordinate\`, its value in the initial state, default 0)`, data);
    const c0 = spec.drive?.coordinate ?? 0;
    if (v !== BAD) {
      if (v[0] > v[1]) {
        r.report('error', Codes.invalidValue, `${label('limits')} must have lower ≤ upper; it is [${v[0]}, ${v[1]}]. Swap the two bounds.`, node, { ...data, path, value: v });
      } else if (spec.type === 'hinge' && !(v[0] - c0 > -Math.PI && v[1] - c0 < Math.PI)) {
        // the hinge coordinate is the twist angle in (−π, π]: a bound out there is never reached, and the
        // wrap from π to −π would read as passing the other bound
        r.report(
          'warning',
          Codes.jointRowsNotSolved,
          `${label('limits')} [${v[0]}, ${v[1]}] reach ±π from the initial state${c0 !== 0 ? ` (coordinate ${c0})` : ''}, where the hinge's angle wraps: the limits are not simulated. Keep both bounds within (coordinate − π, coordinate + π).`,
          node,
          { ...data, path, value: v },
        );
      } else {
        spec.limits = [v[0], v[1]];
      }
    }
  }
  const margin = r.number(o, 'limitMargin', label('limitMargin'), { min: 0 }, data);
  if (typeof margin === 'number') spec.limitMargin = margin;
  readSoftLimits(r, o, spec, label, data);
  const friction = r.number(o, 'frictionLoss', label('frictionLoss'), { min: 0 }, data);
  if (typeof friction === 'number') spec.frictionLoss = friction;
}

/** `limitSolref`, `limitSolimp` (MuJoCo's ranges, as `solver.contacts`') and `limitInvWeight` (> 0). */
function readSoftLimits(r: FieldReader, o: FieldObject, spec: ConstraintSpec, label: (f: string) => string, data: Data): void {
  const vector = (key: 'limitSolref' | 'limitSolimp', n: number, shape: string, ok: (v: number[]) => boolean, why: string): number[] | undefined => {
    const node = r.valueOf(o, key);
    if (node === undefined || node === BAD) return undefined;
    const path = [...o.path, key];
    const v = r.numbers(node, path, label(key), n, shape, data);
    if (v === BAD) return undefined;
    if (ok(v)) return v;
    r.report('error', Codes.invalidValue, `${label(key)} ${why}; it is [${v.join(', ')}].`, node, { ...data, path, value: v });
    return undefined;
  };
  const ref = vector('limitSolref', 2, 'two numbers `[timeconst, dampratio]`', (v) => v[0] > 0 && v[1] > 0, 'needs a positive time constant and damping ratio');
  const imp = vector('limitSolimp', 5, 'five numbers `[dmin, dmax, width, mid, power]`', (v) => v[0] > 0 && v[0] < 1 && v[1] > 0 && v[1] < 1 && v[2] > 0 && v[3] > 0 && v[3] < 1 && v[4] >= 1, 'needs 0 < dmin, dmax < 1, width > 0, 0 < mid < 1 and power ≥ 1');
  if (ref) spec.limitSolref = [ref[0], ref[1]];
  if (imp) spec.limitSolimp = [imp[0], imp[1], imp[2], imp[3], imp[4]];
  const w = r.number(o, 'limitInvWeight', label('limitInvWeight'), { min: 0, exclusiveMin: true }, data);
  if (typeof w === 'number') spec.limitInvWeight = w;
}

/** True when the hinge or slider spec has limits or friction loss of its own. */
export function hasOwnJointRows(spec: ConstraintSpec): boolean {
  return (spec.type === 'hinge' || spec.type === 'slider') && (spec.limits !== undefined || (spec.frictionLoss ?? 0) > 0);
}

/** True when the constraint carries joint rows that the contact solvers must solve (a universal's or ball's on its hinges). */
export function hasJointRows(spec: ConstraintSpec): boolean {
  return jointsOf(spec).some(hasOwnJointRows);
}

/**
 * CL210 (warning) on the `limits` or `frictionLoss` field of every constraint with joint rows when the
 * formulation is not the velocity formulation: the run simulates the joint without them.
 */
export function reportUnsolvedJointRows(r: FieldReader, top: Node, solver: SolverSettings, constraints: readonly ConstraintSpec[]): void {
  if (solver.formulation === 'velocity') return;
  const list = findProperty(top, 'constraints')?.children?.[1];
  if (!list || list.type !== 'array') return;
  for (const spec of constraints) {
    if (!hasJointRows(spec)) continue;
    const obj = list.children?.[spec.index];
    if (!obj || obj.type !== 'object') continue;
    const key = spec.limits !== undefined ? 'limits' : 'frictionLoss';
    const at = findProperty(obj, key)?.children?.[1] ?? obj;
    // a group's or a chain's limits and friction loss are its members' (their own fields)
    const rows = jointsOf(spec).filter(hasOwnJointRows);
    const what = [rows.some((j) => j.limits !== undefined) ? 'limits' : '', rows.some((j) => (j.frictionLoss ?? 0) > 0) ? 'friction loss' : ''].filter(Boolean).join(' and ');
    r.report(
      'warning',
      Codes.jointRowsNotSolved,
      `The ${solver.formulation} formulation does not solve joint ${what}: constraint \`${spec.name}\` moves without them. Set \`"solver": { "formulation": "velocity" }\` to simulate them.`,
      at,
      { constraintIndex: spec.index, constraintName: spec.name, path: ['constraints', spec.index, key], formulation: solver.formulation },
    );
  }
}
