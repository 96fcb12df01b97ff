// Constraints drawn as what they are: distance = a rod between the anchors, ball = a sphere at the
// anchor, hinge = a barrel on its axis, slider = its axis with a sleeve, fixed = a bracket, lock =
// bars along the locked world axes and rings around the locked rotations. Anchor dots on each
// body, thin links from each body's centre to its anchor, pads where the world holds a joint, and
// a halo around every constraint of the redundant set. Colour = the tree's state.
import { BufferAttribute, BufferGeometry, DynamicDrawUsage, Group, LineBasicMaterial, LineSegments, MeshBasicMaterial, MeshLambertMaterial, SRGBColorSpace } from 'three';
import type { RGB } from '../theme';
import { Glyphs, type GeometryKit } from './glyphs';
import { add3, norm3, quatFromY, scale3, sub3, unit3, type Q4, type V3 } from './math';
import { poseOf, type Frame, type SceneData } from './model';
import { mix, type Palette3D } from './palette';

const AXIS_Q: Q4[] = [quatFromY([1, 0, 0]), [0, 0, 0, 1], quatFromY([0, 0, 1])];

interface JointLook {
  selected: number;
  hovered: number;
}

export class JointLayer {
  readonly group = new Group();
  private readonly mat = new MeshLambertMaterial({ color: 0xffffff });
  private readonly flat = new MeshBasicMaterial({ color: 0xffffff });
  private readonly haloMat = new MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.22, depthWrite: false });
  private readonly lineMat = new LineBasicMaterial({ color: 0xffffff });
  private readonly sets: Glyphs[] = [];
  private readonly rod: Glyphs;
  private readonly ball: Glyphs;
  /** Low-poly balls for large scenes (a 1000-link chain). */
  private readonly ballLow: Glyphs;
  private readonly barrel: Glyphs;
  private readonly box: Glyphs;
  private readonly bracket: Glyphs;
  private readonly ring: Glyphs;
  private readonly anchor: Glyphs;
  private readonly pad: Glyphs;
  private readonly halo: Glyphs;
  private readonly haloRod: Glyphs;
  private readonly links: LineSegments;
  private linkPos = new Float32Array(0);

  constructor(kit: GeometryKit) {
    const mk = (g: BufferGeometry, mat: MeshLambertMaterial | MeshBasicMaterial, kind: 'constraint' | 'none' = 'constraint'): Glyphs => {
      const s = new Glyphs(this.group, g, mat, kind);
      this.sets.push(s);
      return s;
    };
    this.rod = mk(kit.rod, this.mat);
    this.ball = mk(kit.sphere, this.mat);
    this.ballLow = mk(kit.tiny, this.mat);
    this.barrel = mk(kit.barrel, this.mat);
    this.box = mk(kit.box, this.mat);
    this.bracket = mk(kit.bracket, this.mat);
    this.ring = mk(kit.ring, this.flat);
    this.anchor = mk(kit.dot, this.flat);
    this.pad = mk(kit.box, this.mat, 'none');
    this.halo = mk(kit.sphere, this.haloMat, 'none');
    this.haloRod = mk(kit.rod, this.haloMat, 'none');
    this.halo.mesh.renderOrder = 3;
    this.haloRod.mesh.renderOrder = 3;
    this.links = new LineSegments(new BufferGeometry(), this.lineMat);
    this.links.frustumCulled = false;
    this.group.add(this.links);
  }

  get pickables(): Glyphs[] {
    return this.sets.filter((s) => s.kind === 'constraint');
  }

  colorOf(frame: Frame, i: number, pal: Palette3D, look: JointLook): RGB {
    if (i === look.selected) return pal.focus;
    if (i === look.hovered) return pal.hover;
    return pal.state[frame.states[i]] ?? pal.state.unknown;
  }

  update(data: SceneData, frame: Frame, pal: Palette3D, look: JointLook, u: number): void {
    for (const s of this.sets) s.begin();
    const n = data.constraints.length;
    if (this.linkPos.length < n * 12) {
      // A new buffer: a new geometry (the old one's GPU buffers are released).
      this.linkPos = new Float32Array(Math.max(12, n * 12));
      this.links.geometry.dispose();
      this.links.geometry = new BufferGeometry();
      this.links.geometry.setAttribute('position', new BufferAttribute(this.linkPos, 3).setUsage(DynamicDrawUsage));
    }
    const lc = mix(pal.bg, pal.muted, 0.85);
    this.lineMat.color.setRGB(lc[0] / 255, lc[1] / 255, lc[2] / 255, SRGBColorSpace);
    const ball = n > 300 ? this.ballLow : this.ball;
    let nl = 0;
    const line = (a: V3, b: V3): void => {
      this.linkPos.set(a, nl * 3);
      this.linkPos.set(b, nl * 3 + 3);
      nl += 2;
    };
    data.constraints.forEach((c, i) => {
      const col = this.colorOf(frame, i, pal, look);
      const A = frame.anchorA[i];
      const B = frame.anchorB[i];
      const mid = scale3(add3(A, B), 0.5);
      const axis = frame.axis[i];
      const one: Q4 = [0, 0, 0, 1];
      // Attachments: body centre → anchor; the world gets a pad under its anchor.
      for (const [body, p] of [
        [c.a, A],
        [c.b, B],
      ] as [number, V3][]) {
        if (body >= 0) line(poseOf(frame.poses, body).p, p);
        else this.pad.add(add3(p, [0, 0, -u * 1.1]), one, [u * 1.8, u * 1.8, u * 0.35], pal.world, -1);
      }
      const ab = sub3(B, A);
      const len = norm3(ab);
      // Anchor dots, unless both sit inside the joint's own glyph (a ball, a barrel, a bracket).
      if (len > u * 0.5 || c.type === 'distance' || c.type === 'slider') {
        this.anchor.add(A, one, [u * 0.6, u * 0.6, u * 0.6], col, i);
        this.anchor.add(B, one, [u * 0.6, u * 0.6, u * 0.6], col, i);
      }
      const rodTo = (from: V3, d: V3, l: number, r: number): void => this.rod.add(from, quatFromY(unit3(d, [0, 0, 1])), [r, l, r], col, i);
      switch (c.type) {
        case 'distance':
          if (len > 1e-12) rodTo(A, ab, len, u * 0.35);
          break;
        case 'ball':
          ball.add(mid, one, [u * 1.3, u * 1.3, u * 1.3], col, i);
          if (len > u * 0.5) rodTo(A, ab, len, u * 0.2); // the two anchors have drifted apart
          break;
        case 'hinge':
          if (axis) {
            const q = quatFromY(axis);
            this.barrel.add(mid, q, [u * 0.85, u * 2, u * 0.85], col, i);
            rodTo(sub3(mid, scale3(axis, u * 5)), axis, u * 10, u * 0.18);
          } else ball.add(mid, one, [u * 1.3, u * 1.3, u * 1.3], col, i);
          break;
        case 'slider':
          if (axis) {
            const q = quatFromY(axis);
            rodTo(sub3(A, scale3(axis, u * 6)), axis, u * 12, u * 0.22);
            this.box.add(B, q, [u * 0.9, u * 1.8, u * 0.9], col, i);
          } else this.box.add(B, one, [u * 0.9, u * 0.9, u * 0.9], col, i);
          break;
        case 'fixed': {
          const q = c.a >= 0 ? poseOf(frame.poses, c.a).q : c.b >= 0 ? poseOf(frame.poses, c.b).q : one;
          this.bracket.add(mid, q, [u * 1.4, u * 1.4, u * 1.4], col, i);
          break;
        }
        case 'lock': {
          let any = false;
          for (let k = 0; k < 3; k++) {
            if (c.linear?.[k]) {
              any = true;
              this.box.add(mid, AXIS_Q[k], [u * 0.22, u * 2.4, u * 0.22], col, i);
            }
            if (c.angular?.[k]) {
              any = true;
              this.ring.add(mid, AXIS_Q[k], [u * 1.9, u * 1.9, u * 1.9], col, i);
            }
          }
          if (!any) ball.add(mid, one, [u * 0.9, u * 0.9, u * 0.9], col, i);
          break;
        }
        default:
          if (len > 1e-12) rodTo(A, ab, len, u * 0.3);
          else ball.add(mid, one, [u, u, u], col, i);
      }
      if (frame.redundantSet.has(i)) {
        // A translucent sleeve around the whole constraint (anchor to anchor).
        const r = u * 2.2;
        if (len > 1e-12) this.haloRod.add(A, quatFromY(unit3(ab)), [r, len, r], pal.state.redundant, -1);
        for (const p of len > 1e-12 ? [A, B] : [A]) this.halo.add(p, one, [r, r, r], pal.state.redundant, -1);
      }
    });
    for (const s of this.sets) s.end();
    const g = this.links.geometry;
    // A blown-up step's 1e55 m is ∞ in float32 and would make the geometry's bounds NaN: drawn at the origin instead.
    for (let i = 0; i < this.linkPos.length; i++) if (!(Math.abs(this.linkPos[i]) < 1e15)) this.linkPos[i] = 0;
    const pa = g.getAttribute('position') as BufferAttribute | undefined;
    if (pa) pa.needsUpdate = true;
    g.setDrawRange(0, nl);
  }

  recolor(frame: Frame, pal: Palette3D, look: JointLook): void {
    for (const s of this.pickables) {
      for (let k = 0; k < s.count; k++) {
        const id = s.idAt(k);
        if (id >= 0) s.setColor(k, this.colorOf(frame, id, pal, look));
      }
      s.colorsChanged();
    }
  }

  dispose(): void {
    for (const s of this.sets) s.dispose();
    this.links.geometry.dispose();
    for (const m of [this.mat, this.flat, this.haloMat, this.lineMat]) m.dispose();
  }
}
