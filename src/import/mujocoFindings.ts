// What a MuJoCo user has never been told, each on the XML element it is about: the blow-up named at its
// onset with the element that grew first and the likely cause, solref time constants that MuJoCo
// silently clamps to 2·timestep, a mass matrix made ill-conditioned by tiny links without armature, and
// (from the seam's analysis of MuJoCo's own system) redundant or conflicting equality rows.
import { Codes, formatNumber, type Diagnostic, type SystemAnalysis } from '../engine';
import type { ImportedModel } from './index';
import type { MjModelHandle } from './mujoco';
import type { MujocoRun } from './mujocoRun';
import type { XmlSourceMap } from './sourcemap';
import type { Issue } from './types';
import type { XmlElement } from './xml';

type Num = ArrayLike<number>;
const arr = (m: MjModelHandle, name: string): Num => {
  try {
    return (m[name] as Num | undefined) ?? [];
  } catch {
    return [];
  }
};

/** Growth of a series that counts as a blow-up's onset: it stays above this many times its early level. */
const GROWTH = 100;
/** |qvel| beyond which a run has blown up even without a MuJoCo warning (rad/s or m/s). */
const QVEL_BLOWUP = 1e4;

interface Onset {
  step: number;
  growth: number;
}

/**
 * The first step from which `x` stays above GROWTH × its early level (the median of its first quarter
 * before the trigger) until the trigger; undefined when it never grew so much.
 */
export function onsetOf(x: readonly number[], trigger: number): Onset | undefined {
  const n = Math.min(x.length, trigger + 1);
  if (n < 4) return undefined;
  const early = x.slice(0, Math.max(2, Math.floor(n / 4))).map(Math.abs).filter(Number.isFinite).sort((a, b) => a - b);
  const base = Math.max(early[Math.floor(early.length / 2)] ?? 0, 1e-9);
  let k = n - 1;
  const grown = (v: number) => !(Math.abs(v) <= GROWTH * base); // NaN counts as grown
  if (!grown(x[k])) return undefined;
  while (k > 0 && grown(x[k - 1])) k--;
  const peak = x.slice(k, n).reduce((a, v) => (Number.isFinite(v) ? Math.max(a, Math.abs(v)) : Infinity), 0);
  return { step: k, growth: peak / base };
}

/** Per DOF: the time constants that bound a stable step (stiffness and actuator gains, damping). */
function dofStiffness(m: MjModelHandle, M: Num, nv: number): { omega: number[]; damping: number[] } {
  const omega = new Array<number>(nv).fill(0), damping = new Array<number>(nv).fill(0);
  const stiffness = arr(m, 'jnt_stiffness'), jntDof = arr(m, 'jnt_dofadr'), dofDamp = arr(m, 'dof_damping');
  const k = new Array<number>(nv).fill(0), c = new Array<number>(nv).fill(0);
  for (let j = 0; j < stiffness.length; j++) if (jntDof[j] >= 0 && jntDof[j] < nv) k[jntDof[j]] += stiffness[j];
  for (let i = 0; i < nv; i++) c[i] += dofDamp[i] ?? 0;
  const nu = Number(m.nu ?? 0), trntype = arr(m, 'actuator_trntype'), trnid = arr(m, 'actuator_trnid'), gear = arr(m, 'actuator_gear'), bias = arr(m, 'actuator_biasprm'), gain = arr(m, 'actuator_gainprm');
  const nbias = nu > 0 ? bias.length / nu : 0, ngain = nu > 0 ? gain.length / nu : 0;
  for (let a = 0; a < nu; a++) {
    if (trntype[a] !== 0) continue; // joint transmissions only
    const dof = jntDof[trnid[2 * a]];
    if (!(dof >= 0 && dof < nv)) continue;
    const g = gear[6 * a];
    // position servo: bias = −kp·q − kv·q̇ (biasprm[1], biasprm[2]); gain kp on ctrl does not stiffen
    k[dof] += Math.max(0, -(bias[a * nbias + 1] ?? 0)) * g * g;
    c[dof] += Math.max(0, -(bias[a * nbias + 2] ?? 0)) * g * g;
    void ngain;
  }
  for (let i = 0; i < nv; i++) {
    const mii = M[i * nv + i];
    omega[i] = mii > 0 ? Math.sqrt(k[i] / mii) : 0;
    damping[i] = mii > 0 ? c[i] / mii : 0;
  }
  return { omega, damping };
}

interface Context {
  run: MujocoRun;
  model: ImportedModel;
  sm: XmlSourceMap;
  m: MjModelHandle;
}

