// MuJoCo joints between a body and its parent → one constraint of the engine's maximal coordinates.
// The joints of a body (and of massless bodies merged on the way up to its parent) act in sequence;
// at the initial state MuJoCo gives every joint's world anchor (xanchor) and axis (xaxis): the first
// hinge's axis turns with the parent, the last one's with the child.
//   none → fixed (weld) · free → none · ball → ball · hinge → hinge · slide → slider
//   2 hinges through one point → universal (ball + the angle between the axes)
//   3 hinges through one point with independent axes → ball
//   (both with the hinges as the constraint's `hinges`: each keeps its angle, limits and forces)
//   any other hinges and slides → chain (slides only, parallel hinges with slides along or across
//     them, two hinges whose axes miss each other: the engine's closed forms, scene/chainPattern.ts)
//   anything else → unsupported (the body is left free, with a diagnostic)
import { formatNumber } from '../shared';
import { classifyJointChain } from '../engine';
import type { JointType, Vec3 } from './mujoco';
import { cross, dot, norm, scale, sub } from './geometry';

export interface ChainJoint {
  id: number;
  name: string;
  type: JointType;
  /** World anchor and unit axis at the initial state. */
  anchor: Vec3;
  axis: Vec3;
}

type ChainKind =
  | { kind: 'fixed' }
  | { kind: 'free' }
  | { kind: 'ball'; point: Vec3; hinges?: ChainJoint[] }
  | { kind: 'hinge'; point: Vec3; axis: Vec3 }
  | { kind: 'slider'; point: Vec3; axis: Vec3 }
  | { kind: 'universal'; point: Vec3; axisA: Vec3; axisB: Vec3; hinges: ChainJoint[] }
  | { kind: 'chain'; joints: ChainJoint[] }
  | { kind: 'unsupported'; reason: string };

/** Relative tolerance for "the axes meet in one point". */
const MEET_TOLERANCE = 1e-9;

/** The point closest to all lines (x_k + t·a_k) in the least-squares sense, and the largest distance to a line. */
function commonPoint(joints: readonly ChainJoint[]): { point: Vec3; distance: number } | undefined {
  // Σ (I − a aᵀ) x = Σ (I − a aᵀ) x_k
  const M = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const r: Vec3 = [0, 0, 0];
  for (const j of joints) {
    const a = j.axis;
    for (let i = 0; i < 3; i++) {
      for (let k = 0; k < 3; k++) {
        const p = (i === k ? 1 : 0) - a[i] * a[k];
        M[i * 3 + k] += p;
        r[i] += p * j.anchor[k];
      }
    }
  }
  const det =
    M[0] * (M[4] * M[8] - M[5] * M[7]) - M[1] * (M[3] * M[8] - M[5] * M[6]) + M[2] * (M[3] * M[7] - M[4] * M[6]);
  if (!(Math.abs(det) > 1e-12)) return undefined; // parallel axes: no single point
  const inv = [
    M[4] * M[8] - M[5] * M[7], M[2] * M[7] - M[1] * M[8], M[1] * M[5] - M[2] * M[4],
    M[5] * M[6] - M[3] * M[8], M[0] * M[8] - M[2] * M[6], M[2] * M[3] - M[0] * M[5],
    M[3] * M[7] - M[4] * M[6], M[1] * M[6] - M[0] * M[7], M[0] * M[4] - M[1] * M[3],
  ].map((x) => x / det);
  const point: Vec3 = [
    inv[0] * r[0] + inv[1] * r[1] + inv[2] * r[2],
    inv[3] * r[0] + inv[4] * r[1] + inv[5] * r[2],
    inv[6] * r[0] + inv[7] * r[1] + inv[8] * r[2],
  ];
  let distance = 0;
  for (const j of joints) {
    const d = sub(point, j.anchor);
    distance = Math.max(distance, norm(sub(d, scale(j.axis, dot(d, j.axis)))));
  }
  return { point, distance };
}

const describe = (chain: readonly ChainJoint[]): string => chain.map((j) => `${j.type} \`${j.name}\``).join(', ');

/** Classify the joints between a body and its parent (in MuJoCo's order of application). */
export function classifyChain(chain: readonly ChainJoint[], lengthScale: number): ChainKind {
  const kind = classifySimple(chain, lengthScale);
  if (kind.kind !== 'unsupported' || !chain.every((j) => j.type === 'hinge' || j.type === 'slide')) return kind;
  const pattern = classifyJointChain(
    chain.map((j) => ({ type: j.type === 'hinge' ? 'hinge' : 'slider', axis: j.axis, anchor: j.anchor })),
    lengthScale,
  );
  if (pattern.kind === 'error') return { kind: 'unsupported', reason: `${describe(chain)}: ${pattern.reason.replace(/^[^:]*: /, '')}` };
  return { kind: 'chain', joints: [...chain] };
}

/** The joint types of the engine that one joint, a weld, or hinges through one point map to. */
function classifySimple(chain: readonly ChainJoint[], lengthScale: number): ChainKind {
  if (chain.length === 0) return { kind: 'fixed' };
  const only = chain.length === 1 ? chain[0] : undefined;
  if (only?.type === 'free') return { kind: 'free' };
  if (only?.type === 'ball') return { kind: 'ball', point: only.anchor };
  if (only?.type === 'hinge') return { kind: 'hinge', point: only.anchor, axis: only.axis };
  if (only?.type === 'slide') return { kind: 'slider', point: only.anchor, axis: only.axis };
  const allHinges = chain.every((j) => j.type === 'hinge');
  if (!allHinges || chain.length > 3) {
    return { kind: 'unsupported', reason: `${describe(chain)}: only one hinge, slide, ball or free joint, no joint (a weld), or two or three hinges whose axes meet in one point can be represented` };
  }
  const meet = commonPoint(chain);
  if (!meet) return { kind: 'unsupported', reason: `${describe(chain)}: the hinge axes are parallel, so they do not meet in one point` };
  if (meet.distance > MEET_TOLERANCE * Math.max(1, lengthScale)) {
    return { kind: 'unsupported', reason: `${describe(chain)}: the hinge axes do not meet in one point (they miss it by ${formatNumber(meet.distance, 3)} m)` };
  }
  if (chain.length === 2) return { kind: 'universal', point: meet.point, axisA: chain[0].axis, axisB: chain[1].axis, hinges: [...chain] };
  const [a, b, c] = chain.map((j) => j.axis);
  if (Math.abs(dot(cross(a, b), c)) < 1e-9) return { kind: 'unsupported', reason: `${describe(chain)}: the three hinge axes lie in one plane, so they do not span all rotations` };
  return { kind: 'ball', point: meet.point, hinges: [...chain] };
}
