// Diagnostics from the analysis of the assembled system (redundancy, conflicts, conditioning,
// initial violation, over-constraint) and of a run (non-finite values, drift), each on the
// range of the offending constraint in the scene file, with quick fixes where obvious.
import { type EditResult, modify } from 'jsonc-parser';
import { Codes } from '../core/codes';
import type { SystemSnapshot } from '../result';
import type { SourceMap } from '../scene/spec';
import type { Diagnostic, Fix, Range, TextEdit } from '../types';
import { norm, sub } from '../core/math';
import { ZERO_LENGTH } from '../scene/fields';
import { formatNumber, roundSignificant } from '../core/format';
import { condBand, formatCond } from '../core/kappa';
import { removeArrayElementEdits } from '../core/textEdits';
import { conditionDrivers, type ConditionDrivers } from '../linalg/conditionDrivers';

// Numbers in messages are spelled by the one shared formatter (also re-exported for simulation.ts).
const fmt = formatNumber;
export { formatNumber };

/** The range that identifies constraint `fileIndex` in the file: its name value, else its type value, else the object. */
export function constraintRange(sm: SourceMap, fileIndex: number): Range {
  for (const key of ['name', 'type']) if (sm.nodeSpan(['constraints', fileIndex, key])) return sm.rangeOf(['constraints', fileIndex, key]);
  return sm.rangeOf(['constraints', fileIndex]);
}

