// How deep a contact rests in MuJoCo, predicted from its solref and solimp, next to the depth MuJoCo
// measured. MuJoCo's soft constraints (docs/computation, "Parameters"): the reference acceleration of a
// row is aref = −b·(J v) − k·d(r)·r with k = 1/(dmax²·τ²·ζ²) (τ raised to 2·timestep unless refsafe is
// off; a negative solref gives k = −solref[0]/dmax² directly), the regulariser R = (1 − d)/d · Â, and
// the constrained acceleration is aref − R·f. At rest (v = 0, constrained acceleration 0) each row
// therefore holds k·d(r)·r = R·f = (1 − d(r))/d(r) · Â·f, so the depth is the fixed point
//   r = (1 − d(r)) · Â·f / (d(r)² · k),
// with d(r) MuJoCo's solimp sigmoid and Â·f the load the row carries as an acceleration (Â recovered
// from MuJoCo's R at the row's own d). A body resting on one contact point has Â·f = g whatever its
// mass, so its depth follows from solref, solimp and gravity alone.
import { Codes, formatNumber } from '../engine';
import type { ImportedModel } from './index';
import type { MjModelHandle } from './mujoco';
import type { MjDataLike } from './mujocoSystem';
import { EFC } from './mujocoSystem';
import type { Issue } from './types';

type Num = ArrayLike<number>;

/** MuJoCo's bounds on the impedance (mjMINIMP, mjMAXIMP). */
const MIN_IMP = 0.0001, MAX_IMP = 0.9999;

/** MuJoCo's impedance d(r) of a violation r ≥ 0 from solimp (dmin, dmax, width, midpoint, power). */
export function impedance(solimp: Num, r: number): number {
  const dmin = Math.min(MAX_IMP, Math.max(MIN_IMP, solimp[0])), dmax = Math.min(MAX_IMP, Math.max(MIN_IMP, solimp[1]));
  const width = solimp[2], mid = Math.min(1, Math.max(0, solimp[3])), power = Math.max(1, solimp[4]);
  if (dmin === dmax || !(width > 0)) return dmax;
  const x = Math.abs(r) / width;
  if (x >= 1) return dmax;
  let y: number;
  if (power === 1) y = x;
  else if (x <= mid) y = x ** power / mid ** (power - 1);
  else y = 1 - (1 - x) ** power / (1 - mid) ** (power - 1);
  return dmin + y * (dmax - dmin);
}

/** MuJoCo's stiffness k of a row (without the impedance factor) from solref, with the 2·timestep floor. */
export function solrefStiffness(solref: Num, solimp: Num, timestep: number, refsafe = true): number {
  const dmax = Math.min(MAX_IMP, Math.max(MIN_IMP, solimp[1]));
  if (solref[0] <= 0) return -solref[0] / (dmax * dmax);
  const tau = refsafe ? Math.max(solref[0], 2 * timestep) : solref[0];
  const zeta = solref[1];
  return 1 / (dmax * dmax * tau * tau * zeta * zeta);
}

/**
 * The rest depth of a row carrying the load `load` (Â·f, m/s²): the fixed point of
 * r = (1 − d(r))·load / (d(r)²·k), found by bisection (the right side falls as r grows, the left rises).
 */
