// Non-finite and overflowing values, caught at the first step and the first quantity. Every quantity
// that is recorded, printed or sent to the panel is checked, in the order a step computes it:
//   state (v, ω, p, q) → F, M⁻¹ → C, Ċ, J̇v, J, A → rhs, b, B → λ → a, Jᵀλ, the constraint forces →
//   residual, κ → the new state → ‖C‖ per constraint, energy.
// A value is bad when it is NaN or ±∞ (CL401) or when |x| > HUGE (CL403): such a value is finite but
// meaningless, since its square (an energy, a norm) already overflows.
import type { Assembly, World } from '../assembly/assemble';
import { Codes } from '../core/codes';
import type { SolveOutput } from '../kkt/kkt';
import { HUGE, mat3MulVec, quatRotateInv } from '../core/math';
import type { BodyState } from '../model/body';
import { segmentOf } from '../core/offsets';
import type { SourceMap } from '../scene/spec';
import type { Diagnostic, Range } from '../types';
import type { Energy } from '../result';
import { bodyRange, constraintRange, formatNumber as fmt } from '../analysis/findings';
import { shapeRange } from '../analysis/contactFindings';

export { HUGE };

/** Who a bad value belongs to: a body or a constraint (index in the world's lists). */
export interface Owner {
  kind: 'body' | 'constraint';
  index: number;
  name: string;
  /** Index in the file's `bodies` or `constraints` array (for the source range). */
  fileIndex: number;
}

export interface Finding {
  /** The quantity's symbol, as in the panel and the CLI: `v`, `ω`, `p`, `q`, `F`, `M⁻¹`, `C`, `Ċ`, `J̇v`, `J`, `A`, `rhs`, `b`, `B`, `λ`, `a`, `Jᵀλ`, `force`, `residual`, `κ`, `|C|`, `energy`. */
  symbol: string;
  /** In words, for the message. */
  quantity: string;
  owner?: Owner;
  /** The bad value (NaN, ±∞ or beyond ±HUGE). */
  value: number;
  /** A scene setting it comes from (its range, or its nearest existing parent's, is used when there is no owner). */
  path?: (string | number)[];
  /** A contact's quantity: the shape of its moving end (`body` −1: a world shape), whose range is used. */
  shape?: { body: number; index: number };
  reason: 'non-finite' | 'overflow';
}

/** True when x is NaN, ±∞ or beyond ±HUGE. */
export const isBad = (x: number): boolean => !(Math.abs(x) <= HUGE);

/** Index of the first bad entry in [from, to), or −1. */
export function firstBad(x: ArrayLike<number>, from = 0, to = x.length): number {
  for (let i = from; i < to; i++) if (!(Math.abs(x[i]) <= HUGE)) return i;
  return -1;
}

/**
 * Σ|x| (NaN when an entry is NaN, ∞ when one is ±∞). Four partial sums (one sum is a chain of
 * dependent additions; four run side by side): the same bound up to rounding, which the tests against
 * HUGE leave room for (a false alarm only runs the exact search, which finds nothing).
 */
function sumAbs(x: ArrayLike<number>): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  const n = x.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += Math.abs(x[i]);
    s1 += Math.abs(x[i + 1]);
    s2 += Math.abs(x[i + 2]);
    s3 += Math.abs(x[i + 3]);
  }
  for (; i < n; i++) s0 += Math.abs(x[i]);
  return s0 + s1 + (s2 + s3);
}

const WORDS: Record<string, string> = {
  v: 'the velocity',
  ω: 'the angular velocity',
  p: 'the position',
  q: 'the orientation',
  F: 'the applied force/torque F (with gravity and the gyroscopic term)',
  'M⁻¹': 'the inverse mass matrix M⁻¹',
  C: 'the constraint error C',
  Ċ: 'the constraint velocity Ċ = J·v',
  'J̇v': 'the term J̇·v',
  J: 'the Jacobian J',
  A: 'A = J·M⁻¹·Jᵀ',
  rhs: 'the stabilised right-hand side rhs',
  b: 'b = rhs − J·M⁻¹·F',
  B: 'the free velocity B',
  λ: 'the multiplier λ',
  a: 'the acceleration a',
  a0: 'the free acceleration a0 = M⁻¹·F',
  'Jᵀλ': 'the generalised constraint force Jᵀλ',
  force: 'the force or torque the constraint applies',
  residual: 'the residual ‖J·a − rhs‖',
  κ: 'the condition number κ(A)',
  '|C|': 'the violation ‖C‖',
  '|q|−1': 'the drift |q| − 1 of the orientation before normalisation',
  t: 'the time t = step·dt',
  W: 'the Delassus matrix W = h·J·M⁻¹·Jᵀ',
  Σ: 'the compliance Σ (solver.compliance)',
  σ: 'a singular value of A',
  energy: 'the energy',
};