export function bodyRange(sm: SourceMap, fileIndex: number): Range {
  if (sm.nodeSpan(['bodies', fileIndex, 'name'])) return sm.rangeOf(['bodies', fileIndex, 'name']);
  return sm.rangeOf(['bodies', fileIndex]);
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

function toEdits(sm: SourceMap, edits: EditResult): TextEdit[] {
  return edits.map((e) => ({ range: { start: sm.positionAt(e.offset), end: sm.positionAt(e.offset + e.length) }, newText: e.content }));
}

/** A fix that removes constraint `fileIndex` from the file (undoable edit): its text and one comma, nothing of its neighbours. */
function removeConstraintFix(text: string, sm: SourceMap, fileIndex: number, name: string): Fix | undefined {
  const element = sm.nodeSpan(['constraints', fileIndex]);
  if (!element) return undefined;
  const previous = fileIndex > 0 ? sm.nodeSpan(['constraints', fileIndex - 1]) : undefined;
  const edits = removeArrayElementEdits(text, element, previous);
  return { title: `Remove redundant constraint \`${name}\``, edits: toEdits(sm, edits), preferred: true };
}

function setLengthFix(text: string, sm: SourceMap, fileIndex: number, length: number): Fix | undefined {
  try {
    const value = roundSignificant(length, 12);
    const edits = modify(text, ['constraints', fileIndex, 'length'], value, FORMAT);
    return edits.length ? { title: `Set \`length\` to the current distance (${value})`, edits: toEdits(sm, edits), preferred: true } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CL303's cause: compare κ with κ of the diagonally (Jacobi) scaled A, which removes what comes from
 * the rows' scales alone (mass and inertia ratios, lever arms, units).
 */
function conditioningCause(scaled: number | null, k: number, warning: number): string {
  const ks = `κ of the diagonally scaled A is ${formatCond(scaled)}`;
  if (scaled !== null && scaled < warning)
    return `${ks}, below the threshold: the ill-conditioning is a scaling issue (mass or inertia ratios across the constraints, lever arms, or units of very different size), not the geometry. Bring the masses and inertias closer together, or choose units in which they are of similar size.`;
  if (scaled !== null && scaled < k / 100)
    return `${ks}: most of it is scaling (mass or inertia ratios), but the scaled system is ill-conditioned too, so the geometry (long chains, nearly parallel or nearly dependent constraints) also contributes.`;
  return `${ks}, so the cause is the geometry (long chains, nearly parallel or nearly dependent constraints), not the scaling: make the constraints less dependent (e.g. remove a nearly redundant one).`;
}

/** Redundant or conflicting constraints reported one by one; past this many, one diagnostic sums up the rest. */
export const MAX_REDUNDANT_DIAGNOSTICS = 500;

/** Diagnostics of the analysed step-0 system. */
export function analysisDiagnostics(snap: SystemSnapshot, text: string, sm: SourceMap, opts: { conditionWarning: number; violationTolerance: number }): Diagnostic[] {
  const out: Diagnostic[] = [];
  const byName = new Map(snap.constraints.map((c) => [c.name, c]));
  // row labels by constraint and row (the first row of that name wins, as a search would find it)
  const rowLabel = new Map<string, string>();
  for (const x of snap.rows) if (!rowLabel.has(`${x.constraint}\u0000${x.row}`)) rowLabel.set(`${x.constraint}\u0000${x.row}`, x.label);
  // Redundant and conflicting constraints: group dependent rows by constraint.
  const groups = new Map<string, SystemSnapshot['redundant']>();
  for (const r of snap.redundant) {
    const list = groups.get(r.constraint) ?? [];
    list.push(r);
    groups.set(r.constraint, list);
  }
  let listed = 0;
  for (const [name, rows] of groups) {
    const c = byName.get(name)!;
    if (listed === MAX_REDUNDANT_DIAGNOSTICS) {
      // thousands of rows on a few bodies: the rest in one diagnostic (every row is in the snapshot's `redundant`)
      const more = groups.size - listed;
      const conflicting = snap.consistent === false;
      out.push({
        severity: conflicting ? 'error' : 'warning',
        code: conflicting ? Codes.conflictingConstraints : Codes.redundantConstraint,
        message: `${more} more constraints, from \`${name}\` on, are ${conflicting ? 'redundant and conflicting' : 'redundant'} too (rank ${snap.rank.J} of ${snap.rank.rows} rows): only the first ${MAX_REDUNDANT_DIAGNOSTICS} are reported one by one; the inspector and \`inspect --json\` list every redundant row with its combination.`,
        range: constraintRange(sm, c.fileIndex),
        data: { constraint: name, constraintIndex: c.fileIndex, more },
      });
      break;
    }
    listed++;
    const range = constraintRange(sm, c.fileIndex);
    const others = new Set<string>();
    const combos = rows.map((r) => {
      const terms = r.dependsOn.map((d) => {
        if (d.constraint !== name) others.add(d.constraint);
        const lab = rowLabel.get(`${d.constraint}\u0000${d.row}`) ?? `${d.constraint}[${d.row}]`;
        return `${fmt(d.coefficient)}·${lab}`;
      });
      const lab = rowLabel.get(`${r.constraint}\u0000${r.row}`) ?? `${r.constraint}[${r.row}]`;
      return terms.length ? `${lab} = ${terms.join(' + ').replace(/\+ -/g, '− ')}` : `${lab} is zero`;
    });
    const zeroOnly = rows.every((r) => r.dependsOn.length === 0);
    const related = [...others].map((o) => {
      const oc = byName.get(o)!;
      return { message: `\`${name}\` depends on \`${o}\``, range: constraintRange(sm, oc.fileIndex) };
    });
    const allRows = rows.length === c.rows;
    const fix = allRows ? removeConstraintFix(text, sm, c.fileIndex, name) : undefined;
    const data = { constraint: name, constraintIndex: c.fileIndex, rows: rows.map((r) => r.row), dependsOn: [...others] };
    if (zeroOnly) {
      out.push({
        severity: 'error',
        code: Codes.singularSystem,
        message: `Constraint \`${name}\` has ${rows.length === 1 ? 'a zero Jacobian row' : 'zero Jacobian rows'} in this configuration (${combos.join('; ')}): it cannot apply any force and A = J·M⁻¹·Jᵀ is singular. Change its geometry so that the row depends on the motion (anchors that do not coincide, a non-zero length or axis) or remove it.`,
        range,
        data,
      });
      continue;
    }
    if (snap.consistent === false) {
      out.push({
        severity: 'error',
        code: Codes.conflictingConstraints,
        message: `Constraint \`${name}\` conflicts with ${[...others].map((o) => `\`${o}\``).join(', ')}: ${combos.join('; ')}, but their targets disagree, so no λ satisfies J·a = rhs (least-squares residual ${fmt(snap.residual)}). Remove one of them or make their targets agree.`,
        range,
        related,
        fixes: fix ? [fix] : undefined,
        data,
      });
    } else {
      out.push({
        severity: 'warning',
        code: Codes.redundantConstraint,
        message: `Constraint \`${name}\` is redundant: ${combos.join('; ')}. A = J·M⁻¹·Jᵀ is singular (rank ${snap.rank.J} of ${snap.rank.rows} rows) and λ is not unique: ${nonUnique(combos[0])} ${allRows ? `Remove \`${name}\`.` : `Remove the redundant rows (e.g. use a constraint type with fewer rows).`}`,
        range,
        related,
        fixes: fix ? [fix] : undefined,
        data,
      });
    }
  }
  // Ill-conditioning: a finite κ in the shared `bad` band (at or above the threshold), as every view bands it.
  const k = snap.cond.A;
  if (k !== null && condBand(k, { warning: opts.conditionWarning }) === 'bad') {
    const scaledOk = snap.cond.scaled !== null && snap.cond.scaled < opts.conditionWarning;
    const drivers = snap.A ? conditionDrivers(snap.A, snap.rows.map((r) => r.constraint), scaledOk) : undefined;
    out.push({
      severity: 'warning',
      code: Codes.illConditioned,
      message: `κ(A) = ${formatCond(k)}${snap.condEstimated ? ' (estimated)' : ''} is at or above ${formatCond(opts.conditionWarning)} (solver.conditionWarning): λ is sensitive to round-off. ${conditioningCause(snap.cond.scaled, k, opts.conditionWarning)}${drivers ? ` ${describeDrivers(drivers)}` : ''}`,
      range: sm.keyRangeOf(['constraints']),
      related: drivers ? driverNames(drivers).flatMap((name) => (byName.has(name) ? [{ message: `\`${name}\` drives κ`, range: constraintRange(sm, byName.get(name)!.fileIndex) }] : [])) : undefined,
      data: { cond: k, scaled: snap.cond.scaled, ...(drivers ? { drivers: driverNames(drivers) } : {}) },
    });
  }
  // The exact spectrum gave up: say why κ carries "≈" and the rank comes from the factorisation.
  if (snap.spectrumCapped) {
    out.push({
      severity: 'warning',
      code: Codes.spectrumCapped,
      message: `κ(A) is estimated${k !== null ? ` (${formatCond(k, { estimated: true })})` : ''}: A has ${snap.rank.rows} rows, few enough for its exact spectrum, but the eigenvalue iteration did not converge (its entries are subnormal or span too many decades). The rank and the redundant rows come from the factorisation instead of the singular values, and no spectrum is shown. Express masses, lengths and inertias in units that keep them within a few decades of each other.`,
      range: sm.keyRangeOf(['constraints']),
      data: { cond: k, rows: snap.rank.rows },
    });
  }
  // More rows than DOFs.
  if (snap.rank.rows > snap.rank.dofs) {
    out.push({
      severity: 'warning',
      code: Codes.overConstrained,
      message: `${snap.rank.rows} constraint rows for ${snap.rank.dofs} degrees of freedom: at least ${snap.rank.rows - snap.rank.dofs} rows must be redundant. Remove the constraints that CL301/CL302 name, or use constraint types with fewer rows (a ball joint has 3, a hinge 5, a fixed joint 6).`,
      range: sm.keyRangeOf(['constraints']),
      data: { rows: snap.rank.rows, dofs: snap.rank.dofs },
    });
  }
  // Initial violation.
  for (const c of snap.constraints) {
    if (c.violation > opts.violationTolerance) {
      const fixes: Fix[] = [];
      let hint = 'Move the bodies or anchors so that the constraint holds initially.';
      if (c.type === 'distance') {
        const dist = norm(sub(c.anchorAWorld, c.anchorBWorld));
        if (dist > ZERO_LENGTH) {
          const f = setLengthFix(text, sm, c.fileIndex, dist);
          if (f) fixes.push(f);
          hint = `The anchors are ${fmt(dist, 6)} apart; set \`length\` to that or move the bodies.`;
        } else {
          // never advise a zero length: a distance of 0 has a zero Jacobian (CL204)
          hint = 'The anchors coincide, and a distance constraint needs a positive length: move the bodies apart to the `length` given, or use a ball joint to keep the points together.';
        }
      }
      out.push({
        severity: 'warning',
        code: Codes.initialViolation,
        message: `Constraint \`${c.name}\` is violated in the initial state: |C| = ${fmt(c.violation)} > ${fmt(opts.violationTolerance)} (solver.violationTolerance). ${hint}`,
        range: constraintRange(sm, c.fileIndex),
        fixes: fixes.length ? fixes : undefined,
        data: { constraint: c.name, constraintIndex: c.fileIndex, violation: c.violation },
      });
    }
  }
  return out;
}

