// Bodies: their contact shapes (sphere, box, capsule) or, without shapes, MuJoCo's equivalent
// inertia box; a small sphere when neither is known. Fixed bodies are translucent and grey. Body
// frame axes on request. World shapes (planes, fixed geometry) are drawn by grid.ts.
import { BufferAttribute, BufferGeometry, Group, LineBasicMaterial, LineSegments, MeshBasicMaterial, MeshLambertMaterial, SRGBColorSpace } from 'three';
import type { RGB } from '../theme';
import { Glyphs, type GeometryKit } from './glyphs';
import { add3, qmul, rotate, type Q4, type V3 } from './math';
import { poseOf, type Frame, type SceneData } from './model';
import { mix, type Palette3D } from './palette';

const X: Q4 = [0, 0, -Math.SQRT1_2, Math.SQRT1_2]; // +y → +x
const Z: Q4 = [Math.SQRT1_2, 0, 0, Math.SQRT1_2]; // +y → +z
const Y: Q4 = [0, 0, 0, 1];

/** How a body is highlighted. */
interface BodyLook {
  selected: number;
  hovered: number;
  /** Bodies of the selected constraint. */
  involved: Set<number>;
  /** Bodies asleep at the shown step (sleeping islands): drawn faded towards the background, as MuJoCo darkens them. */
  asleep: Set<number>;
}

export class BodyLayer {
  readonly group = new Group();
  private readonly solidMat = new MeshLambertMaterial({ color: 0xffffff });
  private readonly fixedMat = new MeshLambertMaterial({ color: 0xffffff, transparent: true, opacity: 0.45, depthWrite: false });
  /** Inertia boxes are translucent, as in MuJoCo (they often overlap: the joints stay visible). */
  private readonly inertiaMat = new MeshLambertMaterial({ color: 0xffffff, transparent: true, opacity: 0.62, depthWrite: false });
  private readonly axisMat = new MeshBasicMaterial({ color: 0xffffff });
  private readonly sets: Glyphs[] = [];
  private readonly solid: { box: Glyphs; sphere: Glyphs; barrel: Glyphs };
  private readonly fixed: { box: Glyphs; sphere: Glyphs; barrel: Glyphs };
  private readonly inertia: Glyphs;
  private readonly axes: Glyphs;
  /** Fixed bodies' box edges: fixed things read as outlined ghosts, moving ones as solids. */
  private readonly edgeMat = new LineBasicMaterial({ color: 0xffffff });
  private readonly edges = new LineSegments(new BufferGeometry(), this.edgeMat);
  showAxes = false;

  constructor(private readonly kit: GeometryKit) {
    const mk = (g: BufferGeometry, mat: MeshLambertMaterial | MeshBasicMaterial, kind: 'body' | 'none' = 'body'): Glyphs => {
      const s = new Glyphs(this.group, g, mat, kind);
      this.sets.push(s);
      return s;
    };
    this.solid = { box: mk(kit.box, this.solidMat), sphere: mk(kit.sphere, this.solidMat), barrel: mk(kit.barrel, this.solidMat) };
    this.fixed = { box: mk(kit.box, this.fixedMat), sphere: mk(kit.sphere, this.fixedMat), barrel: mk(kit.barrel, this.fixedMat) };
    this.inertia = mk(kit.box, this.inertiaMat);
    for (const g of [...Object.values(this.fixed), this.inertia]) g.mesh.renderOrder = 2;
    this.axes = mk(kit.rod, this.axisMat, 'none');
    this.edges.frustumCulled = false;
    this.group.add(this.edges);
  }

  get pickables(): Glyphs[] {
    return this.sets.filter((s) => s.kind === 'body');
  }