/** A finding of `symbol` (described by WORDS, or by `quantity` when given). */
export function makeFinding(symbol: string, value: number, owner?: Owner, quantity?: string): Finding {
  return { symbol, quantity: quantity ?? WORDS[symbol] ?? symbol, owner, value, reason: Number.isFinite(value) ? 'overflow' : 'non-finite' };
}
const finding = (symbol: string, value: number, owner?: Owner): Finding => makeFinding(symbol, value, owner);

export const bodyOwner = (w: World, i: number): Owner => ({ kind: 'body', index: i, name: w.bodies[i].spec.name, fileIndex: w.bodies[i].spec.index });
const constraintOwner = (w: World, c: number): Owner => ({ kind: 'constraint', index: c, name: w.constraints[c].spec.name, fileIndex: w.constraints[c].spec.index });
/** The body owning column `col` (6 columns per column-owning body). */
export const colOwner = (w: World, col: number): Owner => bodyOwner(w, w.colBodies[Math.floor(col / 6)]);
/** The constraint owning row `row`. */
export const rowOwner = (w: World, row: number): Owner => constraintOwner(w, segmentOf(w.rowStart, row));

const STATE_PARTS = [['v', 'v'], ['ω', 'w'], ['p', 'p'], ['q', 'q']] as const;

/** The body states: v, ω, p, q in that order (the order semi-implicit Euler computes them). */
export function checkStates(w: World, states: readonly BodyState[]): Finding | undefined {
  // one pass over all components first (the common case: nothing is bad), then find the first
  let ok = true;
  for (let i = 0; i < states.length && ok; i++) {
    const s = states[i];
    for (let d = 0; d < 3; d++) if (!(Math.abs(s.v[d]) <= HUGE && Math.abs(s.w[d]) <= HUGE && Math.abs(s.p[d]) <= HUGE && Math.abs(s.q[d]) <= HUGE)) ok = false;
    if (!(Math.abs(s.q[3]) <= HUGE)) ok = false;
  }
  if (ok) return undefined;
  for (const [symbol, key] of STATE_PARTS) {
    for (let i = 0; i < states.length; i++) {
      const x = states[i][key];
      for (let d = 0; d < x.length; d++) if (isBad(x[d])) return finding(symbol, x[d], bodyOwner(w, i));
    }
  }
  return undefined;
}

/** What the assembly produced: F, M⁻¹, C, Ċ, J̇v, J, A. */
export function checkAssembly(w: World, asm: Assembly): Finding | undefined {
  return checkAssemblySummed(w, asm).bad;
}

/**
 * Σ|x| over an assembly's arrays, summed by `assemble` while it wrote them (assemble.ts AssemblyBuffers
 * absJ, absM, absRest): J's values, M⁻¹ (compact), and F, C, Ċ, J̇v together. Only of exactly the
 * Assembly checked, unmodified since (`checkSystem`'s `sums`).
 */
export interface AssemblySums {
  absJ: number;
  absM: number;
  absRest: number;
}

