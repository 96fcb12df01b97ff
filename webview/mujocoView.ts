// What the MuJoCo card (cards/mujoco.ts) shows, computed from the panel state without the DOM:
// the card's status line, the per-equality tables and the violation sparklines. Pure: unit-tested
// in Node (test/unit/webview-mujoco.test.ts).
import type { MaybeNumber, MujocoComparison, MujocoEquality, MujocoSection } from '../src/protocol';
import { formatNumber } from '../src/shared';
import type { PanelState } from './store';

/** A number of the section ('–' where MuJoCo or we have none, or it is not finite). */
export const num = (x: MaybeNumber | undefined, digits = 6): string => (x === null || x === undefined || !Number.isFinite(x) ? '–' : formatNumber(x, digits));

/** The card's slice of the state: the section (undefined for scene files) and whether it is a report. */
export const mujocoSlice = (s: PanelState): { section: MujocoSection | undefined; report: boolean } => ({ section: s.model?.mujoco, report: s.report });

/** The card is shown for models, and in a report only when a comparison is embedded. */
export function cardVisible(section: MujocoSection | undefined, report: boolean): boolean {
  return section !== undefined && (!report || (section.status === 'done' && section.comparison !== undefined));
}

/** `Start: qpos0` or `Start: key "tilted"`, with the model's keys. */
export function startText(section: MujocoSection): string {
  const from = section.keyframe !== undefined ? `key "${section.keyframe}"` : 'qpos0';
  const keys = section.keyframes.length ? ` (keys: ${section.keyframes.join(', ')})` : ' (the model has no named keys)';
  return `Initial state: ${from}${keys}.`;
}

/** The status line under the buttons. */
export function statusText(section: MujocoSection, steps: number, dt: number): string {
  switch (section.status) {
    case 'idle':
      return `Compare with MuJoCo runs MuJoCo (its own WebAssembly build) and this engine on the same model for ${steps} steps of ${num(dt, 4)} s, and shows per equality constraint MuJoCo's constraint force (efc_force) next to our λ, both violations over the run, and MuJoCo's regulariser R next to A's diagonal; per joint q and q̇, and per body the centre of mass, over the run.`;
    case 'running':
      return `Running MuJoCo and the engine for ${steps} steps…`;
    case 'failed':
      return `The comparison failed: ${section.error ?? 'unknown error'}.`;
    case 'done':
      return section.comparison ? summaryText(section.comparison) : '';
  }
}

/** One paragraph: the run, MuJoCo's solver iterations and warnings, and what we solve instead. */
export function summaryText(c: MujocoComparison): string {
  const it = c.solver;
  const warnings = it.warnings.length ? it.warnings.map((w) => `${w.name} ×${w.count}`).join(', ') : 'none';
  const from = c.keyframe !== undefined ? ` from key "${c.keyframe}"` : ' from qpos0';
  return (
    `${c.steps} steps of ${num(c.dt, 4)} s (t = ${num(c.steps * c.dt, 4)} s)${from}. ` +
    `MuJoCo: ${c.equalities.length ? 'soft constraints (solref/solimp)' : 'no equality constraints'}, ${num(it.iterationsMin, 3)}–${num(it.iterationsMax, 3)} solver iterations per step (mean ${num(it.iterationsMean, 3)}), warnings: ${warnings}. ` +
    (c.equalities.length ? `Ours: the exact KKT solve.` : `Ours: the joints as exact constraints between bodies.`)
  );
}

/** MuJoCo rows that are not equalities (not simulated here), or undefined when there were none. */
export function otherRowsText(c: MujocoComparison): string | undefined {
  const what = { contacts: 'contact rows', limits: 'joint-limit rows', friction: 'friction-loss rows' } as const;
  const parts = (['contacts', 'limits', 'friction'] as const).filter((k) => c.otherRows[k].max > 0).map((k) => `${what[k]} in ${c.otherRows[k].states} of ${c.steps + 1} states (up to ${c.otherRows[k].max})`);
  return parts.length ? `MuJoCo also had ${parts.join(', ')}; they are not simulated here, so the runs differ by them too.` : undefined;
}

/** The table of one equality: one row per constraint row, the columns of COLUMNS. */
export const COLUMNS = ['Row', 'MuJoCo efc_force', 'our λ', 'MuJoCo R', 'MuJoCo A_ii', 'our A_ii'] as const;

export function tableRows(e: MujocoEquality): string[][] {
  const n = Math.max(e.mujocoForce.length, e.ourLambda.length, e.rows.length);
  const cell = (a: MaybeNumber[], r: number) => (r < a.length ? num(a[r]) : '–');
  return Array.from({ length: n }, (_, r) => [e.rows[r] ?? String(r), cell(e.mujocoForce, r), cell(e.ourLambda, r), cell(e.mujocoR, r), cell(e.mujocoDiagA, r), cell(e.ourDiagA, r)]);
}

