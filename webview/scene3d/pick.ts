// Picking: a ray against the instanced meshes (the front-most body, constraint glyph or contact),
// then, for thin things the ray misses, the nearest projected body centre or constraint segment
// within a few pixels.
import { Raycaster, Vector2, Vector3, type Camera } from 'three';
import type { Glyphs, PickKind } from './glyphs';
import { poseOf, type Frame, type SceneData } from './model';

export interface Target {
  kind: Exclude<PickKind, 'none'>;
  index: number;
}

const ray = new Raycaster();
const ndc = new Vector2();
const v = new Vector3();

/** CSS pixel position of a world point in a viewport of w × h (undefined behind the camera). */
export function project(camera: Camera, p: readonly number[], w: number, h: number): { x: number; y: number } | undefined {
  v.set(p[0], p[1], p[2]).project(camera);
  if (!(v.z >= -1 && v.z <= 1) || !Number.isFinite(v.x) || !Number.isFinite(v.y)) return undefined;
  return { x: ((v.x + 1) / 2) * w, y: ((1 - v.y) / 2) * h };
}

export function pick(camera: Camera, sets: Glyphs[], data: SceneData, frame: Frame, x: number, y: number, w: number, h: number): Target | undefined {
  ndc.set((x / w) * 2 - 1, 1 - (y / h) * 2);
  ray.setFromCamera(ndc, camera);
  const meshes = sets.filter((s) => s.count > 0 && s.mesh.visible).map((s) => s.mesh);
  for (const hit of ray.intersectObjects(meshes, false)) {
    const g = hit.object.userData.glyphs as Glyphs | undefined;
    if (!g || hit.instanceId === undefined || g.kind === 'none') continue;
    const id = g.idAt(hit.instanceId);
    if (id >= 0) return { kind: g.kind, index: id };
  }
  // Near misses: bodies within 10 px, constraint segments within 7 px.
  let best: Target | undefined;
  let bd = 10;
  data.bodies.forEach((_, i) => {
    const s = project(camera, poseOf(frame.poses, i).p, w, h);
    if (!s) return;
    const d = Math.hypot(s.x - x, s.y - y);
    if (d < bd) [bd, best] = [d, { kind: 'body', index: i }];
  });
  if (best) return best;
  bd = 7;
  data.constraints.forEach((_, i) => {
    const a = project(camera, frame.anchorA[i], w, h);
    const b = project(camera, frame.anchorB[i], w, h);
    if (!a || !b) return;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy || 1)));
    const d = Math.hypot(a.x + t * dx - x, a.y + t * dy - y);
    if (d < bd) [bd, best] = [d, { kind: 'constraint', index: i }];
  });
  return best;
}