/**
 * Why λ of redundant rows is not unique, from one dependency "r = Σ cₖ·rₖ": the rows' Jacobians satisfy
 * J_r − Σ cₖ·J_rₖ = 0, so adding t·(e_r − Σ cₖ·e_rₖ) to λ changes no force on any body for any t.
 */
function nonUnique(combo: string | undefined): string {
  const eq = combo?.indexOf(' = ') ?? -1;
  const along = eq > 0 ? ` ${combo!.slice(0, eq)} − (${combo!.slice(eq + 3)})` : '';
  return `any multiple of the combination${along} of its components can be added to λ without changing the motion. The minimum-norm λ (no component along it) is shown, so how the load is split between these rows is a choice of the solver, not a measurement (MuJoCo's regularised solve splits it differently).`;
}

const driverNames = (d: ConditionDrivers): string[] => (d.cause === 'geometry' ? d.drivers.map((x) => x.constraint) : [...new Set([d.largest.constraint, d.smallest.constraint])]);

/** The constraints behind κ, in words (linalg/conditionDrivers.ts). */
function describeDrivers(d: ConditionDrivers): string {
  if (d.cause === 'scaling') {
    return `The extremes of A's diagonal (the effective inverse masses of the rows) are on \`${d.largest.constraint}\` (${fmt(d.largest.weight)}) and \`${d.smallest.constraint}\` (${fmt(d.smallest.weight)}).`;
  }
  const parts = d.drivers.map((x) => `\`${x.constraint}\` (${Math.round(100 * x.weight)} %)`);
  return `The nearly dependent combination of rows (the eigenvector of the scaled A's smallest eigenvalue) lies on ${parts.join(', ')}.`;
}