/** checkAssembly, and Σ|J| (NaN when the search ran), which bounds the constraint forces in checkSolve. */
function checkAssemblySummed(w: World, asm: Assembly, sums?: AssemblySums): { bad?: Finding; sJ: number } {
  // one branch-free pass first (the common case: nothing is bad): Σ|x| ≤ HUGE means no entry is
  // NaN, ±∞ or beyond ±HUGE; otherwise (or on a false alarm near HUGE) the search in order below
  // A = J·M⁻¹·Jᵀ need not be read: each of its entries, and each intermediate J·M⁻¹, is a
  // sum of products J_ik·M⁻¹_kl·J_jl, so |A_ij| ≤ (Σ|J|)²·Σ|M⁻¹| (the rounding of those few sums
  // is far inside the factor 2 kept below); finite sums mean finite entries, and no NaN can arise
  // (the sums as the assembly into stepping buffers formed them, when given: the same bound up to rounding)
  const sJ = sums ? sums.absJ : sumAbs(asm.J.values);
  const sM = sums ? sums.absM : sumAbs(asm.minvCompact);
  const rest = sums ? sums.absRest : sumAbs(asm.F) + sumAbs(asm.C) + sumAbs(asm.Cdot) + sumAbs(asm.Jdotv);
  if (rest + sJ + sM <= HUGE && sJ * sJ * sM <= HUGE / 2) return { sJ };
  if (rest + sJ + sM + sumAbs(asm.A.values) <= HUGE) return { sJ };
  return { bad: searchAssembly(w, asm), sJ: NaN };
}

function searchAssembly(w: World, asm: Assembly): Finding | undefined {
  let k = firstBad(asm.F);
  if (k >= 0) return finding('F', asm.F[k], colOwner(w, k));
  k = firstBad(asm.minvCompact);
  if (k >= 0) return finding('M⁻¹', asm.minvCompact[k], colOwner(w, Math.floor(k / 10) * 6));
  for (const [symbol, x] of [['C', asm.C], ['Ċ', asm.Cdot], ['J̇v', asm.Jdotv]] as const) {
    k = firstBad(x);
    if (k >= 0) return finding(symbol, x[k], rowOwner(w, k));
  }
  for (const [symbol, m] of [['J', asm.J], ['A', asm.A]] as const) {
    k = firstBad(m.values);
    if (k >= 0) return finding(symbol, m.values[k], rowOwner(w, segmentOf(m.rowPtr, k)));
  }
  return undefined;
}

/** What the solve produced: rhs, b, B, λ, a, Jᵀλ, each constraint's force and torque, the residual and κ. */
export function checkSolve(w: World, out: SolveOutput, analysed = true, bound = NaN, jAbs = NaN): Finding | undefined {
  // `bound` ≥ Σ|x| over rhs, b, B, λ, a0, a and Jᵀλ (kkt.ts SolveScratch.finiteBound): when it is
  // ≤ HUGE (NaN fails the test) none of those entries is bad and their searches are skipped
  const searched = !(bound <= HUGE);
  // (the searches behind `if (searched)`: no arrays of candidates built on the common path)
  if (searched) {
    for (const [symbol, x] of [['rhs', out.rhs], ['b', out.b], ['B', out.B], ['λ', out.lambda]] as const) {
      if (!x) continue;
      const k = firstBad(x);
      if (k >= 0) return finding(symbol, x[k], rowOwner(w, k));
    }
  }
  // the compliance is added to the matrix solved (A + Σ, W + Σ)
  const sigma = w.scene.solver.compliance;
  if (w.nRows > 0 && isBad(sigma)) return { ...finding('Σ', sigma), path: ['solver', 'compliance'] };
  if (out.W) {
    const k = firstBad(out.W.values);
    if (k >= 0) return finding('W', out.W.values[k], rowOwner(w, segmentOf(out.W.rowPtr, k)));
  }
  if (searched) {
    for (const [symbol, x] of [['a0', out.a0], ['a', out.a], ['Jᵀλ', out.constraintForce]] as const) {
      const k = firstBad(x);
      if (k >= 0) return finding(symbol, x[k], colOwner(w, k));
    }
  }
  // each force component is Σ_r J_X[r,j]·λ_r, so |it| ≤ max|λ|·Σ|J_X| ≤ bound·(Σ|J| + the blocks J
  // does not hold): within HUGE/2 (rounding), none can be bad and the per-constraint sums are skipped
  const force = !searched && bound * (jAbs + outsideBlocksAbs(w)) <= HUGE / 2 ? undefined : checkConstraintForces(w, out.lambda);
  if (force) return force;
  if (isBad(out.residual)) return finding('residual', out.residual);
  if (out.singularValues) {
    const k = firstBad(out.singularValues);
    if (k >= 0) return finding('σ', out.singularValues[k]);
  }
  // A solve that overflowed inside its factorisation reports it (λ = 0 would hide it).
  let allOk = true;
  for (const i of out.islands) {
    if (!i.result || i.result.ok) continue;
    allOk = false;
    if (i.result.reason === 'non-finite') return finding('λ', NaN, constraintOwner(w, i.island.constraints[0]));
  }
  // κ = ∞ is a legitimate answer (singular A); NaN with rows present is not, unless a solve failed (its κ is unknown).
  if (analysed && w.nRows > 0 && Number.isNaN(out.cond) && allOk) return finding('κ', out.cond);
  return undefined;
}

