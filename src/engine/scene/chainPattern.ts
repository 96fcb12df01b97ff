// Which closed form a chain of hinges and slides between two bodies has (model/chain.ts builds the
// rows). The joints act in sequence, as MuJoCo applies a body's joints: the first one's axis turns
// with the parent, the last one's with the child. Three structures have exact closed forms:
//   slides: slides only — the orientation is locked, the anchor moves in the span of the slides;
//   parallel: every hinge about one direction a, every slide along a or perpendicular to it — the
//     motion is a planar motion in the plane ⊥ a, plus a translation along a when a slide is axial;
//   skew: two hinges whose axes are not parallel (meeting or not: MuJoCo's offset ankles);
//   rotation: three hinges whose axes are independent (meeting or not: dm_control's dog's scapulas), and
//     up to two slides among them — every rotation is allowed, and the translation is the one the hinge
//     angles of that rotation give, plus any along the slides.
// Anything else is refused with a reason (`error`), which the scene parser and the importer report.
import type { Vec3 } from '../types';

export interface ChainJointInput {
  type: 'hinge' | 'slider';
  /** Unit axis and anchor, both in one common frame (the parent's, at the reference state). */
  axis: Vec3;
  anchor: Vec3;
}

/** One generator of the in-plane motion of the parallel pattern, in chain order. */
export type PlanarGenerator = { kind: 'hinge'; anchor: Vec3 } | { kind: 'slider'; axis: Vec3 };

export type ChainPattern =
  | { kind: 'slides'; rank: number; /** unit normals of the span of the slides (3 − rank of them) */ normals: Vec3[] }
  | { kind: 'parallel'; axis: Vec3; axialSlide: boolean; planar: PlanarGenerator[]; planarRank: number }
  | { kind: 'skew'; axisA: Vec3; anchorA: Vec3; axisB: Vec3; anchorB: Vec3 }
  | {
      kind: 'rotation';
      /** the three hinges' unit axes and anchors, in chain order */
      axes: Vec3[];
      anchors: Vec3[];
      /** up to two slides: unit axis and how many of the hinges act before it */
      slides: { axis: Vec3; after: number }[];
    }
  | { kind: 'error'; reason: string };

/** |sin| below which two directions count as parallel, |cos| below which as perpendicular. */
export const CHAIN_ANGLE_TOLERANCE = 1e-6;
/** Relative distance below which two hinge lines coincide. */
export const CHAIN_LINE_TOLERANCE = 1e-9;

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const unit = (a: Vec3): Vec3 => scale(a, 1 / norm(a));

/** Orthonormal directions spanning the complement of span(dirs) (Gram–Schmidt with a rank tolerance). */
export function complementBasis(dirs: readonly Vec3[]): { rank: number; basis: Vec3[]; normals: Vec3[] } {
  const basis: Vec3[] = [];
  const reduce = (v: Vec3): Vec3 => {
    let r = v;
    for (const e of basis) r = sub(r, scale(e, dot(r, e)));
    return r;
  };
  for (const d of dirs) {
    const r = reduce(d);
    if (norm(r) > CHAIN_ANGLE_TOLERANCE * Math.max(1, norm(d))) basis.push(unit(r));
  }
  const rank = basis.length;
  const normals: Vec3[] = [];
  for (const e of [[1, 0, 0], [0, 1, 0], [0, 0, 1]] as Vec3[]) {
    if (basis.length === 3) break;
    const r = reduce(e);
    if (norm(r) > 0.5) {
      const n = unit(r);
      basis.push(n);
      normals.push(n);
    }
  }
  return { rank, basis: basis.slice(0, rank), normals };
}

/** The distance between the line through p along the unit a and the point x, in the plane ⊥ a. */
const lineDistance = (p: Vec3, a: Vec3, x: Vec3): number => {
  const d = sub(x, p);
  return norm(sub(d, scale(a, dot(d, a))));
};

const describe = (joints: readonly ChainJointInput[]): string => joints.map((j) => j.type).join(' + ');

