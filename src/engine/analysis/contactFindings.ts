// Diagnostics of contacts, on the range of the shape (or body, or constraint) concerned:
//   at step 0 (inspect): shapes overlapping deeply (CL505), overlapping shapes of two ends that
//     never move (CL504: no contact is solved between them);
//   during a run, once per shape pair or per owner: penetration above the tolerance (CL501), Newton
//     not converged, naming the block and the row with the largest residual (CL502), friction
//     outside the Coulomb cone (CL503).
import type { World } from '../assembly/assemble';
import { candidatePairsStatic } from '../collision/staticContacts';
import { Codes } from '../core/codes';
import type { Contact } from '../collision/contacts';
import { contactNames, contactTitle, finiteConeRatio } from '../contact/contactReports';
import { bodyRange, constraintRange, formatNumber as fmt } from './findings';
import type { BodyState } from '../model/body';
import type { SceneSpec, SourceMap } from '../scene/spec';
import type { ContactStep } from '../contact/stepContacts';
import type { Diagnostic, Range } from '../types';

/** Relative excess of ‖f_t‖ over μ·f_n reported as a cone violation (CL503). */
export const CONE_TOLERANCE = 1e-3;
/** At most this many CL502 per run (one per block and owner: body, constraint, or contact shape pair). */
export const MAX_NEWTON_FINDINGS = 5;

/** The range of shape `index` of body `owner` (−1: the world): its name, else its type, else the object. */
export function shapeRange(sm: SourceMap, owner: number, index: number): Range {
  const base = owner < 0 ? ['world', 'shapes', index] : ['bodies', owner, 'shapes', index];
  for (const key of ['name', 'type']) if (sm.nodeSpan([...base, key])) return sm.rangeOf([...base, key]);
  return sm.rangeOf(base);
}

/** The shape a contact diagnostic sits on: the moving end's (A when it moves, else B). */
function contactRange(scene: SceneSpec, sm: SourceMap, c: Contact): Range {
  const aMoves = c.bodyA >= 0 && !scene.bodies[c.bodyA]?.fixed;
  return aMoves ? shapeRange(sm, c.bodyA, c.shapeA) : shapeRange(sm, c.bodyB, c.shapeB);
}

const pairOf = (c: Contact): string => `${c.bodyA}:${c.shapeA}|${c.bodyB}:${c.shapeB}`;