/** Σ|J_X| over the rows' blocks on ends that own no columns (the world, fixed bodies): J does not hold them. */
function outsideBlocksAbs(w: World): number {
  let s = 0;
  for (let c = 0; c < w.constraints.length; c++) {
    const { JA, JB } = w.evals[c];
    const r0 = w.rowStart[c];
    for (let r = 0; r < w.rowStart[c + 1] - r0; r++) {
      if (w.jOffA[r0 + r] < 0) for (let j = 0; j < 6; j++) s += Math.abs(JA[r * 6 + j]);
      if (w.jOffB[r0 + r] < 0) for (let j = 0; j < 6; j++) s += Math.abs(JB[r * 6 + j]);
    }
  }
  return s;
}

/**
 * J_Xᵀλ of each constraint on each of its ends, the world and fixed bodies included (what the panel
 * and the CLI print per constraint). Reads the constraints' own Jacobian blocks, which hold the state
 * just assembled.
 */
function checkConstraintForces(w: World, lambda: Float64Array): Finding | undefined {
  for (let c = 0; c < w.constraints.length; c++) {
    const { JA, JB } = w.evals[c];
    const r0 = w.rowStart[c];
    const rows = w.rowStart[c + 1] - r0;
    // Σ over the 12 components of |force| ≤ HUGE: none is bad (the common case, one test per constraint)
    let sum = 0;
    for (let j = 0; j < 6; j++) {
      let sa = 0;
      let sb = 0;
      for (let r = 0; r < rows; r++) {
        sa += JA[r * 6 + j] * lambda[r0 + r];
        sb += JB[r * 6 + j] * lambda[r0 + r];
      }
      sum += Math.abs(sa) + Math.abs(sb);
    }
    if (sum <= HUGE) continue;
    for (let j = 0; j < 6; j++) {
      let sa = 0;
      let sb = 0;
      for (let r = 0; r < rows; r++) {
        sa += JA[r * 6 + j] * lambda[r0 + r];
        sb += JB[r * 6 + j] * lambda[r0 + r];
      }
      if (!(Math.abs(sa) <= HUGE)) return finding('force', sa, constraintOwner(w, c));
      if (!(Math.abs(sb) <= HUGE)) return finding('force', sb, constraintOwner(w, c));
    }
  }
  return undefined;
}

/** ‖C‖ per constraint (the history's violation). */
export function checkViolations(w: World, C: ArrayLike<number>): Finding | undefined {
  const k = firstBad(C);
  return k >= 0 ? finding('|C|', C[k], constraintOwner(w, k)) : undefined;
}

/** The energy (kinetic, potential, total): the body whose kinetic or potential term is bad, else the sum. */
export function checkEnergy(w: World, states: readonly BodyState[], energy: { kinetic: number; potential: number; total: number }): Finding | undefined {
  if (!isBad(energy.kinetic) && !isBad(energy.potential) && !isBad(energy.total)) return undefined;
  const total = isBad(energy.kinetic) ? energy.kinetic : isBad(energy.potential) ? energy.potential : energy.total;
  const g = w.scene.gravity;
  let largest = { value: -1, body: -1 };
  for (let i = 0; i < w.bodies.length; i++) {
    const b = w.bodies[i];
    if (b.column < 0) continue;
    const s = states[i];
    const m = b.spec.mass;
    const wb = quatRotateInv(s.q, s.w);
    const Iw = mat3MulVec(b.inertia, wb);
    const terms = [
      0.5 * m * (s.v[0] ** 2 + s.v[1] ** 2 + s.v[2] ** 2),
      0.5 * (wb[0] * Iw[0] + wb[1] * Iw[1] + wb[2] * Iw[2]),
      b.spec.gravity ? -m * (g[0] * s.p[0] + g[1] * s.p[1] + g[2] * s.p[2]) : 0,
    ];
    for (const t of terms) if (isBad(t)) return finding('energy', t, bodyOwner(w, i));
    const m2 = Math.max(...terms.map(Math.abs));
    if (m2 > largest.value) largest = { value: m2, body: i };
  }
  // no single body's term is bad, only their sum: name the body with the largest term
  return finding('energy', total, largest.body >= 0 ? bodyOwner(w, largest.body) : undefined);
}