/** Classify a chain of 1–6 hinges and slides; `lengthScale` sets the tolerance on distances. */
export function classifyJointChain(joints: readonly ChainJointInput[], lengthScale = 1): ChainPattern {
  if (joints.length === 0) return { kind: 'error', reason: 'the chain has no joints' };
  if (joints.length > 6) return { kind: 'error', reason: `${joints.length} joints: a chain between two bodies has at most 6 (more can only repeat a motion)` };
  const hinges = joints.filter((j) => j.type === 'hinge');
  const slides = joints.filter((j) => j.type === 'slider');
  const tol = CHAIN_LINE_TOLERANCE * Math.max(1, lengthScale);

  if (hinges.length === 0) {
    const { rank, normals } = complementBasis(slides.map((s) => s.axis));
    return { kind: 'slides', rank, normals };
  }

  const a = hinges[0].axis;
  const parallel = hinges.every((h) => norm(cross(h.axis, a)) < CHAIN_ANGLE_TOLERANCE);
  if (!parallel) {
    if (joints.length === 2 && slides.length === 0) {
      return { kind: 'skew', ...commonPerpendicular(joints[0], joints[1]) };
    }
    if (hinges.length === 3 && slides.length <= 2) {
      const [a1, a2, a3] = hinges.map((h) => unit(h.axis));
      if (!(Math.abs(dot(a1, cross(a2, a3))) > CHAIN_ANGLE_TOLERANCE)) {
        return { kind: 'error', reason: `${describe(joints)}: the three hinge axes lie in one plane but are not parallel, so the chain is not a planar motion and does not span all rotations` };
      }
      if (slides.length === 2 && !(norm(cross(slides[0].axis, slides[1].axis)) > CHAIN_ANGLE_TOLERANCE)) {
        return { kind: 'error', reason: `${describe(joints)}: the two slides are parallel, so the joints allow less motion than their number` };
      }
      let seen = 0;
      const placed = joints.flatMap((j) => (j.type === 'hinge' ? (seen++, []) : [{ axis: unit(j.axis), after: seen }]));
      return { kind: 'rotation', axes: [a1, a2, a3], anchors: hinges.map((h) => [...h.anchor] as Vec3), slides: placed };
    }
    return {
      kind: 'error',
      reason: `${describe(joints)}: hinges about different directions are only supported as two hinges (with no slides) or as three hinges with independent axes (with at most two slides); this chain has no closed form here`,
    };
  }
  const oblique = slides.find((s) => Math.abs(dot(s.axis, a)) > CHAIN_ANGLE_TOLERANCE && norm(cross(s.axis, a)) > CHAIN_ANGLE_TOLERANCE);
  if (oblique) {
    return { kind: 'error', reason: `${describe(joints)}: a slide is neither along the hinges' axis nor perpendicular to it, so the chain is not a planar or cylindrical motion` };
  }
  // The in-plane generators in order, dropping repeats (a hinge on the line of an earlier one, a
  // slide parallel to an earlier one): they allow no further motion.
  const planar: PlanarGenerator[] = [];
  let axialSlide = false;
  for (const j of joints) {
    if (j.type === 'slider') {
      if (norm(cross(j.axis, a)) < CHAIN_ANGLE_TOLERANCE) {
        axialSlide = true;
        continue;
      }
      const s = unit(sub(j.axis, scale(a, dot(j.axis, a))));
      if (planar.some((g) => g.kind === 'slider' && norm(cross(g.axis, s)) < CHAIN_ANGLE_TOLERANCE)) continue;
      planar.push({ kind: 'slider', axis: s });
    } else {
      if (planar.some((g) => g.kind === 'hinge' && lineDistance(g.anchor, a, j.anchor) < tol)) continue;
      planar.push({ kind: 'hinge', anchor: j.anchor });
    }
  }
  // Rank of the in-plane twists (ω, v) in a basis (e1, e2) of the plane: a hinge through c gives
  // (1, c×a), a slide s gives (0, s); lengths divided by the model's scale to balance the units.
  const [e1, e2] = complementBasis([a]).normals;
  const L = Math.max(1, lengthScale);
  const rows = planar.map((g): Vec3 => {
    if (g.kind === 'slider') return [0, dot(g.axis, e1), dot(g.axis, e2)];
    const v = cross(g.anchor, a);
    return [1, dot(v, e1) / L, dot(v, e2) / L];
  });
  const planarRank = complementBasis(rows).rank;
  if (planarRank < Math.min(planar.length, 3)) {
    return { kind: 'error', reason: `${describe(joints)}: the joints allow less in-plane motion than their number (${planarRank} of ${Math.min(planar.length, 3)}): a degenerate chain` };
  }
  return { kind: 'parallel', axis: a, axialSlide, planar, planarRank };
}

/** The two hinge lines and the feet of their common perpendicular (the anchors the skew rows use). */
function commonPerpendicular(j1: ChainJointInput, j2: ChainJointInput): { axisA: Vec3; anchorA: Vec3; axisB: Vec3; anchorB: Vec3 } {
  const a = j1.axis, u = j2.axis, w = sub(j1.anchor, j2.anchor);
  const c = dot(a, u), s2 = 1 - c * c;
  // min |j1.anchor + t a − (j2.anchor + r u)|: t = (c (u·w) − a·w)/s², r = ((u·w) − c (a·w))/s²
  const t = (c * dot(u, w) - dot(a, w)) / s2;
  const r = (dot(u, w) - c * dot(a, w)) / s2;
  return { axisA: a, anchorA: [j1.anchor[0] + t * a[0], j1.anchor[1] + t * a[1], j1.anchor[2] + t * a[2]], axisB: u, anchorB: [j2.anchor[0] + r * u[0], j2.anchor[1] + r * u[1], j2.anchor[2] + r * u[2]] };
}
