// Joint chain: the hinges and slides MuJoCo stacks between two bodies, as the 6 − k rows the chain
// does not allow (patterns in chainPattern.ts, formulas in docs/formulas.md "chain"). Every row is an
// invariant of the allowed motion — a function of vectors and points fixed in A or in B that the
// chain's joints leave unchanged — minus its value at the initial state, so it is exact at any state:
//   slides:   the orientation error of `fixed` (θx, θy, θz), and n_k·(x_B − x_A) for the normals
//             n_k (fixed in A) of the span of the slides;
//   parallel: a·p_k for the perpendiculars p_k (fixed in B) of the hinge direction a (fixed in A);
//             a·(x_B − x_A) unless a slide is axial; in the plane, by the generators left after
//             repeats: one hinge → e_k·(c_B − c_A) (k = 1, 2); hinge, hinge → |P_a(c2_B − c1_A)|;
//             slide s then hinge c → (a×s)_A·(c_B − c_A); hinge c then slide s → (a×s)_B·(c_A − c_B);
//             three or more → none;
//   skew:     two hinges (a, c1 fixed in A; u, c2 fixed in B; r = c2 − c1) → a·u, a·r, u·r, (a×u)·r;
//   rotation: three hinges whose axes span space, up to two slides → the translation across the slides
//             that the hinge angles of the rotation leave (chainRotation.ts, not a jet: the angles are
//             not invariants of a few primitives).
// Each row is evaluated as a jet (value, rate, second rate) along the motion with constant v and ω:
// the rate with unit velocities gives the Jacobian columns, the second rate with the actual
// velocities gives J̇v (= C̈ at zero accelerations).
import type { Mat3, Quat, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { mat3MulVec, mat3TMulVec, perpendicularBasis } from '../core/math';
import { angularKinematics, makeAngularKin, relativeReference, writeAngularRow } from './kinematics';
import { type ChainPattern, classifyJointChain } from '../scene/chainPattern';
import { evaluateRotationChain, makeRotationChain, rotationChainRows, type RotationChain } from './chainRotation';

/** value (0..2), first (3..5) and second (6..8) time derivative of a vector. */
type Jet = Float64Array;
const jet = (): Jet => new Float64Array(9);

/** A body-fixed direction: v = R·u, v̇ = ω×v, v̈ = ω×v̇. */
function dirJet(R: Mat3, w: Vec3, u: Vec3, o: Jet): void {
  const x = R[0] * u[0] + R[1] * u[1] + R[2] * u[2];
  const y = R[3] * u[0] + R[4] * u[1] + R[5] * u[2];
  const z = R[6] * u[0] + R[7] * u[1] + R[8] * u[2];
  const dx = w[1] * z - w[2] * y, dy = w[2] * x - w[0] * z, dz = w[0] * y - w[1] * x;
  o[0] = x; o[1] = y; o[2] = z;
  o[3] = dx; o[4] = dy; o[5] = dz;
  o[6] = w[1] * dz - w[2] * dy; o[7] = w[2] * dx - w[0] * dz; o[8] = w[0] * dy - w[1] * dx;
}

/** A body-fixed point: x = p + R·r, ẋ = v + ω×(R·r), ẍ = ω×(ω×(R·r)). */
function pointJet(R: Mat3, p: Vec3, v: Vec3, w: Vec3, r: Vec3, o: Jet): void {
  dirJet(R, w, r, o);
  o[0] += p[0]; o[1] += p[1]; o[2] += p[2];
  o[3] += v[0]; o[4] += v[1]; o[5] += v[2];
}

function subJet(x: Jet, y: Jet, o: Jet): void {
  for (let i = 0; i < 9; i++) o[i] = x[i] - y[i];
}

/** x×y into o[at..at+2]. */
function crossAt(x: Jet, i: number, y: Jet, j: number, o: Float64Array, at: number, f: number): void {
  o[at] += f * (x[i + 1] * y[j + 2] - x[i + 2] * y[j + 1]);
  o[at + 1] += f * (x[i + 2] * y[j] - x[i] * y[j + 2]);
  o[at + 2] += f * (x[i] * y[j + 1] - x[i + 1] * y[j]);
}

/** (x×y)⁽ⁿ⁾ by Leibniz: x×y, ẋ×y + x×ẏ, ẍ×y + 2ẋ×ẏ + x×ÿ. */
function crossJet(x: Jet, y: Jet, o: Jet): void {
  o.fill(0);
  crossAt(x, 0, y, 0, o, 0, 1);
  crossAt(x, 3, y, 0, o, 3, 1);
  crossAt(x, 0, y, 3, o, 3, 1);
  crossAt(x, 6, y, 0, o, 6, 1);
  crossAt(x, 3, y, 3, o, 6, 2);
  crossAt(x, 0, y, 6, o, 6, 1);
}

const dotAt = (x: Jet, i: number, y: Jet, j: number): number => x[i] * y[j] + x[i + 1] * y[j + 1] + x[i + 2] * y[j + 2];

/** The scalar jet of x·y into s[o..o+2]. */
function dotJet(x: Jet, y: Jet, s: Float64Array, o: number): void {
  s[o] = dotAt(x, 0, y, 0);
  s[o + 1] = dotAt(x, 3, y, 0) + dotAt(x, 0, y, 3);
  s[o + 2] = dotAt(x, 6, y, 0) + 2 * dotAt(x, 3, y, 3) + dotAt(x, 0, y, 6);
}

/** Which body a primitive is fixed in, and its coordinates there. */
interface Primitive {
  body: 'A' | 'B';
  point: boolean;
  local: Vec3;
  jet: Jet;
}

type Row = (s: Float64Array, o: number) => void;

export class ChainConstraint implements ConstraintModel {
  readonly rows: number;
  readonly rowLabels: readonly string[];
  readonly pattern: ChainPattern;
  /** Rows before the jet rows (the orientation rows of the slides pattern). */
  private readonly angularRows: number;
  private readonly qRel0: Quat;
  private readonly ang = makeAngularKin();
  private readonly prims: Primitive[] = [];
  private readonly jetRows: Row[] = [];
  private readonly ref: Float64Array;
  private readonly s: Float64Array;
  private readonly zero: Vec3 = [0, 0, 0];
  private readonly unit: Vec3 = [0, 0, 0];
  private readonly rotation?: RotationChain;

  constructor(readonly spec: ConstraintSpec, a0: Pose, b0: Pose) {
    const joints = spec.chain ?? [];
    this.qRel0 = relativeReference(a0, b0);
    const scale = Math.max(1, ...joints.map((j) => Math.hypot(...j.anchor)));
    this.pattern = classifyJointChain(joints, scale);
    // Reference-state coordinates: the joints are given in A's frame; B's frame from the initial poses.
    const toB = (x: Vec3, point: boolean): Vec3 => {
      const w = mat3MulVec(a0.R, x);
      if (point) for (let i = 0; i < 3; i++) w[i] += a0.p[i] - b0.p[i];
      return mat3TMulVec(b0.R, w);
    };
    const prim = (body: 'A' | 'B', point: boolean, x: Vec3): Jet => {
      const p: Primitive = { body, point, local: body === 'A' ? [...x] as Vec3 : toB(x, point), jet: jet() };
      this.prims.push(p);
      return p.jet;
    };
    const labels: string[] = [];
    const rows = this.jetRows;
    const r1 = jet(), r2 = jet(), t = new Float64Array(6);
    const dotRow = (x: Jet, y: Jet): Row => (s, o) => dotJet(x, y, s, o);
    /** n·(x − y). */
    const offsetRow = (n: Jet, x: Jet, y: Jet): Row => (s, o) => {
      subJet(x, y, r1);
      dotJet(n, r1, s, o);
    };
    const p = this.pattern;
    this.angularRows = p.kind === 'slides' ? 3 : 0;
    if (p.kind === 'slides') {
      labels.push('θx', 'θy', 'θz');
      const o = joints[0].anchor;
      const xA = prim('A', true, o), xB = prim('B', true, o);
      p.normals.forEach((n, k) => {
        rows.push(offsetRow(prim('A', false, n), xB, xA));
        labels.push(`n${k + 1}`);
      });
    } else if (p.kind === 'parallel') {
      const aA = prim('A', false, p.axis);
      const [u1, u2] = perpendicularBasis(p.axis);
      rows.push(dotRow(aA, prim('B', false, u1)), dotRow(aA, prim('B', false, u2)));
      labels.push('⊥1', '⊥2');
      if (!p.axialSlide) {
        const o = joints[0].anchor;
        rows.push(offsetRow(aA, prim('B', true, o), prim('A', true, o)));
        labels.push('a');
      }
      const g = p.planar;
      if (g.length === 1 && g[0].kind === 'hinge') {
        const c = g[0].anchor;
        const cA = prim('A', true, c), cB = prim('B', true, c);
        rows.push(offsetRow(prim('A', false, u1), cB, cA), offsetRow(prim('A', false, u2), cB, cA));
        labels.push('e1', 'e2');
      } else if (g.length === 2) {
        const [g1, g2] = g;
        if (g1.kind === 'hinge' && g2.kind === 'hinge') {
          const c1 = prim('A', true, g1.anchor), c2 = prim('B', true, g2.anchor);
          // |r − a(a·r)| = √(r·r − (a·r)²), r = c2_B − c1_A
          rows.push((s, o) => {
            subJet(c2, c1, r1);
            dotJet(r1, r1, t, 0);
            dotJet(aA, r1, t, 3);
            const q0 = t[0] - t[3] * t[3];
            const q1 = t[1] - 2 * t[3] * t[4];
            const q2 = t[2] - 2 * (t[4] * t[4] + t[3] * t[5]);
            const v = Math.sqrt(Math.max(q0, 0));
            s[o] = v;
            s[o + 1] = v > 0 ? q1 / (2 * v) : 0;
            s[o + 2] = v > 0 ? q2 / (2 * v) - (q1 * q1) / (4 * v * v * v) : 0;
          });
          labels.push('ρ');
        } else if (g1.kind === 'slider' && g2.kind === 'hinge') {
          const n = cross3(p.axis, g1.axis);
          rows.push(offsetRow(prim('A', false, n), prim('B', true, g2.anchor), prim('A', true, g2.anchor)));
          labels.push('ℓ');
        } else if (g1.kind === 'hinge' && g2.kind === 'slider') {
          const n = cross3(p.axis, g2.axis);
          rows.push(offsetRow(prim('B', false, n), prim('A', true, g1.anchor), prim('B', true, g1.anchor)));
          labels.push('ℓ');
        }
      }
    } else if (p.kind === 'skew') {
      const a = prim('A', false, p.axisA), c1 = prim('A', true, p.anchorA);
      const u = prim('B', false, p.axisB), c2 = prim('B', true, p.anchorB);
      rows.push(
        dotRow(a, u),
        offsetRow(a, c2, c1),
        offsetRow(u, c2, c1),
        (s, o) => {
          crossJet(a, u, r2);
          subJet(c2, c1, r1);
          dotJet(r2, r1, s, o);
        },
      );
      labels.push('∠', 'h', 't', 'm');
    } else if (p.kind === 'rotation') {
      this.rotation = makeRotationChain(p.axes, p.anchors, p.slides, a0, b0);
      labels.push(...(p.slides.length ? ['n1', 'n2'].slice(0, 3 - p.slides.length) : ['x', 'y', 'z']));
    }
    this.rows = this.rotation ? rotationChainRows(this.rotation) : this.angularRows + rows.length;
    this.rowLabels = labels;
    this.s = new Float64Array(rows.length * 3);
    // The value at the initial state, subtracted so that C = 0 there.
    this.ref = new Float64Array(rows.length);
    this.pass(a0.R, a0.p, this.zero, this.zero, b0.R, b0.p, this.zero, this.zero);
    for (let i = 0; i < rows.length; i++) this.ref[i] = this.s[i * 3];
  }

  /** Fill every primitive's jet and every jet row's (value, rate, second rate) for these velocities. */
  private pass(RA: Mat3, pA: Vec3, vA: Vec3, wA: Vec3, RB: Mat3, pB: Vec3, vB: Vec3, wB: Vec3): void {
    for (const q of this.prims) {
      const A = q.body === 'A';
      if (q.point) pointJet(A ? RA : RB, A ? pA : pB, A ? vA : vB, A ? wA : wB, q.local, q.jet);
      else dirJet(A ? RA : RB, A ? wA : wB, q.local, q.jet);
    }
    const rows = this.jetRows, s = this.s;
    for (let i = 0; i < rows.length; i++) rows[i](s, i * 3);
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    if (this.rotation) {
      evaluateRotationChain(this.rotation, a, b, out, 0);
      return;
    }
    const n0 = this.angularRows;
    if (n0 > 0) {
      angularKinematics(a, b, this.qRel0, this.ang);
      for (let i = 0; i < n0; i++) writeAngularRow(this.ang, i, i, out);
    }
    const m = this.jetRows.length, s = this.s;
    if (m === 0) return;
    this.pass(a.R, a.p, a.v, a.w, b.R, b.p, b.v, b.w);
    for (let i = 0; i < m; i++) {
      out.C[n0 + i] = s[i * 3] - this.ref[i];
      out.Jdotv[n0 + i] = s[i * 3 + 2];
    }
    // Ċ is linear in the velocities: the rate for a unit velocity is a Jacobian column.
    const z = this.zero, e = this.unit;
    for (let c = 0; c < 12; c++) {
      e[0] = 0; e[1] = 0; e[2] = 0;
      e[c % 3] = 1;
      const k = c % 6, onA = c < 6, linear = k < 3;
      this.pass(a.R, a.p, onA && linear ? e : z, onA && !linear ? e : z, b.R, b.p, !onA && linear ? e : z, !onA && !linear ? e : z);
      const J = onA ? out.JA : out.JB;
      for (let i = 0; i < m; i++) J[(n0 + i) * 6 + k] = s[i * 3 + 1];
    }
  }
}

const cross3 = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
