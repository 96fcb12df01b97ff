// MuJoCo's hinges of one body that became one universal or ball constraint (joints.ts) → the
// constraint's `hinges`, so that each keeps its own angle (the engine's Davenport angle of the group,
// model/hingeGroup.ts) for its limits, drive and actuators (limits.ts, actuators.ts). Likewise the
// hinges and slides of a `chain` constraint, each with its own coordinate (model/chainCoordinate.ts).
// MuJoCo turns the body as R_B = R_P·R_off·Rot(b₁, θ₁)·Rot(b₂, θ₂)[·Rot(b₃, θ₃)] with θ_k = qpos_k − qpos0_k;
// at the initial state it gives each hinge's world axis w_k (xaxis) = R_B·Rot(b_n, θ_n)ᵀ⋯Rot(b_{k+1}, θ_{k+1})ᵀ·b_k,
// so b_k = Rot(b_{k+1}, θ_{k+1})⋯Rot(b_n, θ_n)·R_Bᵀ·w_k, from the last hinge back (any massless body merged
// between two hinges only conjugates the axes, which this form already is).
import { chainHasCoordinates, type ChainJointSpec, type GroupHingeSpec } from '../engine';
import { cross, dirToLocal, dot, norm, scale, toLocal, type Frame } from './geometry';
import type { ChainJoint } from './joints';
import type { Vec3 } from './mujoco';
import { uniqueName, type ConvertContext } from './types';

/** Rot(b, t)·v (Rodrigues). */
function rot(b: Vec3, t: number, v: Vec3): Vec3 {
  const c = Math.cos(t), s = Math.sin(t), k = dot(b, v) * (1 - c), bxv = cross(b, v);
  return [v[0] * c + bxv[0] * s + b[0] * k, v[1] * c + bxv[1] * s + b[1] * k, v[2] * c + bxv[2] * s + b[2] * k];
}

/** The group's hinges in the child's frame C (each named after its joint, unique among the constraints), registered in ctx.groupHinge. */
export function groupHinges(ctx: ConvertContext, hinges: readonly ChainJoint[], C: Frame, constraint: string): GroupHingeSpec[] {
  const { m, st } = ctx;
  const qpos = hinges.map((j) => st.qpos[m.joints[j.id].qposadr] ?? 0);
  const zero = hinges.map((j) => m.qpos0[m.joints[j.id].qposadr] ?? 0);
  const axes: Vec3[] = new Array<Vec3>(hinges.length);
  for (let k = hinges.length - 1; k >= 0; k--) {
    let b = dirToLocal(C, hinges[k].axis);
    for (let i = hinges.length - 1; i > k; i--) b = rot(axes[i], qpos[i] - zero[i], b);
    axes[k] = scale(b, 1 / norm(b));
  }
  return hinges.map((j, k) => {
    const spec: GroupHingeSpec = {
      name: uniqueName(ctx, j.name || `joint${j.id}`),
      axis: axes[k],
      ...(zero[k] !== 0 ? { zero: zero[k] } : {}),
      drive: { coordinate: qpos[k], damping: 0, stiffness: 0, springRef: m.drives.springRef[j.id] ?? qpos[k], armature: 0 },
    };
    (ctx.groupHinge ??= new Map()).set(j.id, { constraint, hinge: spec });
    return spec;
  });
}

/**
 * The chain's joints in the parent's frame P (at the initial state). Where the engine gives each joint a
 * coordinate, each gets a name unique among the constraints and a drive whose `coordinate` is its qpos
 * (the scale of its limits, springref and actuators), and is registered in ctx.groupHinge.
 */
export function chainJoints(ctx: ConvertContext, joints: readonly ChainJoint[], P: Frame, constraint: string): ChainJointSpec[] {
  const { m, st } = ctx;
  const out: ChainJointSpec[] = joints.map((j) => ({ type: j.type === 'hinge' ? 'hinge' : 'slider', axis: dirToLocal(P, j.axis), anchor: toLocal(P, j.anchor), name: j.name }));
  if (!chainHasCoordinates(out)) return out;
  joints.forEach((j, k) => {
    const q0 = st.qpos[m.joints[j.id].qposadr] ?? 0;
    const member = Object.assign(out[k], {
      name: uniqueName(ctx, j.name || `joint${j.id}`),
      drive: { coordinate: q0, damping: 0, stiffness: 0, springRef: m.drives.springRef[j.id] ?? q0, armature: 0 },
    });
    (ctx.groupHinge ??= new Map()).set(j.id, { constraint, hinge: member });
  });
  return out;
}
