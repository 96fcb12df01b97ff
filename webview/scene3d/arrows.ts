// Force glyphs: each constraint's force (at its anchor) and torque (about the body's centre of
// mass, double-headed) on each end, scaled by magnitude; contacts as points with a normal-force
// arrow in their state colour (open / stick / slip) and a friction arrow from the same base in a
// colour of its own. Lengths are |F|·scale (metres per newton); the legend (overlay.ts) shows what a
// reference arrow means; widths, minimum lengths and the fanning out of coincident contacts come
// from arrowLayout.ts. Contact glyphs are picked (their index in the step's contacts) and drawn a
// second time, faintly, through the bodies: a contact sits on a surface and its normal-force arrow
// points into body A.
import { Group, MeshBasicMaterial, MeshLambertMaterial, type BufferGeometry } from 'three';
import type { RGB } from '../theme';
import { Glyphs, type GeometryKit } from './glyphs';
import { add3, norm3, quatFromY, scale3, type Q4, type V3 } from './math';
import { poseOf, type Frame, type SceneData } from './model';
import type { Palette3D } from './palette';
import type { ForceMode } from './describe';
import { arrowRadius, atLeast, contactArrows, MIN_LENGTH, type ArrowSpec } from './arrowLayout';
import type { ContactData } from './read';
import { CONTACT_NOISE_RELATIVE, contactWeight } from './robust';

interface ArrowScales {
  /** Metres of arrow per newton and per newton-metre. */
  force: number;
  torque: number;
  /** The force and torque that set those scales (the widest arrows; 0: none). */
  maxForce?: number;
  maxTorque?: number;
  /** Below these (N, N·m) a force or torque is round-off: no arrow (robust.ts). */
  floor?: { force: number; torque: number };
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
  /** The contact arrows of the last update, as laid out (tests read their geometry). */
  drawn: readonly ArrowSpec[] = [];

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

  /** An arrow from `o` along `v` (its length in metres), shaft radius `r`; `double`: a torque's two heads. */
  private arrow(o: V3, v: V3, r: number, col: RGB, id: number, double = false, pens: Pen[] = [this.force]): void {
    const len = norm3(v);
    if (!(len > 0) || !Number.isFinite(len) || !(r > 0)) return;
    const d = scale3(v, 1 / len);
    const q: Q4 = quatFromY(d);
    // The head grows with the shaft (a thick arrow's head stays wider than its shaft) but never takes more than 40 % of the arrow.
    const hl = Math.min(r * 7, len * 0.4);
    const hr = r * 2.6;
    const two = double && len > hl * 2.6; // a torque's second head, when there is room for it
    const sl = len - hl * (two ? 1.6 : 1);
    for (const pen of pens) {
      if (sl > 0) pen.shaft.add(o, q, [r, sl, r], col, id);
      pen.head.add(add3(o, scale3(d, len - hl)), q, [hr, hl, hr], col, id);
      if (two) pen.head.add(add3(o, scale3(d, len - hl * 1.8)), q, [hr, hl, hr], col, id);
    }
  }

  update(data: SceneData, frame: Frame, pal: Palette3D, u: number, scales: ArrowScales, mode: ForceMode, selected: number, look: ContactLook = { selected: -1, hovered: -1 }): void {
    for (const s of this.sets) s.begin();
    const floor = scales.floor ?? { force: 0, torque: 0 };
    if (frame.forces && mode !== 'off') {
      frame.forces.forEach((f, i) => {
        if (mode === 'selected' && i !== selected) return;
        const c = data.constraints[i];
        const ends: [number, V3, V3, V3][] = [
          [c.a, frame.anchorA[i], f.forceA, f.torqueA],
          [c.b, frame.anchorB[i], f.forceB, f.torqueB],
        ];
        for (const [body, anchor, F, T] of ends) {
          const fm = norm3(F);
          const tm = norm3(T);
          if (fm > 0 && fm >= floor.force) this.arrow(anchor, atLeast(scale3(F, scales.force), u * MIN_LENGTH.force), arrowRadius(fm, scales.maxForce ?? 0, u), pal.force, i);
          if (body >= 0 && tm > 0 && tm >= floor.torque) this.arrow(poseOf(frame.poses, body).p, atLeast(scale3(T, scales.torque), u * MIN_LENGTH.force), arrowRadius(tm, scales.maxTorque ?? 0, u), pal.torque, i, true);
        }
      });
    }
    // Contact points are drawn in every force mode (they are what the step touches); their arrows unless forces are off.
    const pens = [this.contact, this.ghost];
    const colour = (k: number, state: RGB): RGB => (k === look.selected ? pal.focus : k === look.hovered ? pal.hover : state);
    frame.contacts.forEach((c, k) => {
      const r = u * (k === look.selected ? 1.05 : 0.7);
      for (const pen of pens) pen.dot.add(c.point, [0, 0, 0, 1], [r, r, r], colour(k, pal.contact[c.state]), k);
    });
    const contactFloor = (c: ContactData): number => CONTACT_NOISE_RELATIVE * contactWeight(data.bodies, c);
    this.drawn = mode === 'off' ? [] : contactArrows(frame.contacts, { force: scales.force, maxForce: scales.maxForce ?? 0, floor: floor.force, contactFloor }, u);
    for (const a of this.drawn) this.arrow(a.o, a.v, a.r, colour(a.id, a.kind === 'friction' ? pal.friction : pal.contact[frame.contacts[a.id].state]), a.id, false, pens);
    for (const s of this.sets) s.end();
  }

  dispose(): void {
    for (const s of this.sets) s.dispose();
    this.mat.dispose();
    this.ghostMat.dispose();
  }
}