/**
 * What a step's record holds beyond the state: |q| − 1 before normalisation per body, ‖C‖ per
 * constraint, the energy and the time t = step·dt.
 */
export function checkRecord(w: World, states: readonly BodyState[], rec: { quatDrift: ArrayLike<number>; C: ArrayLike<number>; energy: Energy; t: number }): Finding | undefined {
  const k = firstBad(rec.quatDrift);
  if (k >= 0) return finding('|q|−1', rec.quatDrift[k], bodyOwner(w, k));
  const bad = checkViolations(w, rec.C) ?? checkEnergy(w, states, rec.energy);
  if (bad) return bad;
  if (isBad(rec.t)) return { ...finding('t', rec.t), path: ['solver', 'dt'] };
  return undefined;
}

/**
 * The whole of one step (or step 0): the states the step starts from (step 0 only), the assembly and
 * the solve (`analysed`: κ was asked for, so NaN there is a failure, not "not computed"; `bound`:
 * SolveScratch.finiteBound of this very output, unmodified since solveSystem returned it).
 */
export function checkSystem(w: World, asm: Assembly, out: SolveOutput, opts: { initial?: readonly BodyState[]; analysed?: boolean; bound?: number; sums?: AssemblySums } = {}): Finding | undefined {
  const initial = opts.initial && checkStates(w, opts.initial);
  if (initial) return initial;
  const { bad, sJ } = checkAssemblySummed(w, asm, opts.sums);
  return bad ?? checkSolve(w, out, opts.analysed ?? true, opts.bound, sJ);
}

/**
 * Step 0, as inspect and the first step of a run check it: the initial states, the system assembled
 * and solved there, ‖C‖ per constraint and the energy.
 */
export function checkInitial(w: World, states: readonly BodyState[], asm: Assembly, out: SolveOutput, violations: ArrayLike<number>, energy: Energy, analysed = true): Finding | undefined {
  return checkSystem(w, asm, out, { initial: states, analysed }) ?? checkViolations(w, violations) ?? checkEnergy(w, states, energy);
}

/** True for a CL401/CL403 diagnostic of the initial state (data.step = 0). */
export const isInitialFinding = (d: Diagnostic): boolean => (d.code === Codes.nonFinite || d.code === Codes.overflow) && d.data?.step === 0;

/** The scene field a step-0 finding comes from, when it is the user's input value itself. */
const INPUT_FIELD: Record<string, string> = { v: 'velocity', ω: 'angularVelocity', p: 'position', q: 'orientation' };

/** What to change when step 0 is already bad, by quantity. */
const INITIAL_ADVICE: Record<string, string> = {
  v: 'Give `velocity` a value of physical size.',
  ω: 'Give `angularVelocity` a value of physical size.',
  p: 'Give `position` a value of physical size.',
  q: 'Give `orientation` a unit quaternion such as [0, 0, 0, 1].',
  F: 'An applied force or torque, mass × gravity, or the gyroscopic term ω × I·ω is too large: reduce the body\'s `force`, `torque`, `mass`, `inertia` or `angularVelocity`.',
  'M⁻¹': 'A mass or inertia is so small that its inverse overflows: give the body a `mass` and `inertia` of physical size.',
  rhs: 'The stabilisation term (solver.alpha·C, solver.beta·Ċ, or erp·C/dt) is too large: bring the gains into their stable range (CL307) or start closer to C = 0.',
  b: 'The stabilisation term or the applied forces are too large: check solver.alpha, solver.beta and the bodies\' loads.',
  energy: 'A velocity, angular velocity, mass or inertia of the body is so large that its energy overflows.',
  'shape.radius': 'Give the shape a `radius` of physical size.',
  'shape.halfLength': 'Give the shape a `halfLength` of physical size.',
  'shape.halfExtents': 'Give the shape `halfExtents` of physical size.',
  'shape.position': 'Give the shape a `position` of physical size.',
  'shape.offset': 'Give the plane an `offset` of physical size.',
  x_c: 'A shape\'s size, position or orientation is of extreme magnitude: give the shapes and bodies values of physical size.',
  other: 'The positions, anchors, velocities, masses or gains involved are of extreme magnitude: give them values of physical size.',
};

