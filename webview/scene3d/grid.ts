// The world: a ground grid under the scene (or on a ground plane shape) at a "nice" spacing, the
// world frame's axes at the origin (x, y, z in the charts' red, green, blue) and the world's shapes
// (planes as translucent sheets, other shapes grey and translucent like fixed bodies).
import { BufferAttribute, BufferGeometry, DoubleSide, Group, LineBasicMaterial, LineSegments, Mesh, MeshBasicMaterial, MeshLambertMaterial, PlaneGeometry, SRGBColorSpace } from 'three';
import { Glyphs, type GeometryKit } from './glyphs';
import { add3, dot3, niceStep, qmul, quatFromBasis, quatFromY, rotate, scale3, sub3, unit3, cross3, type Q4, type V3 } from './math';
import type { SceneData } from './model';
import type { Palette3D } from './palette';
import type { RGB } from '../theme';

const Z_UP: Q4 = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];

export class WorldLayer {
  readonly group = new Group();
  private readonly minorMat = new LineBasicMaterial({ color: 0xffffff });
  private readonly majorMat = new LineBasicMaterial({ color: 0xffffff });
  private readonly axisMat = new MeshBasicMaterial({ color: 0xffffff });
  private readonly shapeMat = new MeshLambertMaterial({ color: 0xffffff, transparent: true, opacity: 0.4, depthWrite: false });
  private readonly planeMat = new MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.12, depthWrite: false, side: DoubleSide });
  private minor?: LineSegments;
  private major?: LineSegments;
  private readonly planes: Mesh[] = [];
  private readonly axes: Glyphs;
  private readonly shapes: { box: Glyphs; sphere: Glyphs; barrel: Glyphs };
  /** Grid spacing (m) and the grid's height. */
  step = 1;
  z0 = 0;

  constructor(kit: GeometryKit) {
    this.axes = new Glyphs(this.group, kit.rod, this.axisMat, 'none');
    this.shapes = {
      box: new Glyphs(this.group, kit.box, this.shapeMat, 'none'),
      sphere: new Glyphs(this.group, kit.sphere, this.shapeMat, 'none'),
      barrel: new Glyphs(this.group, kit.barrel, this.shapeMat, 'none'),
    };
    for (const g of Object.values(this.shapes)) g.mesh.renderOrder = 2;
  }

  /** Rebuilds the world for a scene (bounds, ground, shapes) and colours it. */
  build(data: SceneData, pal: Palette3D, u: number): void {
    const { min, max } = data.bounds;
    const size = Math.max(1e-6, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]));
    const ground = data.worldShapes.find((s) => s.type === 'plane' && Math.abs(s.normal[2]) > 0.999);
    this.z0 = ground ? ground.offset / ground.normal[2] : min[2] - 0.04 * size;
    const span = Math.max(max[0] - min[0], max[1] - min[1], size * 0.5);
    this.step = niceStep(span / 10);
    const pad = Math.max(this.step * 2, span * 0.25);
    const x0 = Math.floor((min[0] - pad) / this.step) * this.step;
    const x1 = Math.ceil((max[0] + pad) / this.step) * this.step;
    const y0 = Math.floor((min[1] - pad) / this.step) * this.step;
    const y1 = Math.ceil((max[1] + pad) / this.step) * this.step;
    const minor: number[] = [];
    const major: number[] = [];
    const nx = Math.round((x1 - x0) / this.step);
    const ny = Math.round((y1 - y0) / this.step);
    for (let i = 0; i <= nx; i++) {
      const x = x0 + i * this.step;
      (Math.abs(x) < this.step * 1e-6 ? major : minor).push(x, y0, this.z0, x, y1, this.z0);
    }
    for (let j = 0; j <= ny; j++) {
      const y = y0 + j * this.step;
      (Math.abs(y) < this.step * 1e-6 ? major : minor).push(x0, y, this.z0, x1, y, this.z0);
    }
    const lines = (pts: number[], mat: LineBasicMaterial, old?: LineSegments): LineSegments => {
      if (old) {
        this.group.remove(old);
        old.geometry.dispose();
      }
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(new Float32Array(pts), 3));
      const l = new LineSegments(g, mat);
      this.group.add(l);
      return l;
    };
    this.minor = lines(minor, this.minorMat, this.minor);
    this.major = lines(major, this.majorMat, this.major);
    for (const p of this.planes.splice(0)) {
      this.group.remove(p);
      p.geometry.dispose();
    }
    const centre: V3 = scale3(add3(min, max), 0.5);
    const side = Math.max(x1 - x0, y1 - y0);
    for (const s of data.worldShapes) {
      if (s.type !== 'plane') continue;
      const n = s.normal;
      const p = sub3(centre, scale3(n, dot3(n, centre) - s.offset));
      const t1 = unit3(cross3(Math.abs(n[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0], n));
      const mesh = new Mesh(new PlaneGeometry(side, side), this.planeMat);
      const q = quatFromBasis(t1, cross3(n, t1), n);
      mesh.position.set(p[0], p[1], p[2]);
      mesh.quaternion.set(q[0], q[1], q[2], q[3]);
      mesh.renderOrder = 1;
      this.planes.push(mesh);
      this.group.add(mesh);
    }
    this.recolor(data, pal, u, size);
  }

  /** Colours (theme changes) and the axes / world shapes. */
  recolor(data: SceneData, pal: Palette3D, u: number, size?: number): void {
    const set = (m: { color: { setRGB: (r: number, g: number, b: number, cs: string) => unknown } }, c: RGB): void => void m.color.setRGB(c[0] / 255, c[1] / 255, c[2] / 255, SRGBColorSpace);
    set(this.minorMat, pal.grid);
    set(this.majorMat, pal.gridStrong);
    set(this.planeMat, pal.muted);
    const { min, max } = data.bounds;
    const sz = size ?? Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
    this.axes.begin();
    const len = Math.max(u * 5, Math.min(sz * 0.06, this.step * 1.5));
    const r = u * 0.14;
    ([[1, 0, 0], [0, 1, 0], [0, 0, 1]] as V3[]).forEach((d, k) => this.axes.add([0, 0, 0], quatFromY(d), [r, len, r], pal.axes[k], -1));
    this.axes.end();
    for (const g of Object.values(this.shapes)) g.begin();
    for (const s of data.worldShapes) {
      const c = pal.fixed;
      if (s.type === 'sphere') this.shapes.sphere.add(s.position, s.orientation, [s.radius, s.radius, s.radius], c, -1);
      else if (s.type === 'box') this.shapes.box.add(s.position, s.orientation, s.halfExtents, c, -1);
      else if (s.type === 'capsule') {
        this.shapes.barrel.add(s.position, qmul(s.orientation, Z_UP), [s.radius, s.halfLength, s.radius], c, -1);
        for (const k of [-1, 1]) this.shapes.sphere.add(add3(s.position, rotate(s.orientation, [0, 0, k * s.halfLength])), s.orientation, [s.radius, s.radius, s.radius], c, -1);
      }
    }
    for (const g of Object.values(this.shapes)) g.end();
  }

  dispose(): void {
    for (const l of [this.minor, this.major]) l?.geometry.dispose();
    for (const p of this.planes) p.geometry.dispose();
    this.axes.dispose();
    for (const g of Object.values(this.shapes)) g.dispose();
    for (const m of [this.minorMat, this.majorMat, this.axisMat, this.shapeMat, this.planeMat]) m.dispose();
  }
}