const jointElement = (c: Context, joint: number): XmlElement | undefined => c.model.map.joint[joint];
const jointOfDof = (c: Context, dof: number): number => {
  const js = c.model.compiled.joints;
  for (let i = js.length - 1; i >= 0; i--) if (js[i].dofadr <= dof) return i;
  return -1;
};

/** The element an element of the run (by name and type) came from. */
function elementOf(c: Context, name: string, type: string): XmlElement | undefined {
  const cm = c.model.compiled;
  if (type === 'equality') {
    const i = cm.equalities.findIndex((e, k) => (e.name || `${e.type}${k}`) === name);
    return i >= 0 ? c.model.map.equality[i] : undefined;
  }
  if (type === 'limit' || type === 'frictionloss') {
    const i = cm.joints.findIndex((j, k) => (j.name || `joint${k}`) === name);
    return i >= 0 ? jointElement(c, i) : undefined;
  }
  return undefined;
}

/** The blow-up of a run: where it starts, what grew first, why, and what to change. */
function blowUp(c: Context, M: Num): Issue | undefined {
  const cols = c.run.columns;
  let trigger = -1;
  for (let k = 0; k < cols.length && trigger < 0; k++) if (cols.nonFinite(k) || cols.maxQvel(k) > QVEL_BLOWUP || cols.warnings(k).some((w) => w.name.startsWith('bad'))) trigger = k;
  if (trigger < 0) return undefined;
  const t = c.run.recordAt(trigger);
  const what = t.nonFinite ? 'a NaN or infinity in the state' : t.warnings.find((w) => w.name.startsWith('bad')) ? `MuJoCo's ${t.warnings.find((w) => w.name.startsWith('bad'))?.name} warning` : `|q̇| reached ${formatNumber(t.maxQvel)}`;
  // per element, the series of ‖λ‖ and of the violation up to the trigger (0 where it had no rows): the one that grew first
  const lams = c.run.elements.map(() => new Array<number>(trigger + 1).fill(0)), vios = c.run.elements.map(() => new Array<number>(trigger + 1).fill(0));
  for (let k = 0; k <= trigger; k++) {
    const e = cols.elementsOf(k);
    for (let i = e.start; i < e.end; i++) {
      lams[e.ids[i]][k] = e.lambda[i];
      vios[e.ids[i]][k] = e.violation[i];
    }
  }
  let first: { name: string; type: string; onset: Onset; of: string } | undefined;
  c.run.elements.forEach((e, id) => {
    for (const [series, of] of [[lams[id], 'λ'], [vios[id], 'violation']] as const) {
      const o = onsetOf(series, trigger);
      if (o && (!first || o.step < first.onset.step || (o.step === first.onset.step && o.growth > first.onset.growth))) first = { name: e.name, type: e.type, onset: o, of };
    }
  });
  const qvel = Array.from({ length: trigger + 1 }, (_, k) => cols.maxQvel(k));
  const motion = onsetOf(qvel, trigger);
  const onset = Math.min(first?.onset.step ?? trigger, motion?.step ?? trigger);
  const badDofWarning = t.warnings.find((w) => w.name === 'badqacc' || w.name === 'badqvel');
  const dof = badDofWarning ? badDofWarning.info : -1;
  const joint = dof >= 0 ? jointOfDof(c, dof) : -1;
  const cm = c.model.compiled;
  const nv = cm.nv;
  const h = c.run.timestep;
  // the likely cause, in the order the evidence is clearest
  let cause = '', fix = '';
  const r1 = c.run.recordAt(Math.min(1, cols.length - 1));
  const violated0 = c.run.elements.map((e, id) => ({ e, v: r1.elementViolation[r1.elementIds.indexOf(id)] ?? 0 })).filter((x) => x.e.type === 'equality' && x.v > 1e-3).sort((a, b) => b.v - a.v)[0];
  const { omega, damping: explicitDamping } = dofStiffness(c.m, M, nv);
  // implicit and implicitfast integrate damping (and velocity feedback) implicitly: it cannot destabilise them
  const damping = c.run.integrator.startsWith('implicit') ? explicitDamping.map(() => 0) : explicitDamping;
  let stiffest = -1;
  for (let i = 0; i < nv; i++) if (stiffest < 0 || Math.max(h * omega[i], h * damping[i] / 2) > Math.max(h * omega[stiffest], h * damping[stiffest] / 2)) stiffest = i;
  const diag = Array.from({ length: nv }, (_, i) => M[i * nv + i]);
  const maxDiag = Math.max(...diag.filter(Number.isFinite), 0);
  const lightest = diag.reduce((best, v, i) => (v < diag[best] ? i : best), 0);
  const armature = arr(c.m, 'dof_armature');
  if (stiffest >= 0 && Math.max(h * omega[stiffest], (h * damping[stiffest]) / 2) > 1) {
    const j = jointOfDof(c, stiffest);
    const byGain = h * omega[stiffest] >= (h * damping[stiffest]) / 2;
    cause = `the time step ${formatNumber(h)} s is too large for the ${byGain ? `stiffness at ${cm.joints[j]?.name || `dof ${stiffest}`} (natural frequency ${formatNumber(omega[stiffest])} rad/s, h·ω = ${formatNumber(h * omega[stiffest])})` : `damping at ${cm.joints[j]?.name || `dof ${stiffest}`} (h·c/m = ${formatNumber(h * damping[stiffest])} under an explicit integrator)`}`;
    fix = byGain ? `use timestep ≤ ${formatNumber(1 / omega[stiffest])} (h·ω ≤ 1), or lower the gain/gear` : `use integrator="implicitfast", or a timestep ≤ ${formatNumber(1 / Math.max(damping[stiffest], 1e-300))}`;
  } else if (nv > 0 && maxDiag > 0 && diag[lightest] < 1e-6 * maxDiag && !(armature[lightest] > 0)) {
    const j = jointOfDof(c, lightest);
    cause = `a near-massless link: M[${cm.joints[j]?.name || lightest}] = ${formatNumber(diag[lightest])} against ${formatNumber(maxDiag)} elsewhere, with no armature`;
    fix = `add armature to joint ${cm.joints[j]?.name || lightest} (e.g. armature="${formatNumber(1e-4 * maxDiag)}") or give the link a realistic mass and inertia`;
  } else if (violated0) {
    cause = `the loop ${violated0.e.name} started violated by ${formatNumber(violated0.v)}: MuJoCo pulls it closed with aref = −b·v − k·r, a large first impulse`;
    fix = `start from a state where the loop is closed (a keyframe), or soften it (a larger solref time constant)`;
  } else {
    cause = `the time step ${formatNumber(h)} s for the forces in the model`;
    fix = `halve the timestep and run again`;
  }
  const culprit = first ? `${first.type} ${first.name} grew first (its ${first.of} ×${formatNumber(first.onset.growth)} from step ${first.onset.step})` : 'No constraint grew before the motion did';
  const causeJoint = stiffest >= 0 && cause.startsWith('the time step') && !cause.endsWith('in the model') ? jointOfDof(c, stiffest) : -1;
  const element =
    (first && elementOf(c, first.name, first.type)) ?? (joint >= 0 ? jointElement(c, joint) : undefined) ?? (causeJoint >= 0 ? jointElement(c, causeJoint) : undefined) ?? c.model.map.worldbody;
  return {
    severity: 'error',
    code: Codes.mujocoBlowUp,
    message: `MuJoCo blew up at step ${trigger} (t = ${formatNumber(t.t)} s: ${what}); the growth began at step ${onset}. ${culprit}.${joint >= 0 ? ` The bad acceleration is at DOF ${dof} (joint ${cm.joints[joint]?.name || joint}).` : ''} Likely cause: ${cause}. Fix: ${fix}.`,
    element,
    ...(joint >= 0 && element !== jointElement(c, joint) ? { related: [{ message: `joint ${cm.joints[joint]?.name || joint} (DOF ${dof})`, element: jointElement(c, joint) }] } : {}),
    data: { step: trigger, onset, ...(first ? { element: first.name, elementType: first.type } : {}), ...(dof >= 0 ? { dof } : {}) },
  };
}

