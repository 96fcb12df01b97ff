// The joint coordinates a constraint carries: a hinge or slider its own; a universal or ball
// constraint with `hinges` one hinge per member, whose angle is the member's Davenport angle
// (model/hingeGroup.ts); a chain one hinge or slider per joint with a `drive`, whose coordinate is
// that joint's in the chain (model/chainCoordinate.ts). The drives, limits, friction loss and actuators (model/forces.ts,
// contact/jointRows.ts) take every coordinate alike: each member is a hinge spec of its own with the
// group's ends and a `group` field, made once per constraint spec (the same object on every call, so
// that sets of specs recognise it).
import type { ConstraintSpec, JointRowFields } from './spec';
import { chainHasCoordinates } from './chainJoints';

const members = new WeakMap<ConstraintSpec, ConstraintSpec[]>();

/** The hinge and slider specs whose coordinates `spec` carries (none for the other types). */
export function jointsOf(spec: ConstraintSpec): readonly ConstraintSpec[] {
  if (spec.type === 'hinge' || spec.type === 'slider') return [spec];
  if (spec.type === 'chain') return chainJointsOf(spec);
  const hinges = spec.hinges;
  if (!hinges?.length || !((spec.type === 'universal' && hinges.length === 2) || (spec.type === 'ball' && hinges.length === 3))) return [];
  let out = members.get(spec);
  if (!out) {
    const axes = hinges.map((h) => h.axis);
    const angles0 = hinges.map((h) => h.drive.coordinate - (h.zero ?? 0));
    out = hinges.map((h, index) => ({
      index: spec.index,
      name: h.name,
      type: 'hinge' as const,
      bodyA: spec.bodyA,
      bodyB: spec.bodyB,
      anchorA: spec.anchorA,
      anchorB: spec.anchorB,
      axisB: h.axis,
      drive: h.drive,
      ...jointRowFields(h),
      group: { axes, index, angles0 },
    }));
    members.set(spec, out);
  }
  return out;
}

/** The driven joints of a chain as hinge and slider specs with a `chainMember` field (none when the chain's joints cannot have coordinates). */
function chainJointsOf(spec: ConstraintSpec): readonly ConstraintSpec[] {
  const joints = spec.chain ?? [];
  if (!joints.some((j) => j.drive) || !chainHasCoordinates(joints)) return [];
  let out = members.get(spec);
  if (!out) {
    out = joints.flatMap((j, index) =>
      j.drive
        ? [{
            index: spec.index,
            name: j.name ?? `${spec.name}.${index}`,
            type: j.type,
            bodyA: spec.bodyA,
            bodyB: spec.bodyB,
            anchorA: spec.anchorA,
            anchorB: spec.anchorB,
            axisA: j.axis,
            drive: j.drive,
            ...jointRowFields(j),
            chainMember: { joints, index },
          }]
        : [],
    );
    members.set(spec, out);
  }
  return out;
}

/** The limit and friction-loss fields `x` has, copied (a group's hinge or a chain's joint made a hinge or slider spec). */
export function jointRowFields(x: JointRowFields): JointRowFields {
  return {
    ...(x.limits ? { limits: x.limits } : {}),
    ...(x.limitMargin !== undefined ? { limitMargin: x.limitMargin } : {}),
    ...(x.limitSolref ? { limitSolref: x.limitSolref } : {}),
    ...(x.limitSolimp ? { limitSolimp: x.limitSolimp } : {}),
    ...(x.limitInvWeight !== undefined ? { limitInvWeight: x.limitInvWeight } : {}),
    ...(x.frictionLoss !== undefined ? { frictionLoss: x.frictionLoss } : {}),
  };
}
