// The contact solve in the finite checks (nonFinite.ts, CL401/CL403): every number a contact step
// computes and the records, snapshots, CLI and panel show, in the order the step computes it:
//   per contact the point, normal, tangents and gap → the contact forces f_n, f_t → the bilateral
//   reactions λ, the joint limits' and friction loss's rows and u⁺ → the gaps after the step → the complementarity residual, the largest
//   penetration and the solver's residual → PGS's residual, or Newton's residuals, block norms,
//   line-search step lengths, the Newton matrix ∂h/∂x and its κ₁ (∞: singular, a legitimate answer).
// A bad value in a contact sits on the range of the shape of its moving end.
import type { World } from '../assembly/assemble';
import type { BlockRange, BlockName } from '../contact/system';
import type { NewtonReport } from '../contact/newton';
import type { Contact } from '../collision/contacts';
import type { ShapeSpec } from '../scene/contactSpec';
import { contactTitle } from '../contact/contactReports';
import { bodyOwner, colOwner, firstBad, isBad, makeFinding, rowOwner, type Finding, type Owner } from './nonFinite';
import type { ContactStep } from '../contact/stepContacts';

/** The moving end of a contact (A when it moves, else B): its body and shape carry the finding. */
function contactEnd(w: World, c: Contact): { owner?: Owner; shape: { body: number; index: number } } {
  const aMoves = c.bodyA >= 0 && !w.scene.bodies[c.bodyA]?.fixed;
  const body = aMoves ? c.bodyA : c.bodyB;
  const shape = { body, index: aMoves ? c.shapeA : c.shapeB };
  return { owner: body >= 0 && w.bodies[body] ? bodyOwner(w, body) : undefined, shape };
}

function contactFinding(w: World, cs: ContactStep, k: number, symbol: string, what: string, value: number): Finding {
  const c = cs.contacts[k];
  const { owner, shape } = contactEnd(w, c);
  return { ...makeFinding(symbol, value, owner, `${what} of contact ${contactTitle(w.scene, c)}`), shape };
}

/** Whose row `row` of Newton's system is (dyn, kin: a body; b: a constraint; n, f: a contact). */
function newtonRow(w: World, cs: ContactStep, blocks: readonly BlockRange<BlockName>[], row: number, symbol: string, what: string, value: number): Finding {
  const blk = blocks.find((b) => row >= b.start && row < b.start + b.size);
  const i = blk ? row - blk.start : 0;
  switch (blk?.name) {
    case 'dyn':
      return makeFinding(symbol, value, colOwner(w, 6 * Math.floor(i / 6)), what);
    case 'kin':
      return makeFinding(symbol, value, colOwner(w, 6 * Math.floor(i / 7)), what);
    case 'b':
      return makeFinding(symbol, value, rowOwner(w, i), what);
    case 'n':
    case 'f': {
      const k = blk.name === 'n' ? i : Math.floor(i / 2);
      if (cs.contacts[k]) return contactFinding(w, cs, k, symbol, what, value);
      return { ...makeFinding(symbol, value, undefined, what), path: ['solver', 'newton'] };
    }
    default:
      return { ...makeFinding(symbol, value, undefined, what), path: ['solver', 'newton'] };
  }
}

/** Newton's report: residuals per iterate, block norms, step lengths, the matrix and κ₁. */
function checkNewton(w: World, cs: ContactStep, r: NewtonReport): Finding | undefined {
  // the row with the largest final residual owns the whole-system norms
  const worst = (symbol: string, what: string, value: number): Finding => {
    const blk = r.rowBlocks.find((b) => b.name === r.worst.block);
    return newtonRow(w, cs, r.rowBlocks, (blk?.start ?? 0) + r.worst.index, symbol, what, value);
  };
  let k = firstBad(r.residuals);
  if (k >= 0) return worst('‖h‖', `Newton's residual ‖h‖ at iterate ${k}`, r.residuals[k]);
  for (const [j, b] of r.blockResiduals.entries()) {
    for (const name of ['dyn', 'kin', 'b', 'n', 'f'] as const) if (isBad(b[name])) return worst('‖h‖', `Newton's ${name} block residual at iterate ${j}`, b[name]);
  }
  for (const name of ['dyn', 'kin', 'b', 'n', 'f'] as const) if (isBad(r.blocks[name])) return worst('‖h‖', `Newton's final ${name} block residual`, r.blocks[name]);
  if (isBad(r.worst.value)) return worst('h', "Newton's largest residual", r.worst.value);
  k = firstBad(r.stepLengths);
  if (k >= 0) return worst('α', `the line-search step length of Newton iteration ${k + 1}`, r.stepLengths[k]);
  k = firstBad(r.matrix.values);
  if (k >= 0) {
    let row = 0;
    while (row + 1 < r.matrix.rowPtr.length && r.matrix.rowPtr[row + 1] <= k) row++;
    return newtonRow(w, cs, r.rowBlocks, row, '∂h/∂x', 'the Newton matrix ∂h/∂x', r.matrix.values[k]);
  }
  // κ₁ = ∞ says "singular"; NaN or a finite value beyond ±1e150 is not an answer
  if (Number.isNaN(r.cond) || (Number.isFinite(r.cond) && isBad(r.cond))) return worst('κ₁', "the condition number κ₁ of Newton's matrix", r.cond);
  return undefined;
}

