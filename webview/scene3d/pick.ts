// Picking: a ray against the instanced meshes (a contact glyph the ray meets wins, as contacts are
// drawn through the bodies; otherwise the front-most body or constraint glyph), then, for thin
// things the ray misses, the nearest projected contact point, body centre or constraint segment
// within a few pixels.
import { Raycaster, Vector2, Vector3, type Camera } from 'three';
import type { Glyphs } from './glyphs';
import { poseOf, type Frame, type SceneData } from './model';
import type { Target } from './selection';

export type { Target };

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
  let front: Target | undefined;
  for (const hit of ray.intersectObjects(meshes, false)) {
    const g = hit.object.userData.glyphs as Glyphs | undefined;
    if (!g || hit.instanceId === undefined || g.kind === 'none') continue;
    const id = g.idAt(hit.instanceId);
    if (id < 0) continue;
    if (g.kind === 'contact') return { kind: 'contact', index: id };
    front ??= { kind: g.kind, index: id };
  }
  // Near misses: contact points within 8 px (they sit on the bodies' surfaces: before the bodies).
  let best: Target | undefined;
  let bd = 8;
  frame.contacts.forEach((c, k) => {
    const s = project(camera, c.point, w, h);
    if (!s) return;
    const d = Math.hypot(s.x - x, s.y - y);
    if (d < bd) [bd, best] = [d, { kind: 'contact', index: k }];
  });
  if (best || front) return best ?? front;
  // Bodies within 10 px, constraint segments within 7 px.
  bd = 10;
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
