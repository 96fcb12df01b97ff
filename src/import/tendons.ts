// MuJoCo's tendons → the scene's `tendons` (engine: model/tendon.ts, model/tendonForces.ts,
// contact/tendonRows.ts):
//   fixed tendons over lone hinges and slides → `joints` with their coefficients (each joint's
//     `coordinate` is its qpos at the initial state, so L is on MuJoCo's scale, as ten_length);
//   spatial tendons through sites only → `path`: each site in the frame of the scene body it belongs to;
//   tendon_range (limited when not empty, unless the XML says `limited="false"`: the bindings cannot read
//     tendon_limited), margin, stiffness with the spring's dead band (lengthspring), damping, friction loss;
//   `<equality tendon>` → the first tendon's `equality` (polycoef, length0 of both);
//   the tendon's name for actuators with a tendon transmission (actuators.ts).
// What does not fit is listed in the CL606 note on the tendon's element: wrapping around geoms and
// pulleys, tendon armature, fixed tendons over joints combined into one chain constraint (they have no
// coordinate of their own; a universal's or ball's hinges do, `hinges` on the constraint).
import type { TendonSpec } from '../engine';
import { toLocal } from './geometry';
import { bodyName, notSimulated, type ConvertContext } from './types';
import { attr, type XmlElement } from './xml';

/** The <fixed> and <spatial> elements of every <tendon> section, in MuJoCo's tendon order. */
function tendonElements(root: XmlElement): XmlElement[] {
  return root.children.filter((e) => e.name === 'tendon').flatMap((s) => s.children.filter((c) => c.name === 'fixed' || c.name === 'spatial'));
}

export function convertTendons(ctx: ConvertContext): void {
  const { m, st } = ctx;
  if (!m.tendons.length) return;
  const elements = tendonElements(ctx.map.root);
  const byOrder = elements.length === m.tendons.length;
  const elementOf = (i: number): XmlElement | undefined => (byOrder ? elements[i] : elements.find((e) => attr(e, 'name') === m.tendons[i].name && m.tendons[i].name !== ''));
  const out: TendonSpec[] = [];
  const sceneName: (string | undefined)[] = m.tendons.map(() => undefined);
  const used = new Set<string>();
  const velocity = ctx.scene.solver.formulation === 'velocity';
  m.tendons.forEach((t, i) => {
    const el = elementOf(i);
    const label = `\`${t.name || `tendon${i}`}\``;
    const kinds = new Set(t.wraps.map((w) => w.type));
    let spec: Omit<TendonSpec, 'index' | 'name'>;
    if (kinds.size === 1 && kinds.has('joint')) {
      const joints: { joint: string; coef: number }[] = [];
      for (const w of t.wraps) {
        // a hinge of a universal or ball: its own coordinate (always with its drive's coordinate = MuJoCo's qpos)
        const member = ctx.groupHinge?.get(w.obj);
        if (member) {
          joints.push({ joint: member.hinge.name, coef: w.prm });
          continue;
        }
        const jc = ctx.jointConstraint[w.obj];
        const c = jc && ctx.scene.constraints.find((x) => x.name === jc.constraint);
        if (!jc || !c) {
          const into = ctx.combinedInto?.get(w.obj);
          const why = into ? `joints combined into one ${into} constraint: its hinges have no coordinate of their own` : 'joints that are not a lone hinge or slide';
          return notSimulated(ctx, `fixed tendons over ${why}`, label, el);
        }
        const j = m.joints[w.obj];
        // the tendon's length is MuJoCo's Σ coef·qpos: the joint's coordinate on MuJoCo's scale
        c.drive ??= { coordinate: st.qpos[j.qposadr] ?? 0, damping: 0, stiffness: 0, springRef: m.drives.springRef[w.obj] ?? 0, armature: 0 };
        joints.push({ joint: c.name, coef: w.prm });
      }
      spec = { joints };
    } else if (kinds.size === 1 && kinds.has('site')) {
      const path = t.wraps.map((w) => {
        const b = m.sites[w.obj].body;
        return { body: bodyName(ctx, ctx.sceneOf[b]), point: toLocal(ctx.frames[b], st.siteXpos[w.obj]) };
      });
      spec = { path };
    } else {
      const what = kinds.has('pulley') && !kinds.has('sphere') && !kinds.has('cylinder') ? 'spatial tendons with pulleys' : 'spatial tendons wrapping around geoms';
      return notSimulated(ctx, what, label, el);
    }
    let name = t.name || `tendon${i}`;
    for (let k = 2; used.has(name); k++) name = `${t.name || `tendon${i}`}#${k}`;
    used.add(name);
    const limited = t.range[0] < t.range[1] && (el === undefined || attr(el, 'limited') !== 'false');
    if (limited) {
      spec.limits = [t.range[0], t.range[1]];
      if (t.margin > 0) spec.limitMargin = t.margin;
    }
    if (t.stiffness > 0) {
      spec.stiffness = t.stiffness;
      spec.springLength = [t.lengthspring[0], t.lengthspring[1]];
    }
    if (t.damping > 0) spec.damping = t.damping;
    if (t.frictionloss > 0) spec.frictionLoss = t.frictionloss;
    if (t.armature > 0) notSimulated(ctx, 'tendon armature', label, el);
    if (!velocity && (limited || t.frictionloss > 0)) notSimulated(ctx, `tendon limits and friction loss (the ${ctx.scene.solver.formulation} formulation does not solve them; the velocity formulation does)`, label, el);
    sceneName[i] = name;
    out.push({ index: out.length, name, ...spec });
  });
  for (const e of ctx.tendonEqualities ?? []) {
    const eq = m.equalities[e];
    const el = ctx.map.equality[e];
    const label = `\`${eq.name || `tendon${e}`}\``;
    const first = sceneName[eq.obj1];
    const second = eq.obj2 >= 0 ? sceneName[eq.obj2] : undefined;
    const spec = out.find((x) => x.name === first);
    if (!spec || (eq.obj2 >= 0 && !second)) {
      notSimulated(ctx, 'tendon equalities (on tendons not simulated)', label, el);
      continue;
    }
    if (spec.equality) {
      notSimulated(ctx, 'tendon equalities (a second one on the same tendon)', label, el);
      continue;
    }
    if (!velocity) notSimulated(ctx, `tendon equalities (the ${ctx.scene.solver.formulation} formulation does not solve them; the velocity formulation does)`, label, el);
    spec.equality = {
      name: eq.name || `${first}.equality`,
      length0: m.tendons[eq.obj1].length0,
      polycoef: eq.data.slice(0, 5),
      ...(second ? { other: second, otherLength0: m.tendons[eq.obj2].length0 } : {}),
    };
  }
  ctx.tendonScene = sceneName;
  if (out.length) ctx.scene.tendons = out;
}
