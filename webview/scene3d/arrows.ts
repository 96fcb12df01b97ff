// Force glyphs: each constraint's force (at its anchor) and torque (about the body's centre of
// mass, double-headed) on each end, scaled by magnitude; contacts as points with a normal-force
// arrow and a friction arrow, coloured open / stick / slip. Lengths are |F|·scale (metres per
// newton); the legend (overlay.ts) shows what a reference arrow means.
import { Group, MeshLambertMaterial } from 'three';
import type { RGB } from '../theme';
import { Glyphs, type GeometryKit } from './glyphs';
import { add3, norm3, quatFromY, scale3, type Q4, type V3 } from './math';
import { poseOf, type Frame, type SceneData } from './model';
import type { Palette3D } from './palette';
import type { ForceMode } from './describe';

export interface ArrowScales {
  /** Metres of arrow per newton and per newton-metre. */
  force: number;
  torque: number;
}

export class ArrowLayer {
  readonly group = new Group();
  private readonly mat = new MeshLambertMaterial({ color: 0xffffff });
  private readonly shaft: Glyphs;
  private readonly head: Glyphs;
  private readonly dot: Glyphs;
  private readonly sets: Glyphs[];

  constructor(kit: GeometryKit) {
    // Arrows and contact points are not picked: a click goes through them to the body or joint.
    this.shaft = new Glyphs(this.group, kit.rod, this.mat, 'none');
    this.head = new Glyphs(this.group, kit.cone, this.mat, 'none');
    this.dot = new Glyphs(this.group, kit.dot, this.mat, 'none');
    this.sets = [this.shaft, this.head, this.dot];
  }

  /** An arrow from `o` along `v` (its length in metres); `double`: a torque's two heads. */
  private arrow(o: V3, v: V3, u: number, col: RGB, id: number, double = false): void {
    const len = norm3(v);
    if (!(len > u * 0.05) || !Number.isFinite(len)) return;
    const d = scale3(v, 1 / len);
    const q: Q4 = quatFromY(d);
    const hl = Math.min(u * 1.8, len * 0.4);
    const hr = hl * 0.36;
    const two = double && len > hl * 2.6; // a torque's second head, when there is room for it
    const sl = len - hl * (two ? 1.6 : 1);
    const r = u * 0.2;
    if (sl > 0) this.shaft.add(o, q, [r, sl, r], col, id);
    this.head.add(add3(o, scale3(d, len - hl)), q, [hr, hl, hr], col, id);
    if (two) this.head.add(add3(o, scale3(d, len - hl * 1.8)), q, [hr, hl, hr], col, id);
  }

  update(data: SceneData, frame: Frame, pal: Palette3D, u: number, scales: ArrowScales, mode: ForceMode, selected: number): void {
    for (const s of this.sets) s.begin();
    if (frame.forces && mode !== 'off') {
      frame.forces.forEach((f, i) => {
        if (mode === 'selected' && i !== selected) return;
        const c = data.constraints[i];
        const ends: [number, V3, V3, V3][] = [
          [c.a, frame.anchorA[i], f.forceA, f.torqueA],
          [c.b, frame.anchorB[i], f.forceB, f.torqueB],
        ];
        for (const [body, anchor, F, T] of ends) {
          this.arrow(anchor, scale3(F, scales.force), u, pal.force, i);
          if (body >= 0) this.arrow(poseOf(frame.poses, body).p, scale3(T, scales.torque), u, pal.torque, i, true);
        }
      });
    }
    if (mode !== 'off') {
      frame.contacts.forEach((c, k) => {
        const col = pal.contact[c.state];
        this.dot.add(c.point, [0, 0, 0, 1], [u * 0.7, u * 0.7, u * 0.7], col, k);
        if (c.normalForce !== undefined && c.normalForce > 0) this.arrow(c.point, scale3(c.normal, c.normalForce * scales.force), u, col, -1);
        else this.arrow(c.point, scale3(c.normal, u * 3), u * 0.6, col, -1); // no force reported (or open): the normal only
        if (c.friction) {
          const ft = add3(scale3(c.t1, c.friction[0]), scale3(c.t2, c.friction[1]));
          this.arrow(c.point, scale3(ft, scales.force), u * 0.8, col, -1);
        }
      });
    }
    for (const s of this.sets) s.end();
  }

  dispose(): void {
    for (const s of this.sets) s.dispose();
    this.mat.dispose();
  }
}