/** Advice for the contact solve's quantities (nonFiniteContacts.ts) at step 0. */
const CONTACT_ADVICE =
  'The contact solve from the initial state overflows: check solver.dt, solver.regularization, solver.fb, the friction and restitution of the shapes, and the bodies\' masses, inertias and velocities.';
const CONTACT_SYMBOLS = new Set(['n', 't', 'gap', 'f_n', 'f_t', 'u⁺', 'gap⁺', 'complementarity', 'penetration', '‖h‖', 'h', 'α', '∂h/∂x', 'κ₁', 'r']);

function rangeOf(f: Finding, sm: SourceMap, step: number): Range {
  const o = f.owner;
  if (f.shape && f.path && sm.nodeSpan(f.path)) return sm.rangeOf(f.path);
  if (f.shape) return shapeRange(sm, f.shape.body, f.shape.index);
  // a setting, else its nearest parent that the file has
  for (let n = f.path?.length ?? 0; !o && f.path && n > 0; n--) if (sm.nodeSpan(f.path.slice(0, n))) return sm.rangeOf(f.path.slice(0, n));
  if (!o) return sm.keyRangeOf(['constraints']);
  if (o.kind === 'constraint') return constraintRange(sm, o.fileIndex);
  const field = INPUT_FIELD[f.symbol];
  if (step === 0 && field && sm.nodeSpan(['bodies', o.fileIndex, field])) return sm.rangeOf(['bodies', o.fileIndex, field]);
  return bodyRange(sm, o.fileIndex);
}

/** `the velocity of body \`b\`` */
export function describeFinding(f: Finding): string {
  return f.owner ? `${f.quantity} of ${f.owner.kind} \`${f.owner.name}\`` : f.quantity;
}

/**
 * The CL401 (NaN or ∞) or CL403 (beyond ±1e150) diagnostic of a finding at `step` (0 = the initial
 * state, found by inspect), on the owner's range; `data` has step, quantity (the symbol), owner, value, reason.
 */
export function findingDiagnostic(f: Finding, step: number, dt: number, sm: SourceMap): Diagnostic {
  const what = describeFinding(f);
  const abs = f.symbol.startsWith('|') ? f.symbol : `|${f.symbol}|`;
  const value = f.reason === 'overflow' ? `${abs} = ${fmt(Math.abs(f.value))} > ${fmt(HUGE)}` : `${f.symbol} = ${fmt(f.value)}`;
  const when = step === 0 ? 'in the initial state (step 0)' : `at step ${step} (t = ${fmt(step * dt)} s)`;
  const head =
    f.reason === 'overflow'
      ? `A value beyond ±${fmt(HUGE)} appeared ${when}: first in ${what} (${value}). It is finite but meaningless: its square (an energy or a norm) overflows.`
      : `A non-finite value (NaN or ∞) appeared ${when}: first in ${what} (${value}).`;
  const todo =
    step === 0
      ? ` ${INITIAL_ADVICE[f.symbol] ?? (CONTACT_SYMBOLS.has(f.symbol) ? CONTACT_ADVICE : INITIAL_ADVICE.other)} Nothing can be simulated from this state.`
      : ` The run stopped there; ${step === 1 ? 'no step is kept' : step === 2 ? 'step 1 is kept' : `steps 1–${step - 1} are kept`}. The run diverged before this step: the divergence analysis (${Codes.divergence}) says where it began and why; usually reduce \`solver.dt\` or bring the stabilisation gains into their stable range.`;
  return {
    severity: 'error',
    code: f.reason === 'overflow' ? Codes.overflow : Codes.nonFinite,
    message: head + todo,
    range: rangeOf(f, sm, step),
    data: {
      step,
      quantity: f.symbol,
      ...(f.owner ? { owner: { kind: f.owner.kind, name: f.owner.name, index: f.owner.fileIndex } } : {}),
      value: Number.isFinite(f.value) ? f.value : String(f.value),
      reason: f.reason,
    },
  };
}