  colorOf(data: SceneData, i: number, pal: Palette3D, look: BodyLook): RGB {
    const b = data.bodies[i];
    const base = b.fixed ? pal.fixed : i % 2 ? pal.bodyAlt : pal.body;
    if (i === look.selected) return pal.focus;
    if (i === look.hovered) return pal.hover;
    if (look.involved.has(i)) return mix(base, pal.focus, 0.45);
    if (look.asleep.has(i)) return mix(base, pal.bg, 0.55);
    return base;
  }

  /** Rebuilds every instance for a frame (poses of a step). `unit` sizes markers and axes. */
  update(data: SceneData, frame: Frame, pal: Palette3D, look: BodyLook, unit: number): void {
    for (const s of this.sets) s.begin();
    const edges: number[] = [];
    const outline = (p: V3, q: Q4, h: V3): void => {
      const c = (k: number): V3 => add3(p, rotate(q, [k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]]));
      const pts = Array.from({ length: 8 }, (_, k) => c(k));
      for (let k = 0; k < 8; k++) for (const bit of [1, 2, 4]) if (!(k & bit)) edges.push(...pts[k], ...pts[k | bit]);
    };
    data.bodies.forEach((b, i) => {
      const { p, q } = poseOf(frame.poses, i);
      const set = b.fixed ? this.fixed : this.solid;
      const c = this.colorOf(data, i, pal, look);
      if (b.shapes.length) {
        for (const s of b.shapes) {
          const sp = add3(p, rotate(q, s.position));
          const sq = qmul(q, s.orientation);
          if (s.type === 'sphere') set.sphere.add(sp, sq, [s.radius, s.radius, s.radius], c, i);
          else if (s.type === 'box') {
            set.box.add(sp, sq, s.halfExtents, c, i);
            if (b.fixed) outline(sp, sq, s.halfExtents);
          }
          else if (s.type === 'capsule') {
            // The capsule's axis is its local z; the barrel is along +y.
            set.barrel.add(sp, qmul(sq, Z), [s.radius, s.halfLength, s.radius], c, i);
            for (const sign of [-1, 1]) set.sphere.add(add3(sp, rotate(sq, [0, 0, sign * s.halfLength])), sq, [s.radius, s.radius, s.radius], c, i);
          }
        }
      } else if (b.box) {
        (b.fixed ? set.box : this.inertia).add(p, qmul(q, b.box.q), b.box.half, c, i);
        if (b.fixed) outline(p, qmul(q, b.box.q), b.box.half);
      } else {
        const r = unit * 2.2;
        set.sphere.add(p, q, [r, r, r], c, i);
      }
      if (this.showAxes) {
        const len = Math.max(unit * 5, (b.box ? Math.max(...b.box.half) : 0) * 1.4);
        const r = unit * 0.22;
        const dirs: Q4[] = [X, Y, Z];
        dirs.forEach((d, k) => this.axes.add(p, qmul(q, d), [r, len, r], pal.axes[k], -1));
      }
    });
    for (const s of this.sets) s.end();
    this.edges.geometry.dispose();
    this.edges.geometry = new BufferGeometry();
    this.edges.geometry.setAttribute('position', new BufferAttribute(new Float32Array(edges.map((x) => (Math.abs(x) < 1e15 ? x : 0))), 3));
    this.edgeMat.color.setRGB(pal.muted[0] / 255, pal.muted[1] / 255, pal.muted[2] / 255, SRGBColorSpace);
  }

  /** Recolours the bodies (selection / hover changes), without touching the matrices. */
  recolor(data: SceneData, pal: Palette3D, look: BodyLook): void {
    for (const s of this.pickables) {
      for (let k = 0; k < s.count; k++) {
        const id = s.idAt(k);
        if (id >= 0) s.setColor(k, this.colorOf(data, id, pal, look));
      }
      s.colorsChanged();
    }
  }

  dispose(): void {
    for (const s of this.sets) s.dispose();
    this.solidMat.dispose();
    this.fixedMat.dispose();
    this.inertiaMat.dispose();
    this.axisMat.dispose();
    this.edges.geometry.dispose();
    this.edgeMat.dispose();
  }
}

