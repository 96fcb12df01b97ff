// A tendon's length L over the bodies' poses, its rate L̇ and its Jacobian per body, exact at any state
// (docs/formulas.md, "Tendons"):
//   fixed    L = Σ_i coef_i·q_i    q_i a joint coordinate on its own scale (any `TendonCoordinate`:
//            a hinge's or slider's from jointCoordinate.ts), J = Σ_i coef_i·J_{q_i}
//   spatial  L = Σ_k |x_{k+1} − x_k|,  x_k = p_b + R_b·s_k (points fixed in bodies: MuJoCo's sites),
//            e_k = (x_{k+1} − x_k)/|x_{k+1} − x_k|;  L̇ = Σ_k e_k·(ẋ_{k+1} − ẋ_k) with ẋ = v + ω×r,
//            r = x − p_b, and e·(ω×r) = ω·(r×e): the body of x_{k+1} gets [e_k, r×e_k], that of x_k
//            −[e_k, r×e_k]. A segment of zero length has no direction: it adds nothing (as MuJoCo's).
// The Jacobian is kept per body (scene index, −1 the world), 6 entries [v, ω] each, so that the rows
// and forces along L (contact/tendonRows.ts, model/tendonForces.ts) act on every body the tendon spans.
import type { Vec3 } from '../types';
import type { Pose } from './constraint';

/**
 * One coordinate a fixed tendon sums: its value on its own scale, rate and 1×12 Jacobian between two
 * ends (body indices, −1 the world) at the ends' poses. Any joint coordinate fits: a lone hinge's or
 * slider's (jointCoordinate.ts), or one hinge of a combined joint once it has a coordinate of its own.
 */
export interface TendonCoordinate {
  readonly endA: number;
  readonly endB: number;
  q: number;
  qd: number;
  readonly JA: Float64Array;
  readonly JB: Float64Array;
  evaluate(a: Pose, b: Pose): void;
  /** Forget any branch kept from earlier evaluations (a run starting again). */
  restart?(): void;
}

export interface TendonTerm {
  coordinate: TendonCoordinate;
  coef: number;
}

/** A point of a spatial tendon: its body (−1: the world) and its position in that body's frame. */
export interface TendonPoint {
  body: number;
  local: Vec3;
}

export class TendonLength {
  L = 0;
  Ld = 0;
  /** The bodies the tendon spans (scene indices, −1 the world), each once. */
  readonly bodies: number[];
  /** 6 Jacobian entries [v, ω] per body of `bodies`, after `evaluate`. */
  readonly J: Float64Array;
  private readonly slotOf = new Map<number, number>();

  constructor(
    private readonly terms: readonly TendonTerm[],
    private readonly points: readonly TendonPoint[],
  ) {
    const bodies: number[] = [];
    const add = (b: number) => {
      if (!this.slotOf.has(b)) {
        this.slotOf.set(b, bodies.length);
        bodies.push(b);
      }
    };
    for (const t of terms) {
      add(t.coordinate.endA);
      add(t.coordinate.endB);
    }
    for (const p of points) add(p.body);
    this.bodies = bodies;
    this.J = new Float64Array(6 * bodies.length);
  }

  restart(): void {
    for (const t of this.terms) t.coordinate.restart?.();
  }

  /** L, L̇ and J at the bodies' poses (`pose(−1)`: the world's). */
  evaluate(pose: (body: number) => Pose): void {
    const J = this.J;
    J.fill(0);
    let L = 0, Ld = 0;
    for (const { coordinate: c, coef } of this.terms) {
      c.evaluate(pose(c.endA), pose(c.endB));
      L += coef * c.q;
      Ld += coef * c.qd;
      const oa = 6 * this.slotOf.get(c.endA)!, ob = 6 * this.slotOf.get(c.endB)!;
      for (let k = 0; k < 6; k++) {
        J[oa + k] += coef * c.JA[k];
        J[ob + k] += coef * c.JB[k];
      }
    }
    const pts = this.points;
    if (pts.length > 1) {
      const x: Vec3[] = [], r: Vec3[] = [], xd: Vec3[] = [];
      for (const pt of pts) {
        const P = pose(pt.body);
        const R = P.R, s = pt.local;
        const rr: Vec3 = [R[0] * s[0] + R[1] * s[1] + R[2] * s[2], R[3] * s[0] + R[4] * s[1] + R[5] * s[2], R[6] * s[0] + R[7] * s[1] + R[8] * s[2]];
        r.push(rr);
        x.push([P.p[0] + rr[0], P.p[1] + rr[1], P.p[2] + rr[2]]);
        const w = P.w;
        xd.push([P.v[0] + w[1] * rr[2] - w[2] * rr[1], P.v[1] + w[2] * rr[0] - w[0] * rr[2], P.v[2] + w[0] * rr[1] - w[1] * rr[0]]);
      }
      for (let k = 0; k + 1 < pts.length; k++) {
        const d: Vec3 = [x[k + 1][0] - x[k][0], x[k + 1][1] - x[k][1], x[k + 1][2] - x[k][2]];
        const len = Math.hypot(d[0], d[1], d[2]);
        L += len;
        if (!(len > 1e-15)) continue;
        const e: Vec3 = [d[0] / len, d[1] / len, d[2] / len];
        Ld += e[0] * (xd[k + 1][0] - xd[k][0]) + e[1] * (xd[k + 1][1] - xd[k][1]) + e[2] * (xd[k + 1][2] - xd[k][2]);
        this.addPoint(pts[k + 1].body, r[k + 1], e, 1);
        this.addPoint(pts[k].body, r[k], e, -1);
      }
    }
    this.L = L;
    this.Ld = Ld;
  }

  /** J of `body` += s·[e, r×e]. */
  private addPoint(body: number, r: Vec3, e: Vec3, s: number): void {
    const o = 6 * this.slotOf.get(body)!, J = this.J;
    J[o] += s * e[0];
    J[o + 1] += s * e[1];
    J[o + 2] += s * e[2];
    J[o + 3] += s * (r[1] * e[2] - r[2] * e[1]);
    J[o + 4] += s * (r[2] * e[0] - r[0] * e[2]);
    J[o + 5] += s * (r[0] * e[1] - r[1] * e[0]);
  }
}