/** solref time constants below 2·timestep, which MuJoCo raises to 2·timestep without a word. */
function clampedSolrefs(c: Context): Issue[] {
  const disable = Number((c.m.opt as { disableflags: number }).disableflags);
  if (disable & 4096) return []; // refsafe off: MuJoCo uses the value as given
  const h = c.run.timestep;
  const out: Issue[] = [];
  const check = (field: string, count: number, what: (i: number) => { label: string; element: XmlElement | undefined } | undefined) => {
    const s = arr(c.m, field);
    for (let i = 0; i < count; i++) {
      const tau = s[2 * i], zeta = s[2 * i + 1];
      if (!(tau > 0 && tau < 2 * h)) continue;
      const w = what(i);
      if (!w) continue;
      const inherited = w.element && !w.element.attrs.has('solref') ? ' (inherited from a default class)' : '';
      out.push({
        severity: 'warning',
        code: Codes.solrefClamped,
        message: `${w.label}: solref time constant ${formatNumber(tau)} s${inherited} is below 2·timestep = ${formatNumber(2 * h)} s, so MuJoCo silently uses ${formatNumber(2 * h)} s: the constraint is ${formatNumber((2 * h / tau) ** 2)}× softer than written (stiffness ∝ 1/τ²${zeta > 0 ? `, damping ratio ${formatNumber(zeta)}` : ''}). Use a time constant ≥ ${formatNumber(2 * h)} s, or a smaller timestep (≤ ${formatNumber(tau / 2)} s) for this stiffness.`,
        element: w.element,
        data: { solref: [tau, zeta], timestep: h, effective: 2 * h },
      });
    }
  };
  const cm = c.model.compiled;
  check('eq_solref', cm.equalities.length, (i) => ({ label: `${cm.equalities[i].type} ${cm.equalities[i].name || `${cm.equalities[i].type}${i}`}`, element: c.model.map.equality[i] }));
  check('jnt_solref', cm.joints.length, (i) => (cm.joints[i].limited ? { label: `the limit of joint ${cm.joints[i].name || i}`, element: jointElement(c, i) } : undefined));
  check('geom_solref', cm.geoms.length, (i) => ({ label: `contacts of geom ${cm.geoms[i].name || i}`, element: c.model.map.geom[i] }));
  return out;
}

