// Instanced glyphs: one InstancedMesh per (unit geometry, material), refilled each frame from
// positions / orientations / scales, each instance tagged with what it picks (a body, a
// constraint or a contact index). A 1000-link chain is a handful of draw calls.
import {
  BoxGeometry,
  BufferGeometry,
  Color,
  ConeGeometry,
  CylinderGeometry,
  DynamicDrawUsage,
  IcosahedronGeometry,
  InstancedMesh,
  Material,
  Matrix4,
  Quaternion,
  SphereGeometry,
  SRGBColorSpace,
  TorusGeometry,
  Vector3,
  type Object3D,
} from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import type { RGB } from '../theme';
import type { Q4, V3 } from './math';

/** What an instance picks. */
/** Largest coordinate or scale an instance may have: far inside float32's range (3.4e38), so products stay finite. */
const FLOAT32_SAFE = 1e15;

export type PickKind = 'body' | 'constraint' | 'contact' | 'none';

const m4 = new Matrix4();
const pv = new Vector3();
const sv = new Vector3();
const qv = new Quaternion();
const col = new Color();

export class Glyphs {
  mesh: InstancedMesh;
  private n = 0;
  private ids: Int32Array;

  constructor(
    private readonly parent: Object3D,
    readonly geometry: BufferGeometry,
    readonly material: Material,
    readonly kind: PickKind,
    capacity = 16,
  ) {
    this.ids = new Int32Array(capacity);
    this.mesh = this.make(capacity);
  }

  private make(capacity: number): InstancedMesh {
    const m = new InstancedMesh(this.geometry, this.material, capacity);
    m.instanceMatrix.setUsage(DynamicDrawUsage);
    m.setColorAt(0, col.setRGB(1, 1, 1));
    m.instanceColor!.setUsage(DynamicDrawUsage);
    m.count = 0;
    m.frustumCulled = false;
    m.userData.glyphs = this;
    this.parent.add(m);
    return m;
  }

  get count(): number {
    return this.n;
  }

  begin(): void {
    this.n = 0;
  }

  /**
   * Adds an instance: T(p)·R(q)·S(s) applied to the unit geometry. An instance a float32 matrix
   * cannot hold (a blown-up step's 1e55 m) is left out: it would make the mesh's bounds NaN.
   */
  add(p: V3, q: Q4, s: V3, rgb: RGB, id: number): void {
    if (!(Math.max(Math.abs(p[0]), Math.abs(p[1]), Math.abs(p[2]), Math.abs(s[0]), Math.abs(s[1]), Math.abs(s[2])) < FLOAT32_SAFE)) return;
    if (this.n >= this.ids.length) this.grow(Math.max(16, this.ids.length * 2));
    m4.compose(pv.set(p[0], p[1], p[2]), qv.set(q[0], q[1], q[2], q[3]), sv.set(s[0], s[1], s[2]));
    this.mesh.setMatrixAt(this.n, m4);
    this.mesh.setColorAt(this.n, col.setRGB(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, SRGBColorSpace));
    this.ids[this.n++] = id;
  }

  /** Recolours instance i (selection and hover changes without rebuilding the matrices). */
  setColor(i: number, rgb: RGB): void {
    this.mesh.setColorAt(i, col.setRGB(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, SRGBColorSpace));
  }

  idAt(instance: number): number {
    return instance >= 0 && instance < this.n ? this.ids[instance] : -1;
  }

  end(): void {
    this.mesh.count = this.n;
    this.mesh.instanceMatrix.needsUpdate = true;
    if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true;
    // Raycasting uses the bounding sphere of all instances: recompute it for the new matrices.
    if (this.n) this.mesh.computeBoundingSphere();
  }

  colorsChanged(): void {
    if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true;
  }

  private grow(capacity: number): void {
    const old = this.mesh;
    const next = this.make(capacity);
    for (let i = 0; i < this.n; i++) {
      old.getMatrixAt(i, m4);
      next.setMatrixAt(i, m4);
      old.getColorAt(i, col);
      next.setColorAt(i, col);
    }
    const ids = new Int32Array(capacity);
    ids.set(this.ids);
    this.ids = ids;
    next.visible = old.visible;
    this.parent.remove(old);
    old.dispose();
    this.mesh = next;
  }

  dispose(): void {
    this.parent.remove(this.mesh);
    this.mesh.dispose();
  }
}

/** The unit geometries every layer shares (disposed with the view). */
export class GeometryKit {
  /** Cube of half-extent 1 (scale = half extents). */
  readonly box = new BoxGeometry(2, 2, 2);
  /** Unit sphere. */
  readonly sphere = new SphereGeometry(1, 18, 12);
  /** Low-poly unit sphere for the many small things (anchors, contact points). */
  readonly dot = new SphereGeometry(1, 10, 6);
  /** 20-triangle sphere for the joints of very large scenes (a 1000-link chain: a few pixels each). */
  readonly tiny = new IcosahedronGeometry(1, 0);
  /** Cylinder of radius 1 from y = 0 to y = 1 (rods and arrow shafts). */
  readonly rod = new CylinderGeometry(1, 1, 1, 8, 1).translate(0, 0.5, 0);
  /** Cylinder of radius 1 from y = −1 to y = 1 (barrels, capsule bodies). */
  readonly barrel = new CylinderGeometry(1, 1, 2, 18, 1);
  /** Cone of radius 1 from y = 0 to y = 1 (arrow heads). */
  readonly cone = new ConeGeometry(1, 1, 10).translate(0, 0.5, 0);
  /** Ring of radius 1 around the y axis (locked rotations). */
  readonly ring = new TorusGeometry(1, 0.11, 6, 28).rotateX(Math.PI / 2);
  /** A ⊓-shaped bracket about the origin, 2 units wide (fixed joints). */
  readonly bracket: BufferGeometry;

  constructor() {
    const bar = (sx: number, sy: number, sz: number, x: number, y: number, z: number): BufferGeometry => new BoxGeometry(sx, sy, sz).translate(x, y, z);
    this.bracket = mergeGeometries([bar(2, 0.35, 0.7, 0, 0.825, 0), bar(0.35, 1.65, 0.7, -0.825, 0, 0), bar(0.35, 1.65, 0.7, 0.825, 0, 0)])!;
  }

  dispose(): void {
    for (const g of [this.box, this.sphere, this.dot, this.tiny, this.rod, this.barrel, this.cone, this.ring, this.bracket]) g.dispose();
  }
}
