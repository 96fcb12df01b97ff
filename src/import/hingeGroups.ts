// MuJoCo's hinges of one body that became one universal or ball constraint (joints.ts) → the
// constraint's `hinges`, so that each keeps its own angle (the engine's Davenport angle of the group,
// model/hingeGroup.ts) for its limits, drive and actuators (limits.ts, actuators.ts).
// MuJoCo turns the body as R_B = R_P·R_off·Rot(b₁, θ₁)·Rot(b₂, θ₂)[·Rot(b₃, θ₃)] with θ_k = qpos_k − qpos0_k;
// at the initial state it gives each hinge's world axis w_k (xaxis) = R_B·Rot(b_n, θ_n)ᵀ⋯Rot(b_{k+1}, θ_{k+1})ᵀ·b_k,
// so b_k = Rot(b_{k+1}, θ_{k+1})⋯Rot(b_n, θ_n)·R_Bᵀ·w_k, from the last hinge back (any massless body merged
// between two hinges only conjugates the axes, which this form already is).
import type { GroupHingeSpec } from '../engine';
import { cross, dirToLocal, dot, norm, scale, type Frame } from './geometry';
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