/** Diagnostics of the initial state: deep overlaps (CL505) and touching shapes that both never move (CL504). */
export function initialContactDiagnostics(scene: SceneSpec, sm: SourceMap, states: readonly BodyState[], contacts: readonly Contact[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const tol = scene.solver.contacts.penetrationTolerance;
  const seen = new Set<string>();
  for (const c of contacts) {
    if (!(c.gap < -tol) || seen.has(pairOf(c))) continue;
    seen.add(pairOf(c));
    const n = contactNames(scene, c);
    out.push({
      severity: 'warning',
      code: Codes.initialOverlap,
      message: `Shape \`${n.shapeA}\` of \`${n.bodyA}\` and shape \`${n.shapeB}\` of \`${n.bodyB}\` overlap by ${fmt(-c.gap)} m in the initial state, more than solver.contacts.penetrationTolerance = ${fmt(tol)} m: the first steps push them apart with large forces. Move the bodies apart.`,
      range: contactRange(scene, sm, c),
      data: { contact: contactTitle(scene, c), gap: c.gap, tolerance: tol },
    });
  }
  for (const c of candidatePairsStatic(scene, states)) {
    const n = contactNames(scene, c);
    out.push({
      severity: 'warning',
      code: Codes.contactFixedEnds,
      message: `Shape \`${n.shapeA}\` of \`${n.bodyA}\` touches shape \`${n.shapeB}\` of \`${n.bodyB}\` (gap ${fmt(c.gap)} m), but neither end can move (fixed bodies and the world have no mass in the system): no contact is solved between them. Make one of the bodies free, or move the shapes apart.`,
      range: c.bodyA >= 0 ? shapeRange(sm, c.bodyA, c.shapeA) : shapeRange(sm, c.bodyB, c.shapeB),
      data: { contact: contactTitle(scene, c), gap: c.gap },
    });
  }
  return out;
}

/** Run diagnostics of contact steps, each reported once (per shape pair, or per owner for Newton). */
export class ContactFindings {
  private readonly penetrated = new Set<string>();
  private readonly outsideCone = new Set<string>();
  private readonly unconverged = new Set<string>();

  constructor(
    readonly world: World,
    readonly scene: SceneSpec,
    readonly sm: SourceMap,
  ) {}

  reset(): void {
    this.penetrated.clear();
    this.outsideCone.clear();
    this.unconverged.clear();
  }

  afterStep(cs: ContactStep, step: number): Diagnostic[] {
    const out: Diagnostic[] = [];
    const s = this.scene.solver;
    const t = `step ${step} (t = ${fmt(step * s.dt)} s)`;
    const tol = s.contacts.penetrationTolerance;
    cs.contacts.forEach((c, k) => {
      const key = pairOf(c);
      const pen = -cs.gapsAfter[k];
      if (pen > tol && !this.penetrated.has(key)) {
        this.penetrated.add(key);
        const n = contactNames(this.scene, c);
        const advice =
          s.formulation === 'nonlinear' && s.contacts.level === 'position'
            ? 'Reduce `dt`, or check that Newton converged at this step.'
            : 'Reduce `dt`, raise `erp`, or use the nonlinear formulation (position-level contacts).';
        out.push({
          severity: 'warning',
          code: Codes.penetration,
          message: `Shape \`${n.shapeA}\` of \`${n.bodyA}\` penetrates shape \`${n.shapeB}\` of \`${n.bodyB}\` by ${fmt(pen)} m after ${t}, more than solver.contacts.penetrationTolerance = ${fmt(tol)} m. ${advice}`,
          range: contactRange(this.scene, this.sm, c),
          data: { contact: contactTitle(this.scene, c), step, penetration: pen, tolerance: tol },
        });
      }
      const f = cs.forces[k];
      if (f.state !== 'open' && f.coneRatio > 1 + CONE_TOLERANCE && !this.outsideCone.has(key)) {
        this.outsideCone.add(key);
        const n = contactNames(this.scene, c);
        out.push({
          severity: 'warning',
          code: Codes.frictionCone,
          message: `The friction force of contact \`${n.bodyA}/${n.shapeA}\`–\`${n.bodyB}/${n.shapeB}\` is outside the Coulomb cone at ${t}: ‖f_t‖/(μ·f_n) = ${fmt(finiteConeRatio(f.coneRatio))} (μ = ${fmt(c.friction)}, f_n = ${fmt(f.normalForce)} N). The contact solver did not converge there; raise its iterations or reduce \`dt\`.`,
          range: contactRange(this.scene, this.sm, c),
          data: { contact: contactTitle(this.scene, c), step, coneRatio: finiteConeRatio(f.coneRatio) },
        });
      }
    });
    const r = cs.newton;
    if (r && !r.converged && this.unconverged.size < MAX_NEWTON_FINDINGS) {
      const o = r.worst.owner;
      // contacts are renumbered every step: key them by their shape pair
      const key = `${r.worst.block}:${o.kind === 'contact' && cs.contacts[o.index] ? pairOf(cs.contacts[o.index]) : `${o.kind}${o.index}`}`;
      if (!this.unconverged.has(key)) {
        this.unconverged.add(key);
        out.push(this.newtonDiagnostic(cs, step, t));
      }
    }
    return out;
  }

  private newtonDiagnostic(cs: ContactStep, step: number, t: string): Diagnostic {
    const r = cs.newton!;
    const w = this.world;
    const o = r.worst.owner;
    let what: string;
    let range: Range;
    if (o.kind === 'constraint') {
      const spec = w.constraints[o.index].spec;
      what = `constraint \`${spec.name}\``;
      range = constraintRange(this.sm, spec.index);
    } else if (o.kind === 'contact') {
      const c = cs.contacts[o.index];
      what = `contact c${o.index} (\`${contactTitle(this.scene, c)}\`)`;
      range = contactRange(this.scene, this.sm, c);
    } else {
      const spec = w.bodies[o.index].spec;
      what = `body \`${spec.name}\``;
      range = bodyRange(this.sm, spec.index);
    }
    const final = r.residuals[r.residuals.length - 1];
    const BLOCK: Record<string, string> = { dyn: 'dynamics', kin: 'kinematics', b: 'joints', n: 'contact normals', f: 'friction' };
    const failed = r.linearSolvers.includes('failed') ? ' The linear solve of the Newton matrix failed: it is singular, and its least-squares fallback (an SVD capped at a fixed number of sweeps, for matrices up to 600 rows) found no answer.' : '';
    return {
      severity: 'warning',
      code: Codes.newtonNotConverged,
      message: `Newton did not converge at ${t}: ‖h‖ = ${fmt(final)} after ${r.iterations} iterations (solver.newton.tolerance = ${fmt(this.scene.solver.newton.tolerance)}). The largest residual is in block \`${r.worst.block}\` (${BLOCK[r.worst.block] ?? r.worst.block}), ${what}: |h| = ${fmt(r.worst.value)}.${failed} Raise solver.newton.maxIterations, reduce \`dt\`, or raise solver.regularization.`,
      range,
      data: { step, block: r.worst.block, owner: what, residual: final, worst: r.worst.value, iterations: r.iterations },
    };
  }
}
