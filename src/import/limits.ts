// MuJoCo's joint limits (jnt_limited, jnt_range, jnt_margin) and friction loss (dof_frictionloss) →
// the `limits`, `limitMargin` and `frictionLoss` of the hinge or slider constraint a joint became
// (convert.ts), or of its entry in a universal's or ball's `hinges` (hingeGroups.ts). The bounds keep MuJoCo's qpos scale: the constraint's `coordinate` is the joint's qpos at
// the initial state (a keyframe's included), as for its drive. The bounds are soft as MuJoCo's
// (jnt_solref, jnt_solimp, dof_invweight0 → limitSolref, limitSolimp, limitInvWeight); friction loss
// stays a hard box where MuJoCo's is soft too (docs/import.md).
import type { ConvertContext } from './types';
import { notSimulated } from './types';

/** Fill the limit and friction-loss fields of the converted hinges and sliders; list the rest as not simulated. */
export function convertJointLimits(ctx: ConvertContext): void {
  const { m, st, map } = ctx;
  const solved = ctx.scene.solver.formulation === 'velocity';
  m.joints.forEach((j, i) => {
    const dofs = j.type === 'free' ? 6 : j.type === 'ball' ? 3 : 1;
    const friction = m.dofFrictionloss.slice(j.dofadr, j.dofadr + dofs).some((x) => x > 0);
    if (!j.limited && !friction) return;
    const label = `\`${j.name || `joint${i}`}\``;
    const el = map.joint[i];
    const jc = ctx.jointConstraint[i];
    const spec = jc && (j.type === 'hinge' || j.type === 'slide') ? ctx.scene.constraints.find((c) => c.name === jc.constraint) : ctx.groupHinge?.get(i)?.hinge;
    if (!spec) {
      const why = j.type === 'ball' ? 'ball joints' : j.type === 'free' ? 'free joints' : `joints combined into one ${ctx.combinedInto?.get(i) ?? 'universal or ball'} constraint`;
      if (j.limited) notSimulated(ctx, `joint limits (${why})`, label, el);
      if (friction) notSimulated(ctx, `joint friction loss (${why})`, label, el);
      return;
    }
    const q0 = st.qpos[j.qposadr];
    if (j.limited && j.type === 'hinge' && !(j.range[0] - q0 > -Math.PI && j.range[1] - q0 < Math.PI)) {
      // the engine's hinge angle wraps at ±π from the initial state (docs/formulas.md)
      notSimulated(ctx, 'joint limits (hinge ranges reaching ±π from the initial state)', label, el);
    } else if (j.limited) {
      // MuJoCo's range, on MuJoCo's scale: the joint's `coordinate` is its qpos at the initial state
      // (the drive's, which springref and the actuators' lengths use too)
      spec.limits = [j.range[0], j.range[1]];
      if (j.margin > 0) spec.limitMargin = j.margin;
      // MuJoCo's limits are soft constraints, as its contacts: a joint started past its bound (the
      // hoppers' knees, the humanoids') is eased back over solref's time constant, not by erp in a step
      if (j.solref && j.solref[0] > 0 && j.solref[1] > 0 && j.solimp && j.solimp.length >= 5) {
        spec.limitSolref = [j.solref[0], j.solref[1]];
        const i = j.solimp;
        spec.limitSolimp = [i[0], i[1], i[2], i[3], i[4]];
        if (j.invweight0) spec.limitInvWeight = j.invweight0;
      }
      if (q0 !== 0 && !spec.drive) spec.drive = { coordinate: q0, damping: 0, stiffness: 0, springRef: ctx.m.drives.springRef[i] ?? q0, armature: 0 };
    }
    if (friction) spec.frictionLoss = m.dofFrictionloss[j.dofadr];
    if (!solved) notSimulated(ctx, `joint limits and friction loss (the ${ctx.scene.solver.formulation} formulation does not solve them; the velocity formulation does)`, label, el);
  });
}
