// Trails: the recorded positions of the bodies' centres over the run, up to the shown step (one
// line-segment buffer in step order, so a step is a draw range). Never recomputed: the history's poses.
import { BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineSegments, SRGBColorSpace } from 'three';
import type { RunRecords, SceneData } from './model';
import type { Palette3D } from './palette';

export type TrailMode = 'off' | 'selected' | 'all';

/** Above this many segments, "all" trails fall back to the selected body's. */
const MAX_TRAIL_SEGMENTS = 400_000;

export class TrailLayer {
  readonly group = new Group();
  private readonly mat = new LineBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.75 });
  private lines?: LineSegments;
  /** Bodies drawn and the first step of the buffer. */
  private perStep = 0;
  private firstStep = 1;
  /** The mode actually drawn ("all" may fall back to "selected"). */
  effective: TrailMode = 'off';

  build(run: RunRecords, data: SceneData, mode: TrailMode, selected: number): void {
    this.clear();
    const n = data.bodies.length;
    let bodies: number[] = [];
    if (mode === 'all') bodies = data.bodies.map((_, i) => i).filter((i) => !data.bodies[i].fixed);
    if (mode === 'all' && bodies.length * run.length > MAX_TRAIL_SEGMENTS) bodies = [];
    if ((mode === 'selected' || (mode === 'all' && !bodies.length)) && selected >= 0) bodies = [selected];
    this.effective = !bodies.length ? 'off' : bodies.length === 1 && mode === 'all' && n > 1 ? 'selected' : mode;
    // The recorded steps with poses of every body, in order.
    const steps: ArrayLike<number>[] = [];
    let first = 0;
    for (let k = 1; k <= run.length; k++) {
      const p = run.poses(k);
      if (!p || p.length < n * 7) continue;
      if (!steps.length) first = k;
      steps.push(p);
    }
    if (!bodies.length || steps.length < 2) return;
    const pos = new Float32Array((steps.length - 1) * bodies.length * 6);
    let o = 0;
    for (let s = 1; s < steps.length; s++) {
      const a = steps[s - 1];
      const b = steps[s];
      for (const i of bodies) {
        pos.set([a[i * 7], a[i * 7 + 1], a[i * 7 + 2], b[i * 7], b[i * 7 + 1], b[i * 7 + 2]], o);
        o += 6;
      }
    }
    for (let i = 0; i < pos.length; i++) if (!Number.isFinite(pos[i])) pos[i] = 0;
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(pos, 3));
    this.lines = new LineSegments(g, this.mat);
    this.lines.frustumCulled = false;
    this.group.add(this.lines);
    this.perStep = bodies.length;
    this.firstStep = first;
  }

  /** Shows the trail up to step k. */
  setStep(k: number): void {
    if (!this.lines) return;
    const segs = Math.max(0, k - this.firstStep) * this.perStep;
    this.lines.geometry.setDrawRange(0, segs * 2);
  }

  recolor(pal: Palette3D): void {
    this.mat.color.setRGB(pal.trail[0] / 255, pal.trail[1] / 255, pal.trail[2] / 255, SRGBColorSpace);
  }

  private clear(): void {
    if (!this.lines) return;
    this.group.remove(this.lines);
    this.lines.geometry.dispose();
    this.lines = undefined;
  }

  dispose(): void {
    this.clear();
    this.mat.dispose();
  }
}