export function restDepth(load: number, solref: Num, solimp: Num, timestep: number, refsafe = true): number {
  if (!(load > 0)) return 0;
  const k = solrefStiffness(solref, solimp, timestep, refsafe);
  const g = (r: number) => r - ((1 - impedance(solimp, r)) * load) / (impedance(solimp, r) ** 2 * k);
  let lo = 0, hi = ((1 - MIN_IMP) * load) / (MIN_IMP ** 2 * k);
  for (let i = 0; i < 200 && hi - lo > 1e-15 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (g(mid) < 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

interface ContactLike {
  geom1: number;
  geom2: number;
  dist: number;
  dim: number;
  efc_address: number;
  includemargin: number;
  solref: Num;
  solimp: Num;
  delete?(): void;
}

/** Per geom pair at the run's last step: the deepest contact's measured and predicted depth and its load. */
interface PairDepth {
  geom1: number;
  geom2: number;
  contacts: number;
  measured: number;
  predicted: number;
  /** The pair's normal force (N): the sum over its contacts. */
  force: number;
  solref: number[];
  solimp: number[];
}

/** The pairs in contact at MuJoCo's current state (after the run's last step), with both depths. */
export function contactDepths(m: MjModelHandle, d: MjDataLike, timestep: number): PairDepth[] {
  const refsafe = !(Number((m.opt as { disableflags: number }).disableflags) & 4096);
  const vec = d.contact as { size(): number; get(i: number): ContactLike | undefined };
  const R = d.efc_R as Num, force = d.efc_force as Num, type = d.efc_type as Num;
  const pairs = new Map<string, PairDepth>();
  const n = Number(d.ncon);
  for (let i = 0; i < n; i++) {
    const c = vec.get(i);
    if (!c) continue;
    try {
      const adr = c.efc_address;
      if (adr < 0) continue; // excluded or beyond the margin: no rows
      const t = type[adr];
      // the rows that carry the normal force: a pyramid's 2(dim − 1) edges (each is normal + friction), else the first row
      const rows = t === EFC.pyramidal ? Math.max(1, 2 * (c.dim - 1)) : 1;
      const solimp = Array.from(c.solimp), solref = Array.from(c.solref);
      const measured = Math.max(0, c.includemargin - c.dist);
      const d0 = impedance(solimp, measured);
      let load = 0, normal = 0;
      for (let r = adr; r < adr + rows; r++) {
        // Â of the row from MuJoCo's own R at the row's d (R = (1 − d)/d · Â); each edge carries its share
        load = Math.max(load, ((R[r] * d0) / (1 - d0)) * force[r]);
        normal += force[r];
      }
      const predicted = restDepth(load, solref, solimp, timestep, refsafe);
      const key = `${c.geom1}/${c.geom2}`;
      const p = pairs.get(key);
      if (!p) pairs.set(key, { geom1: c.geom1, geom2: c.geom2, contacts: 1, measured, predicted, force: normal, solref, solimp });
      else {
        p.contacts++;
        p.force += normal;
        if (measured > p.measured) {
          p.measured = measured;
          p.predicted = predicted;
        }
      }
    } finally {
      c.delete?.();
    }
  }
  return [...pairs.values()];
}

/** One note per geom pair in contact at the end of the run: the depth solref/solimp give its load, and MuJoCo's. */
export function restPenetrationIssues(model: ImportedModel, m: MjModelHandle, d: MjDataLike, timestep: number, step: number): Issue[] {
  const cm = model.compiled;
  const gravity = Math.hypot(...Array.from((m.opt as { gravity: Num }).gravity ?? [0, 0, 0]));
  return contactDepths(m, d, timestep).map((p) => {
    const name = (g: number) => cm.geoms[g]?.name || `geom${g}`;
    // the note sits on the moving geom (MuJoCo puts the lower id first: usually the floor)
    const mine = cm.geoms[p.geom2]?.body !== 0 ? p.geom2 : p.geom1;
    const other = mine === p.geom2 ? p.geom1 : p.geom2;
    const el = model.map.geom[mine];
    const [tau, zeta] = p.solref;
    const alone = gravity > 0 ? restDepth(gravity, p.solref, p.solimp, timestep) : 0;
    const off = p.predicted > 0 ? Math.abs(p.measured - p.predicted) / p.predicted : p.measured > 0 ? Infinity : 0;
    const verdict = off <= 0.1 ? 'at rest, as predicted' : 'not at rest yet (still moving or settling), or outside the quadratic zone MuJoCo’s formula holds in';
    return {
      severity: 'information' as const,
      code: Codes.restPenetration,
      message:
        `${name(mine)} on ${name(other)} (${p.contacts} contact${p.contacts === 1 ? '' : 's'}, ${formatNumber(p.force)} N in all): solref (${formatNumber(tau)}, ${formatNumber(zeta)}) and solimp (${p.solimp.map((x) => formatNumber(x)).join(' ')}) give a rest penetration of ${formatNumber(p.predicted)} m for the load it carries; MuJoCo measured ${formatNumber(p.measured)} m at step ${step} (${verdict}).` +
        (alone > 0 ? ` A body resting on one contact point (a sphere on a plane) sinks ${formatNumber(alone)} m whatever its mass; contacts that share a load sink less.` : '') +
        ` The depth grows with τ² (solref[0]) and with 1 − d (solimp): halve τ to quarter it, within τ ≥ 2·timestep.`,
      element: el,
      data: { geom1: name(p.geom1), geom2: name(p.geom2), predicted: p.predicted, measured: p.measured, step, solref: p.solref, solimp: p.solimp },
    };
  });
}