/** `connect close → close` (or `(not converted)`), with MuJoCo's solref and solimp. */
export function equalityTitle(e: MujocoEquality): string {
  return `${e.type} ${e.name}${e.constraint ? ` → ${e.constraint}` : ' (not converted)'}`;
}

export function solverParamsText(e: MujocoEquality): string {
  return `solref (${e.solref.map((x) => num(x, 4)).join(', ')}), solimp (${e.solimp.map((x) => num(x, 4)).join(', ')})`;
}

export function violationText(e: MujocoEquality): string {
  const v = e.violation;
  return `Violation ‖C‖: MuJoCo max ${num(v.mujocoMax, 4)}, final ${num(v.mujocoFinal, 4)}; ours max ${num(v.oursMax, 4)}, final ${num(v.oursFinal, 4)}.`;
}

/** Points of the two violation series in a `width × height` box, y = log₁₀ ‖C‖ (zeros at the floor). */
export interface Sparkline {
  mujoco: string;
  ours: string;
  /** log₁₀ of the lowest and highest value drawn. */
  lo: number;
  hi: number;
}

/** Values at or below this are drawn at the floor (the exact solve reaches round-off). */
const FLOOR = 1e-16;

export function sparkline(e: MujocoEquality, width: number, height: number): Sparkline | undefined {
  const logs = (xs: MaybeNumber[]) => xs.map((x) => (x === null || !Number.isFinite(x) ? null : Math.log10(Math.max(FLOOR, Math.abs(x)))));
  const a = logs(e.violation.mujoco);
  const b = logs(e.violation.ours);
  const all = [...a, ...b].filter((x): x is number => x !== null);
  if (all.length < 2) return undefined;
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi - lo < 1) {
    lo -= 0.5;
    hi += 0.5;
  }
  const n = Math.max(a.length, b.length);
  const pts = (ys: (number | null)[]) =>
    ys
      .map((y, i) => (y === null ? undefined : `${((i / Math.max(1, n - 1)) * width).toFixed(1)},${(height - ((y - lo) / (hi - lo)) * height).toFixed(1)}`))
      .filter((p): p is string => p !== undefined)
      .join(' ');
  return { mujoco: pts(a), ours: pts(b), lo, hi };
}

/** Centres of mass after the run: the largest distance between MuJoCo's and ours. */
export function bodiesText(c: MujocoComparison): string | undefined {
  const far = c.bodies.filter((b): b is { name: string; distance: number } => b.distance !== null && Number.isFinite(b.distance)).sort((x, y) => y.distance - x.distance);
  if (!far.length) return undefined;
  return `Centres of mass after the run, MuJoCo vs ours: largest distance ${num(far[0].distance, 4)} m (${far[0].name})${far.length > 1 ? `, median ${num(far[Math.floor(far.length / 2)].distance, 4)} m` : ''}.`;
}

export function timingText(c: MujocoComparison): string {
  return `Time: MuJoCo ${num(c.timing.mujocoMs, 3)} ms, ours ${num(c.timing.oursMs, 3)} ms (MuJoCo's WebAssembly loaded in ${num(c.timing.wasmLoadMs, 3)} ms).`;
}

/** Why the two differ (docs/import.md, "Compare"). */
export const WHY_THEY_DIFFER =
  "Why they differ: MuJoCo's equality constraints are soft. Each row has a regulariser R > 0 (from solimp, with solref's time constant and damping pulling C back to 0), so MuJoCo solves (A + R)·f = … and lets the constraint give a little; our λ is the exact solve of A·λ = b (R = 0), with Baumgarte terms from solref. With R ≪ A_ii the forces agree; the violations differ by MuJoCo's softness. MuJoCo's A is in joint coordinates, ours in maximal coordinates, so their diagonals differ by the parametrisation.";

/** Why the two differ for a model without equality constraints (most robots): coordinates and integrators, not softness. */
export const WHY_THEY_DIFFER_JOINTS =
  "Why they differ: this model has no equality constraints, so MuJoCo's soft constraints play no part here. MuJoCo integrates the model in joint coordinates (its joints are its coordinates, so they never drift); this engine integrates every body in maximal coordinates and holds the joints with constraint forces (stabilised by Baumgarte terms), so the trajectories differ by the two integrators and by the joints' small drift, and by any contact, limit or friction-loss rows MuJoCo had.";

/** The explanation that fits the model: soft equalities when it has any, else coordinates and integrators. */
export function whyTheyDiffer(c: MujocoComparison): string {
  return c.equalities.length ? WHY_THEY_DIFFER : WHY_THEY_DIFFER_JOINTS;
}
