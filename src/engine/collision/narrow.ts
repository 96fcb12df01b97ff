// Narrow-phase dispatch: one routine per unordered pair of shape types, written for one order
// (sphere < capsule < box < cylinder < ellipsoid < convex < plane); the other order swaps A and B
// and flips the normal. Pairs without a dedicated routine go to GJK/EPA (one contact).
import { boxBox } from './boxbox';
import { capsuleBox, sphereBox } from './box';
import { gjkContact } from './gjk';
import { boxPlane, capsulePlane, spherePlane } from './plane';
import { convexPlane, cylinderPlane, ellipsoidPlane } from './planeConvex';
import { swapRaw, type PosedShape, type RawContact } from './pose';
import { capsuleCapsule, sphereCapsule, sphereSphere } from './round';
import type { ShapeType } from '../scene/contactSpec';

type Routine = (a: PosedShape, b: PosedShape, margin: number, out: RawContact[]) => void;

const RANK: Readonly<Record<ShapeType, number>> = { sphere: 0, capsule: 1, box: 2, cylinder: 3, ellipsoid: 4, convex: 5, plane: 6 };

const ROUTINES: Readonly<Record<string, Routine>> = {
  'sphere-sphere': sphereSphere,
  'sphere-capsule': sphereCapsule,
  'sphere-box': sphereBox,
  'sphere-plane': spherePlane,
  'capsule-capsule': capsuleCapsule,
  'capsule-box': capsuleBox,
  'capsule-plane': capsulePlane,
  'box-box': boxBox,
  'box-plane': boxPlane,
  'cylinder-plane': cylinderPlane,
  'ellipsoid-plane': ellipsoidPlane,
  'convex-plane': convexPlane,
};

/**
 * Contacts between two posed shapes with gap ≤ margin: witness points, normal from B to A, gap.
 * Plane–plane pairs have none (two world planes never collide).
 */
export function collideShapes(a: PosedShape, b: PosedShape, margin: number): RawContact[] {
  const out: RawContact[] = [];
  const ta = a.shape.type;
  const tb = b.shape.type;
  if (ta === 'plane' && tb === 'plane') return out;
  if (RANK[ta] <= RANK[tb]) {
    (ROUTINES[`${ta}-${tb}`] ?? gjkContact)(a, b, margin, out);
    return out;
  }
  (ROUTINES[`${tb}-${ta}`] ?? gjkContact)(b, a, margin, out);
  return out.map(swapRaw);
}
