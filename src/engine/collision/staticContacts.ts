// Shapes that touch although neither can move (fixed bodies' shapes, world shapes): detection
// leaves such pairs out (a contact between two immovable ends has nothing to solve), so they are
// looked for separately, at the initial state, for diagnostic CL504. Same broad phase as detection.
import { planePairs, sweepAndPrune } from './broadphase';
import { collisionModel, poseShapes, toContact } from './detect';
import { collideShapes } from './narrow';
import type { Contact } from './contacts';
import type { PlaneShape } from '../scene/contactSpec';
import type { BodyState } from '../model/body';
import type { SceneSpec } from '../scene/spec';
import type { Vec3 } from '../types';

/** At most one contact (the deepest) per pair of touching static shapes of different owners (gap ≤ 0). */
export function candidatePairsStatic(scene: SceneSpec, states: readonly BodyState[]): Contact[] {
  const model = collisionModel(scene);
  if (model.shapes.length < 2 || !model.shapes.some((s) => s.isStatic && s.owner >= 0)) return [];
  const { posed, rotations } = poseShapes(model, states);
  const accept = (i: number, j: number): boolean => {
    const a = model.shapes[i];
    const b = model.shapes[j];
    return a.isStatic && b.isStatic && a.owner !== b.owner;
  };
  const solids: number[] = [];
  const planes: { index: number; plane: PlaneShape }[] = [];
  posed.forEach((p, i) => {
    if (!p || !model.shapes[i].isStatic) return;
    if (p.shape.type === 'plane') planes.push({ index: i, plane: p.shape });
    else solids.push(i);
  });
  const boxes = posed.map((p) => p ?? { lo: [0, 0, 0] as Vec3, hi: [0, 0, 0] as Vec3 });
  const pairs = [...sweepAndPrune(boxes, solids, 0, accept), ...planePairs(boxes, solids, planes, 0, accept)].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out: Contact[] = [];
  for (const [i, j] of pairs) {
    let deepest: Contact | undefined;
    for (const raw of collideShapes(posed[i]!, posed[j]!, 0)) {
      const c = toContact(raw, posed[i]!, posed[j]!, states, rotations);
      if (c && (!deepest || c.gap < deepest.gap)) deepest = c;
    }
    if (deepest) out.push(deepest);
  }
  return out;
}
