// What the scene view draws at a step: body positions and each constraint's two anchors in the
// world frame. The panel and the report draw the same frame. Pure: no vscode, no DOM, no Node APIs.
import type { StepRecord, SystemSnapshot } from '../protocol';

export type V3 = [number, number, number];
type Q = [number, number, number, number];

export interface SceneFrame {
  bodies: { name: string; fixed: boolean; p: V3 }[];
  constraints: {
    index: number;
    name: string;
    status: string;
    a: V3;
    b: V3;
    bodyA: number;
    bodyB: number;
    forceA: V3;
    forceB: V3;
    lambda: number;
  }[];
}

export const norm3 = (v: readonly number[] | undefined): number => (v ? Math.hypot(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0) : 0);

/** v rotated by the unit quaternion q = [x, y, z, w]. */
function rotate(q: Q, v: V3): V3 {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** a ⊗ conj(b), normalised: the rotation taking orientation b to orientation a. */
function relative(a: Q, b: Q): Q {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = [-b[0], -b[1], -b[2], b[3]];
  const q: Q = [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return n > 0 && Number.isFinite(n) ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : [0, 0, 0, 1];
}

/** Where the run's poses come from: records, or anything that can give the poses after a step (the panel's columns). */
export interface PoseSource {
  readonly length: number;
  /** [p(3), q(4)] per body after `step` (1 … length), or undefined when not recorded. */
  posesAt(step: number): ArrayLike<number> | undefined;
}

/** The poses of a history of records. */
export function recordPoses(history: readonly StepRecord[]): PoseSource {
  return { length: history.length, posesAt: (step) => history[step - 1]?.poses };
}

/**
 * The frame at `step`. Body poses come from the snapshot when it is that step, else from the run's
 * history (`poses`). Anchors are known at the snapshot's step only; at another step each anchor
 * follows its body rigidly: anchor = p_k + R_k·R_sᵀ·(anchor_s − p_s), so joints stay joined.
 */
export function frameAt(snapshot: SystemSnapshot, history: readonly StepRecord[] | PoseSource, sceneBodies: readonly { name: string; fixed: boolean }[], step: number): SceneFrame {
  const src = Array.isArray(history) ? recordPoses(history as readonly StepRecord[]) : (history as PoseSource);
  const names = sceneBodies.length ? sceneBodies : snapshot.bodyStates.map((b) => ({ name: b.name, fixed: b.fixed }));
  const useSnap = snapshot.step === step || step === 0 || src.length === 0;
  const poses = step > 0 ? src.posesAt(Math.min(src.length, step)) : undefined;
  const rec = poses ? { poses } : undefined;
  const byName = new Map(snapshot.bodyStates.map((b) => [b.name, b] as const));
  const rot: (Q | undefined)[] = [];
  const bodies = names.map((b, i) => {
    let p: V3 = [0, 0, 0];
    const posed = rec !== undefined && rec.poses.length >= (i + 1) * 7;
    const bs = byName.get(b.name);
    if (!useSnap && posed) {
      const o = i * 7;
      p = [rec.poses[o], rec.poses[o + 1], rec.poses[o + 2]];
      if (bs) rot[i] = relative([rec.poses[o + 3], rec.poses[o + 4], rec.poses[o + 5], rec.poses[o + 6]], bs.orientation);
    } else if (bs) p = [bs.position[0], bs.position[1], bs.position[2]];
    else if (posed) p = [rec.poses[i * 7], rec.poses[i * 7 + 1], rec.poses[i * 7 + 2]];
    return { name: b.name, fixed: b.fixed, p };
  });
  const idx = new Map(bodies.map((b, i) => [b.name, i] as const));
  const follow = (anchor: readonly number[], body: string, i: number): V3 => {
    const at: V3 = [anchor[0], anchor[1], anchor[2]];
    const snapP = byName.get(body)?.position;
    if (useSnap || i < 0 || !snapP) return at;
    const r: V3 = [at[0] - snapP[0], at[1] - snapP[1], at[2] - snapP[2]];
    const q = rot[i];
    const rr = q ? rotate(q, r) : r;
    const p = bodies[i].p;
    return [p[0] + rr[0], p[1] + rr[1], p[2] + rr[2]];
  };
  const constraints = snapshot.constraints.map((c, ci) => {
    const ia = idx.get(c.bodyA) ?? -1;
    const ib = idx.get(c.bodyB) ?? -1;
    const lam = Math.hypot(...c.lambda);
    return { index: ci, name: c.name, status: c.status, a: follow(c.anchorAWorld, c.bodyA, ia), b: follow(c.anchorBWorld, c.bodyB, ib), bodyA: ia, bodyB: ib, forceA: c.forceA, forceB: c.forceB, lambda: lam };
  });
  return { bodies, constraints };
}
