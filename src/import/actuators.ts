// MuJoCo's forces along joints → the scene's drives and actuators (model/forces.ts in the engine):
//   joint damping, stiffness with springref, armature → `drive` of the hinge or slider constraint
//     (its coordinate q at the initial state from qpos, so springref keeps MuJoCo's zero);
//   actuators with a joint or tendon transmission, no activation dynamics or an integrator or filter
//     (the activation a state of the run: model/activation.ts), fixed or affine gain and none or
//     affine bias → `actuators` (ctrl from the keyframe's ctrl, or zero), ctrlrange/forcerange as
//     ranges when limited;
//   the integrator MuJoCo was asked for → `requestedIntegrator` and a CL620 note when it differs.
// What does not fit is listed in the CL606 note.
import { Codes, integratorInfo, type ActivationSpec, type ActuatorSpec } from '../engine';
import { notSimulated, type ConvertContext } from './types';
import type { XmlElement } from './xml';
import { ACTUATOR_TAGS, defaultedAttr } from './mjcfDefaults';

/** MuJoCo's activation dynamics the engine simulates (model/activation.ts); muscles and user dynamics are listed. */
const ACTIVATION_TYPES = new Set(['integrator', 'filter', 'filterexact']);

/** MuJoCo's spelling of its integrators (the bindings give enum names in lower case). */
const INTEGRATOR_NAMES: Record<string, string> = { euler: 'Euler', rk4: 'RK4', implicit: 'implicit', implicitfast: 'implicitfast' };

/** Joint drives, actuators and the integrator note. Call after the joints became constraints. */
export function convertDrives(ctx: ConvertContext): void {
  convertJointDrives(ctx);
  convertActuators(ctx);
  integratorNote(ctx);
}

function convertJointDrives(ctx: ConvertContext): void {
  const { m, st, map } = ctx;
  m.joints.forEach((j, i) => {
    const label = `\`${j.name || `joint${i}`}\``;
    const el = map.joint[i];
    const damping = m.dofDamping[j.dofadr] ?? 0;
    const armature = m.dofArmature[j.dofadr] ?? 0;
    const stiffness = j.stiffness;
    if (!(damping > 0 || armature > 0 || stiffness > 0)) return;
    const member = ctx.groupHinge?.get(i)?.hinge;
    if (member) {
      // a group's hinge has its drive row in the velocity formulation only (model/forces.ts); the other
      // formulations keep its damping and stiffness and list its armature
      const velocity = ctx.scene.solver.formulation === 'velocity';
      if (armature > 0 && !velocity) notSimulated(ctx, `hinge armature in a universal or ball joint (the ${ctx.scene.solver.formulation} formulation cannot couple the two ends; the velocity formulation does)`, label, el);
      Object.assign(member.drive, { damping, stiffness, armature: velocity ? armature : 0 });
      return;
    }
    const jc = ctx.jointConstraint[i];
    const spec = jc && ctx.scene.constraints.find((c) => c.name === jc.constraint);
    if (!jc || !spec) {
      const into = ctx.combinedInto?.get(i);
      const why = into ? ` (joints combined into one ${into} constraint)` : '';
      if (damping > 0) notSimulated(ctx, `joint damping${why}`, label, el);
      if (stiffness > 0) notSimulated(ctx, `joint stiffness${why}`, label, el);
      if (armature > 0) notSimulated(ctx, `joint armature${why}`, label, el);
      return;
    }
    // armature is exact per body on a hinge child of the world or of a fixed body (rotor inertia about
    // the axis); between two moving bodies, and on any slide, it couples the two ends, which only the
    // velocity formulation's drive rows hold (model/forces.ts). The child-only approximation of the other
    // formulations destabilises limited legs (Gymnasium's ant): there it is listed instead
    const parentFixed = jc.parent === 'world' || ctx.scene.bodies.some((b) => b.name === jc.parent && b.fixed);
    const exact = ctx.scene.solver.formulation === 'velocity' || (jc.kind === 'hinge' && parentFixed);
    if (armature > 0 && !exact) {
      const what = jc.kind === 'slider' ? 'slide-joint armature' : 'hinge armature between two moving bodies';
      notSimulated(ctx, `${what} (the ${ctx.scene.solver.formulation} formulation cannot couple the two ends; the velocity formulation does)`, label, el);
    }
    spec.drive = {
      coordinate: st.qpos[j.qposadr] ?? 0,
      damping,
      stiffness,
      springRef: m.drives.springRef[i] ?? 0,
      armature: exact ? armature : 0,
    };
  });
  m.drives.actuatorForceRange.forEach((r, i) => {
    if (r) notSimulated(ctx, 'joint actuator force ranges (actuatorfrcrange)', `\`${m.joints[i].name || `joint${i}`}\``, map.joint[i]);
  });
}