const SHAPE_FIELDS = ['radius', 'halfLength', 'halfExtents', 'position', 'orientation', 'normal', 'offset', 'friction'] as const;

/**
 * The shapes' own numbers (step 0): sizes, poses, plane normals and offsets, friction beyond ±1e150
 * (finite, else the scene would not parse) make every contact quantity meaningless.
 */
export function checkShapes(w: World): Finding | undefined {
  const owners: [number, readonly ShapeSpec[]][] = [[-1, w.scene.world.shapes], ...w.scene.bodies.map((b, i): [number, readonly ShapeSpec[]] => [i, b.shapes])];
  for (const [body, shapes] of owners) {
    for (const sh of shapes) {
      for (const field of SHAPE_FIELDS) {
        const v = (sh as unknown as Record<string, unknown>)[field];
        const xs = typeof v === 'number' ? [v] : Array.isArray(v) ? (v as number[]) : [];
        const i = firstBad(xs);
        if (i < 0) continue;
        const index = sh.index;
        const base = body < 0 ? ['world', 'shapes', index] : ['bodies', w.bodies[body]?.spec.index ?? body, 'shapes', index];
        return {
          ...makeFinding(`shape.${field}`, xs[i], body >= 0 && w.bodies[body] ? bodyOwner(w, body) : undefined, `\`${field}\` of shape \`${sh.name}\``),
          path: typeof v === 'number' ? [...base, field] : [...base, field, i],
          shape: { body, index },
        };
      }
    }
  }
  return undefined;
}

/** The first bad number of a contact step (its body states are checked by `checkStates`). */
export function checkContactStep(w: World, cs: ContactStep): Finding | undefined {
  for (let k = 0; k < cs.contacts.length; k++) {
    const c = cs.contacts[k];
    const parts: [string, string, ArrayLike<number>][] = [['x_c', 'the point', c.point], ['n', 'the normal', c.normal], ['t', 'the tangents', [...c.t1, ...c.t2]], ['gap', 'the gap', [c.gap]]];
    for (const [symbol, what, x] of parts) {
      const g = firstBad(x);
      if (g >= 0) return contactFinding(w, cs, k, symbol, what, x[g]);
    }
  }
  for (let k = 0; k < cs.forces.length && k < cs.contacts.length; k++) {
    const f = cs.forces[k];
    if (isBad(f.normalForce)) return contactFinding(w, cs, k, 'f_n', 'the normal force', f.normalForce);
    for (const x of f.frictionForce) if (isBad(x)) return contactFinding(w, cs, k, 'f_t', 'the friction force', x);
  }
  let k = firstBad(cs.lambda);
  if (k >= 0) return makeFinding('λ', cs.lambda[k], rowOwner(w, k));
  for (const r of cs.jointRows ?? []) {
    const parts: [string, string, number][] = [['q', 'the joint coordinate', r.q], ['gap', 'the gap', r.gap ?? 0], ['λ', 'the force', r.force], ['q̇', 'the velocity', r.velocity]];
    for (const [symbol, what, x] of parts) {
      if (!isBad(x)) continue;
      const c = w.constraints.findIndex((m) => m.spec.name === r.constraint);
      return makeFinding(symbol, x, c >= 0 ? rowOwner(w, w.rowStart[c]) : undefined, `${what} of joint row ${r.name}`);
    }
  }
  k = firstBad(cs.uPlus);
  if (k >= 0) return makeFinding('u⁺', cs.uPlus[k], colOwner(w, k), 'the velocity u⁺ after the contact step');
  k = firstBad(cs.gapsAfter);
  if (k >= 0 && cs.contacts[k]) return contactFinding(w, cs, k, 'gap⁺', 'the gap after the step', cs.gapsAfter[k]);
  const solver: Finding['path'] = ['solver', cs.mode === 'velocity' ? 'pgs' : 'newton'];
  if (isBad(cs.complementarity)) return { ...makeFinding('complementarity', cs.complementarity, undefined, 'the complementarity residual'), path: ['solver', 'contacts'] };
  if (isBad(cs.maxPenetration)) return { ...makeFinding('penetration', cs.maxPenetration, undefined, 'the largest penetration'), path: ['solver', 'contacts'] };
  if (cs.newton) {
    const bad = checkNewton(w, cs, cs.newton);
    if (bad) return bad;
  }
  if (cs.pgs && isBad(cs.pgs.residual)) return { ...makeFinding('r', cs.pgs.residual, undefined, "PGS's residual ‖r‖"), path: solver };
  if (isBad(cs.residual)) return { ...makeFinding('residual', cs.residual, undefined, "the contact solver's residual"), path: solver };
  return undefined;
}
