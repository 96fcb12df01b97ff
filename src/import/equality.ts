// MuJoCo equality constraints (and URDF <mimic>) → the engine's constraints.
//   connect → ball: MuJoCo's two anchors (eq_data 0–2 in body1, 3–5 in body2, the latter computed by
//            the compiler at qpos0) or the two sites, each expressed in its body's frame
//   weld    → fixed: anchors eq_data 3–5 (body1) and 0–2 (body2), rest orientation relpose
//            (eq_data 6–9, the compiler's qpos0 pose when not given) re-expressed between our frames;
//            torquescale 0 → ball
//   joint   → coupler: q₁ − q₁⁰ = c₀ + c₁(q₂ − q₂⁰) + … with q⁰ = qpos0 (polycoef = eq_data 0–4)
//   tendon, flex, … → not simulated
import { Codes } from '../engine';
import type { CoupledJoint } from '../engine';
import { qconj, qmul, qnormalize, toLocal, toWorld } from './geometry';
import type { CompiledEquality, Quat, Vec3 } from './mujoco';
import { addConstraint, bodyName, isFixed, notSimulated, uniqueName, type ConvertContext } from './types';
import { attr } from './xml';

export function convertEqualities(ctx: ConvertContext): void {
  const { m, map } = ctx;
  m.equalities.forEach((e, i) => {
    const el = map.equality[i];
    const label = `\`${e.name || `${e.type}${i}`}\``;
    const inactive = !e.active || (el !== undefined && attr(el, 'active') === 'false');
    if (inactive) return notSimulated(ctx, 'inactive equalities', label, el);
    const mimic = map.mimics.find((x) => x.element === el);
    const name = uniqueName(ctx, e.name || (mimic ? `${mimic.joint}_mimic` : `${e.type}${i}`));
    switch (e.type) {
      case 'connect':
      case 'weld':
        return pointEquality(ctx, e, i, name);
      case 'joint':
        return jointEquality(ctx, e, i, name);
      case 'tendon':
        // on the tendons' lengths: tendons.ts, once the tendons are converted
        (ctx.tendonEqualities ??= []).push(i);
        return;
      default:
        return notSimulated(ctx, `${e.type} equalities`, label, el);
    }
  });
  checkMimics(ctx);
}

/** World anchors and MuJoCo bodies of a connect/weld, body or site semantics. */
function anchors(ctx: ConvertContext, e: CompiledEquality): { b1: number; b2: number; x1: Vec3; x2: Vec3; rel: Quat } | undefined {
  const { m, st } = ctx;
  if (e.objtype === 'site') {
    const s1 = m.sites[e.obj1], s2 = m.sites[e.obj2];
    if (!s1 || !s2) return undefined;
    // site weld at rest: body1 ⊗ site1 = body2 ⊗ site2, i.e. relpose = site1 ⊗ site2⁻¹
    return { b1: s1.body, b2: s2.body, x1: st.siteXpos[e.obj1], x2: st.siteXpos[e.obj2], rel: qmul(s1.quat, qconj(s2.quat)) };
  }
  if (e.objtype !== 'body') return undefined;
  const d = e.data;
  const F1 = ctx.mjFrames[e.obj1], F2 = ctx.mjFrames[e.obj2];
  if (!F1 || !F2) return undefined;
  if (e.type === 'connect') return { b1: e.obj1, b2: e.obj2, x1: toWorld(F1, [d[0], d[1], d[2]]), x2: toWorld(F2, [d[3], d[4], d[5]]), rel: [0, 0, 0, 1] };
  // weld: pos1 = body1 ⊗ relpos (data 3–5), pos2 = body2 ⊗ anchor (data 0–2); relquat w-first in data 6–9
  return { b1: e.obj1, b2: e.obj2, x1: toWorld(F1, [d[3], d[4], d[5]]), x2: toWorld(F2, [d[0], d[1], d[2]]), rel: qnormalize([d[7], d[8], d[9], d[6]]) };
}

function pointEquality(ctx: ConvertContext, e: CompiledEquality, i: number, name: string): void {
  const el = ctx.map.equality[i];
  const a = anchors(ctx, e);
  if (!a) {
    ctx.issues.push({ severity: 'warning', code: Codes.unsupportedEquality, message: `Equality \`${name}\` (${e.type} on ${e.objtype}s) cannot be converted.`, element: el });
    return;
  }
  const A = ctx.sceneOf[a.b1], B = ctx.sceneOf[a.b2];
  if (A === B || (isFixed(ctx, A) && isFixed(ctx, B))) {
    const why = A === B ? `both ends belong to \`${bodyName(ctx, A)}\`` : `both ends are fixed (\`${bodyName(ctx, A)}\`, \`${bodyName(ctx, B)}\`)`;
    ctx.issues.push({ severity: 'warning', code: Codes.unsupportedEquality, message: `Equality \`${name}\` is not converted: ${why}, so it constrains nothing here.`, element: el });
    return;
  }
  const ends = { bodyA: bodyName(ctx, A), bodyB: bodyName(ctx, B), anchorA: toLocal(ctx.frames[a.b1], a.x1), anchorB: toLocal(ctx.frames[a.b2], a.x2) };
  const torquescale = e.objtype === 'body' ? e.data[10] : 1;
  let index: number;
  if (e.type === 'connect' || torquescale === 0) {
    index = addConstraint(ctx, { name, type: 'ball', ...ends }, el);
  } else {
    // MuJoCo: q_body2 = q_body1 ⊗ rel at rest. Our frame of each = MuJoCo's ⊗ T (T = q_mj⁻¹ ⊗ q_ours), so
    // q_B = q_A ⊗ T₁⁻¹ ⊗ rel ⊗ T₂: that is the fixed constraint's relative orientation.
    const T1 = qmul(qconj(ctx.mjFrames[a.b1].q), ctx.frames[a.b1].q);
    const T2 = qmul(qconj(ctx.mjFrames[a.b2].q), ctx.frames[a.b2].q);
    index = addConstraint(ctx, { name, type: 'fixed', ...ends, relativeOrientation: qnormalize(qmul(qmul(qconj(T1), a.rel), T2)) }, el);
  }
  ctx.equalityConstraint[i] = index;
}