function convertActuators(ctx: ConvertContext): void {
  const { m, st } = ctx;
  const section = ctx.map.root.children.find((e) => e.name === 'actuator');
  const elements: XmlElement[] = section ? section.children : [];
  const out: ActuatorSpec[] = [];
  const used = new Set<string>();
  m.drives.actuators.forEach((a, i) => {
    const label = `\`${a.name || `actuator${i}`}\``;
    const el = elements[i] ?? section;
    const tendon = a.trntype === 'tendon' ? ctx.tendonScene?.[a.target] : undefined;
    if (a.trntype === 'tendon' && !tendon) return notSimulated(ctx, 'actuators on tendons that are not simulated', label, el);
    if (a.trntype !== 'joint' && a.trntype !== 'tendon') return notSimulated(ctx, `actuators with a ${a.trntype} transmission`, label, el);
    if (a.dyntype !== 'none' && !ACTIVATION_TYPES.has(a.dyntype)) return notSimulated(ctx, `actuator activation dynamics (dyntype ${a.dyntype})`, label, el);
    if (a.gaintype !== 'fixed' && a.gaintype !== 'affine') return notSimulated(ctx, `actuator gain type ${a.gaintype}`, label, el);
    if (a.biastype !== 'none' && a.biastype !== 'affine') return notSimulated(ctx, `actuator bias type ${a.biastype}`, label, el);
    let joint = '';
    if (!tendon) {
      const member = ctx.groupHinge?.get(a.target);
      const jc = ctx.jointConstraint[a.target];
      const spec = jc && ctx.scene.constraints.find((c) => c.name === jc.constraint);
      if (!member && (!jc || !spec)) return notSimulated(ctx, 'actuators on joints that are not a hinge, a slide or a hinge of a universal or ball joint', label, el);
      // the actuator's length is measured on MuJoCo's joint coordinate: the joint needs its coordinate
      // (a group's hinge always has it)
      const j = m.joints[a.target];
      if (spec) spec.drive ??= { coordinate: st.qpos[j.qposadr] ?? 0, damping: 0, stiffness: 0, springRef: m.drives.springRef[a.target] ?? 0, armature: 0 };
      joint = member ? member.hinge.name : jc!.constraint;
    }
    // the bindings cannot read actuator_actearly: read it from the element and its default class
    const early = a.dyntype !== 'none' && el !== section && !!el && /^(true|1)$/.test(defaultedAttr(ctx.map.root, el, 'actearly', ACTUATOR_TAGS) ?? '');
    let name = a.name || `actuator${i}`;
    for (let k = 2; used.has(name); k++) name = `${a.name || `actuator${i}`}#${k}`;
    used.add(name);
    const g = a.gainprm, b = a.biasprm;
    out.push({
      index: out.length,
      name,
      joint,
      ...(tendon ? { tendon } : {}),
      gear: a.gear[0],
      gain: a.gaintype === 'fixed' ? [g[0], 0, 0] : [g[0], g[1], g[2]],
      bias: a.biastype === 'none' ? [0, 0, 0] : [b[0], b[1], b[2]],
      ...(a.ctrlRange ? { ctrlRange: a.ctrlRange } : {}),
      ...(a.forceRange ? { forceRange: a.forceRange } : {}),
      ctrl: st.ctrl?.[i] ?? 0,
      ...(a.dyntype !== 'none'
        ? { activation: { type: a.dyntype as ActivationSpec['type'], timeConstant: a.timeConstant, act0: st.act?.[a.actAdr] ?? 0, ...(a.actRange ? { range: a.actRange } : {}), ...(early ? { early } : {}) } }
        : {}),
    });
  });
  if (out.length) ctx.scene.actuators = out;
}

/** The integrator the model asks for, and a CL620 note on `<option>` when the run computes something else. */
function integratorNote(ctx: ConvertContext): void {
  const requested = INTEGRATOR_NAMES[ctx.m.drives.integrator] ?? ctx.m.drives.integrator;
  ctx.scene.requestedIntegrator = requested;
  const info = integratorInfo(ctx.scene);
  if (!info.difference) return;
  const option = ctx.map.root.children.find((e) => e.name === 'option');
  ctx.issues.push({
    severity: 'information',
    code: Codes.integrator,
    message: `Integrator: the model asks for MuJoCo's \`${requested}\`; the engine runs ${info.runs}. ${info.difference[0].toUpperCase()}${info.difference.slice(1)}.`,
    element: option ?? ctx.map.root,
    data: { requested, runs: info.runs },
  });
}