/** κ(M) and the joints that make it: tiny diagonal entries next to large ones, without armature. */
function massConditioning(c: Context, M: Num): Issue | undefined {
  const nv = c.model.compiled.nv;
  if (nv < 2) return undefined;
  const diag = Array.from({ length: nv }, (_, i) => M[i * nv + i]);
  const max = Math.max(...diag), min = Math.min(...diag);
  if (!(min > 0) || max / min < 1e8) return undefined;
  const armature = arr(c.m, 'dof_armature');
  const dof = diag.indexOf(min);
  const j = jointOfDof(c, dof);
  const name = c.model.compiled.joints[j]?.name || `dof ${dof}`;
  return {
    severity: 'warning',
    code: Codes.illConditionedMass,
    message: `The mass matrix spans ${formatNumber(max / min)}: M at ${name} is ${formatNumber(min)} against ${formatNumber(max)}${armature[dof] > 0 ? '' : ', with no armature'}. Tiny links next to heavy ones make accelerations ill-conditioned (MuJoCo's factorisation loses ${formatNumber(Math.log10(max / min))} digits).${armature[dof] > 0 ? '' : ` Add armature to ${name}, or merge the light link into its parent.`}`,
    element: jointElement(c, j),
    data: { ratio: max / min, dof },
  };
}

/** True when the element of that name is not an equality, limit or friction loss of the model (a contact pair). */
const isContact = (c: Context, name: string): boolean => {
  const cm = c.model.compiled;
  return !cm.equalities.some((e, k) => (e.name || `${e.type}${k}`) === name) && !cm.joints.some((j, k) => (j.name || `joint${k}`) === name) && !cm.tendons.some((t, k) => (t.name || `tendon${k}`) === name);
};

/** The seam's analysis of MuJoCo's system at step 0: redundant and conflicting equality rows, κ. */
function systemFindings(c: Context, an: SystemAnalysis): Issue[] {
  const out: Issue[] = [];
  const cm = c.model.compiled;
  // a pyramidal contact's edges, and the contacts of one face, depend on each other by construction
  for (const r of an.redundant) {
    if (isContact(c, r.constraint)) continue;
    const i = cm.equalities.findIndex((e, k) => (e.name || `${e.type}${k}`) === r.constraint);
    const element = i >= 0 ? c.model.map.equality[i] : elementOf(c, r.constraint, 'limit');
    const combo = r.dependsOn.length ? r.dependsOn.map((d) => `${formatNumber(d.coefficient)}·${d.constraint}[${d.row}]`).join(' + ') : '0 (the row is zero in joint space)';
    out.push({
      severity: an.consistent === false ? 'error' : 'warning',
      code: an.consistent === false ? Codes.conflictingConstraints : Codes.redundantConstraint,
      message: `${r.constraint}[${r.row}] of MuJoCo's system is redundant: its row of J = ${combo}. MuJoCo's R makes its force unique (a regularised least-squares split), so the split says more about solimp than about the model.`,
      element,
      data: { constraint: r.constraint, row: r.row },
    });
  }
  return out;
}

/** Every MuJoCo-specific diagnostic of a run, with ranges on the XML. */
export function mujocoFindings(run: MujocoRun, model: ImportedModel, sm: XmlSourceMap, step0: SystemAnalysis | undefined, M0: Num): Diagnostic[] {
  const c: Context = { run, model, sm, m: run.raw().m };
  const issues: Issue[] = [...clampedSolrefs(c)];
  const mass = massConditioning(c, M0);
  if (mass) issues.push(mass);
  if (step0) issues.push(...systemFindings(c, step0));
  const blow = blowUp(c, M0);
  if (blow) issues.push(blow);
  return issues.map((i) => sm.toDiagnostic(i));
}
