// Force glyphs: each constraint's force (at its anchor) and torque (about the body's centre of
// mass, double-headed) on each end, scaled by magnitude; contacts as points with a normal-force
// arrow and a friction arrow, coloured open / stick / slip. Lengths are |F|·scale (metres per
// newton); the legend (overlay.ts) shows what a reference arrow means. Contact glyphs are picked
// (their index in the step's contacts) and drawn a second time, faintly, through the bodies: a
// contact sits on a surface and its normal-force arrow points into body A.
import { Group, MeshBasicMaterial, MeshLambertMaterial, type BufferGeometry } from 'three';
import type { RGB } from '../theme';
import { Glyphs, type GeometryKit } from './glyphs';
import { add3, norm3, quatFromY, scale3, type Q4, type V3 } from './math';
import { poseOf, type Frame, type SceneData } from './model';
import type { Palette3D } from './palette';
import type { ForceMode } from './describe';

interface ArrowScales {
  /** Metres of arrow per newton and per newton-metre. */
  force: number;
  torque: number;
  /** Below these (N, N·m) a force or torque is round-off: no arrow (robust.ts). */
  floor?: { force: number; torque: number };
}

/** `v` lengthened to at least `min` (a force above the noise floor stays visible however small against the largest). */
function atLeast(v: V3, min: number): V3 {
  const len = norm3(v);
  return len > 0 && len < min ? scale3(v, min / len) : v;
}

/** The highlighted contact (index in the step's contacts; -1: none). */
interface ContactLook {
  selected: number;
  hovered: number;
}

interface Pen {
  shaft: Glyphs;
  head: Glyphs;
}

export class ArrowLayer {
  readonly group = new Group();
  private readonly mat = new MeshLambertMaterial({ color: 0xffffff });
  private readonly ghostMat = new MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.5, depthTest: false, depthWrite: false });
  /** Constraint forces: not picked (a click goes through them to the body or joint). */
  private readonly force: Pen;
  /** Contacts: points and arrows, picked; and their faint copies drawn through everything. */
  private readonly contact: Pen & { dot: Glyphs };
  private readonly ghost: Pen & { dot: Glyphs };
  private readonly sets: Glyphs[];

  constructor(kit: GeometryKit) {
    const g = (geo: BufferGeometry, mat: MeshLambertMaterial | MeshBasicMaterial, kind: 'contact' | 'none'): Glyphs => new Glyphs(this.group, geo, mat, kind);
    this.force = { shaft: g(kit.rod, this.mat, 'none'), head: g(kit.cone, this.mat, 'none') };
    this.contact = { shaft: g(kit.rod, this.mat, 'contact'), head: g(kit.cone, this.mat, 'contact'), dot: g(kit.dot, this.mat, 'contact') };
    this.ghost = { shaft: g(kit.rod, this.ghostMat, 'none'), head: g(kit.cone, this.ghostMat, 'none'), dot: g(kit.dot, this.ghostMat, 'none') };
    for (const s of Object.values(this.ghost)) s.mesh.renderOrder = 6;
    this.sets = [...Object.values(this.force), ...Object.values(this.contact), ...Object.values(this.ghost)];
  }

  /** The contact glyphs (picking). */
  get pickables(): Glyphs[] {
    return Object.values(this.contact);
  }

  /** An arrow from `o` along `v` (its length in metres); `double`: a torque's two heads. */
  private arrow(o: V3, v: V3, u: number, col: RGB, id: number, double = false, pens: Pen[] = [this.force]): void {
    const len = norm3(v);
    if (!(len > u * 0.05) || !Number.isFinite(len)) return;
    const d = scale3(v, 1 / len);
    const q: Q4 = quatFromY(d);
    const hl = Math.min(u * 1.8, len * 0.4);
    const hr = hl * 0.36;
    const two = double && len > hl * 2.6; // a torque's second head, when there is room for it
    const sl = len - hl * (two ? 1.6 : 1);
    const r = u * 0.2;
    for (const pen of pens) {
      if (sl > 0) pen.shaft.add(o, q, [r, sl, r], col, id);
      pen.head.add(add3(o, scale3(d, len - hl)), q, [hr, hl, hr], col, id);
      if (two) pen.head.add(add3(o, scale3(d, len - hl * 1.8)), q, [hr, hl, hr], col, id);
    }
  }

  update(data: SceneData, frame: Frame, pal: Palette3D, u: number, scales: ArrowScales, mode: ForceMode, selected: number, look: ContactLook = { selected: -1, hovered: -1 }): void {
    for (const s of this.sets) s.begin();
    if (frame.forces && mode !== 'off') {
      frame.forces.forEach((f, i) => {
        if (mode === 'selected' && i !== selected) return;
        const c = data.constraints[i];
        const ends: [number, V3, V3, V3][] = [
          [c.a, frame.anchorA[i], f.forceA, f.torqueA],
          [c.b, frame.anchorB[i], f.forceB, f.torqueB],
        ];
        const floor = scales.floor ?? { force: 0, torque: 0 };
        for (const [body, anchor, F, T] of ends) {
          if (norm3(F) >= floor.force) this.arrow(anchor, scale3(F, scales.force), u, pal.force, i);
          if (body >= 0 && norm3(T) >= floor.torque) this.arrow(poseOf(frame.poses, body).p, scale3(T, scales.torque), u, pal.torque, i, true);
        }
      });
    }
    // Contact points are drawn in every force mode (they are what the step touches); their arrows unless forces are off.
    const pens = [this.contact, this.ghost];
    frame.contacts.forEach((c, k) => {
      const col = k === look.selected ? pal.focus : k === look.hovered ? pal.hover : pal.contact[c.state];
      const r = u * (k === look.selected ? 1.05 : 0.7);
      for (const pen of pens) pen.dot.add(c.point, [0, 0, 0, 1], [r, r, r], col, k);
      if (mode === 'off') return;
      const floor = scales.floor?.force ?? 0;
      // A force above the noise floor is never shorter than a few glyph units: a small friction stays visible.
      if (c.normalForce !== undefined && c.normalForce > floor) this.arrow(c.point, atLeast(scale3(c.normal, c.normalForce * scales.force), u * 3), u, col, k, false, pens);
      else this.arrow(c.point, scale3(c.normal, u * 3), u * 0.6, col, k, false, pens); // no force reported (or open): the normal only
      if (c.friction && Math.hypot(c.friction[0], c.friction[1]) > floor) {
        const ft = add3(scale3(c.t1, c.friction[0]), scale3(c.t2, c.friction[1]));
        this.arrow(c.point, atLeast(scale3(ft, scales.force), u * 2.5), u * 0.8, col, k, false, pens);
      }
    });
    for (const s of this.sets) s.end();
  }

  dispose(): void {
    for (const s of this.sets) s.dispose();
    this.mat.dispose();
    this.ghostMat.dispose();
  }
}