function jointEquality(ctx: ConvertContext, e: CompiledEquality, i: number, name: string): void {
  const { m, st, map } = ctx;
  const el = map.equality[i];
  const ids = e.obj2 >= 0 ? [e.obj1, e.obj2] : [e.obj1];
  const coupled: CoupledJoint[] = [];
  for (const j of ids) {
    const jc = ctx.jointConstraint[j];
    const J = m.joints[j];
    if (!jc || !J) {
      ctx.issues.push({
        severity: 'warning',
        code: Codes.unsupportedEquality,
        message: `Equality \`${name}\` couples joint \`${J?.name || `joint${j}`}\`, which is not a lone hinge or slide joint here (see its body), so the coupling is not converted.`,
        element: el,
        related: map.joint[j] ? [{ message: `joint \`${J?.name}\``, element: map.joint[j] }] : undefined,
      });
      return;
    }
    coupled.push({ joint: jc.constraint, kind: jc.kind, body: jc.body, parent: jc.parent, axis: jc.axis, initial: st.qpos[J.qposadr] - m.qpos0[J.qposadr] });
  }
  const coefficients = trimZeros(e.data.slice(0, ids.length === 2 ? 5 : 1));
  ctx.equalityConstraint[i] = addConstraint(
    ctx,
    { name, type: 'coupler', bodyA: coupled[0].body, bodyB: coupled[0].parent, anchorA: [0, 0, 0], anchorB: [0, 0, 0], coupling: { joints: coupled as [CoupledJoint] | [CoupledJoint, CoupledJoint], coefficients } },
    el,
  );
}

/** Polynomial coefficients without trailing zeros (at least one). */
function trimZeros(c: number[]): number[] {
  let n = c.length;
  while (n > 1 && c[n - 1] === 0) n--;
  return c.slice(0, n);
}

/** Every URDF <mimic> must have arrived as a joint equality; a missing one is added from the XML. */
function checkMimics(ctx: ConvertContext): void {
  const { m, map, st } = ctx;
  for (const mi of map.mimics) {
    const j1 = m.joints.findIndex((j) => j.name === mi.joint);
    const j2 = m.joints.findIndex((j) => j.name === mi.mimicked);
    const arrived = m.equalities.some((e) => e.type === 'joint' && e.obj1 === j1 && e.obj2 === j2 && j1 >= 0);
    if (arrived) continue;
    const J1 = ctx.jointConstraint[j1], J2 = ctx.jointConstraint[j2];
    const canAdd = J1 && J2;
    ctx.issues.push({
      severity: 'warning',
      code: Codes.mimicMissing,
      message: `The <mimic> of joint \`${mi.joint}\` (following \`${mi.mimicked}\`) is not in MuJoCo's compiled model${j1 < 0 || j2 < 0 ? ` (joint \`${j1 < 0 ? mi.joint : mi.mimicked}\` is not a moving joint there)` : ''}. ${canAdd ? `The coupler ${mi.joint} = ${mi.offset} + ${mi.multiplier}·${mi.mimicked} is added from the XML, so MuJoCo's own simulation differs from ours here.` : 'It is not simulated.'}`,
      element: mi.element,
      related: [{ message: `joint \`${mi.joint}\``, element: mi.jointElement }],
    });
    if (!canAdd) continue;
    const q = (j: number) => st.qpos[m.joints[j].qposadr] - m.qpos0[m.joints[j].qposadr];
    addConstraint(
      ctx,
      {
        name: uniqueName(ctx, `${mi.joint}_mimic`),
        type: 'coupler',
        bodyA: J1.body,
        bodyB: J1.parent,
        anchorA: [0, 0, 0],
        anchorB: [0, 0, 0],
        coupling: {
          joints: [
            { joint: J1.constraint, kind: J1.kind, body: J1.body, parent: J1.parent, axis: J1.axis, initial: q(j1) },
            { joint: J2.constraint, kind: J2.kind, body: J2.body, parent: J2.parent, axis: J2.axis, initial: q(j2) },
          ],
          coefficients: trimZeros([mi.offset, mi.multiplier]),
        },
      },
      mi.element,
    );
  }
}
