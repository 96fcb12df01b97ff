// The camera: orbit about a target (z up), pan in the screen plane, zoom; perspective or
// orthographic with the XY (top), XZ (front), YZ (side) presets; fit-to-scene. Mouse: left drag
// orbits, right / middle / shift-drag pans, the wheel zooms. Keys (see `key`): arrows orbit,
// shift+arrows pan, + / − zoom.
import { Matrix4, OrthographicCamera, PerspectiveCamera, Vector3, type Camera } from 'three';

export type Preset = 'XY' | 'XZ' | 'YZ' | 'persp';

const DEG = Math.PI / 180;
const FOV = 40;

/** Azimuth / elevation of each preset: XY looks down −z with x right; XZ looks along +y; YZ along −x. */
const PRESETS: Record<Preset, { az: number; el: number; ortho: boolean }> = {
  XY: { az: -90 * DEG, el: 90 * DEG, ortho: true },
  XZ: { az: -90 * DEG, el: 0, ortho: true },
  YZ: { az: 0, el: 0, ortho: true },
  persp: { az: -58 * DEG, el: 24 * DEG, ortho: false },
};

export class Orbit {
  readonly persp = new PerspectiveCamera(FOV, 1, 0.01, 1000);
  readonly ortho = new OrthographicCamera(-1, 1, 1, -1, 0.01, 1000);
  readonly target = new Vector3();
  distance = 5;
  azimuth = PRESETS.persp.az;
  elevation = PRESETS.persp.el;
  orthographic = false;
  /** The preset the camera is at (undefined once the user orbits away from it). */
  preset: Preset | undefined = 'persp';
  /** Radius of the scene (near / far planes). */
  sceneRadius = 1;
  private aspect = 1;
  private heightPx = 1;
  private drag?: { id: number; x: number; y: number; pan: boolean; moved: number };
  /** Pixels the pointer moved during the last drag (a click is a drag of < 4 px). */
  lastDrag = 0;
  private readonly m = new Matrix4();
  private readonly off: (() => void)[] = [];

  constructor(private readonly onChange: () => void) {
    this.update();
  }

  get camera(): Camera {
    return this.orthographic ? this.ortho : this.persp;
  }

  /** World units per screen pixel at the target. */
  get unitsPerPixel(): number {
    return (2 * this.distance * Math.tan((FOV / 2) * DEG)) / this.heightPx;
  }

  resize(w: number, h: number): void {
    this.aspect = Math.max(1e-3, w / Math.max(1, h));
    this.heightPx = Math.max(1, h);
    this.update();
  }

  setPreset(p: Preset): void {
    const s = PRESETS[p];
    this.azimuth = s.az;
    this.elevation = s.el;
    this.orthographic = s.ortho;
    this.preset = p;
    this.changed();
  }

  /**
   * Frames an axis-aligned box in the current direction: every corner inside the view, with a
   * margin, and inside the band between `inset.top` and `inset.bottom` CSS pixels (the toolbar and
   * the legend over the canvas) when the view is tall enough for that.
   */
  fitBox(min: readonly number[], max: readonly number[], inset: { top: number; bottom: number } = { top: 0, bottom: 0 }): void {
    this.target.set((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
    this.sceneRadius = Math.max(1e-9, Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2);
    const { dir, right, up } = this.basis();
    const band = Math.max(0.5, (this.heightPx - inset.top - inset.bottom) / this.heightPx);
    const shift = band > 0.5 ? (inset.top - inset.bottom) / 2 : 0;
    const tanH = Math.tan((FOV / 2) * DEG) * this.aspect;
    const tanV = Math.tan((FOV / 2) * DEG) * (band > 0.5 ? band : 1);
    const margin = 1.12;
    let d = 0;
    let flat = 0;
    for (let k = 0; k < 8; k++) {
      const c = new Vector3(k & 1 ? max[0] : min[0], k & 2 ? max[1] : min[1], k & 4 ? max[2] : min[2]).sub(this.target);
      const x = Math.abs(c.dot(right)) * margin;
      const y = Math.abs(c.dot(up)) * margin;
      const z = c.dot(dir);
      d = Math.max(d, z + x / tanH, z + y / tanV);
      flat = Math.max(flat, x / tanH, y / tanV);
    }
    this.distance = Math.max(this.sceneRadius * 0.05, this.orthographic ? flat : d);
    // Centre the box in the band: the scene follows a pan by the band's offset from the middle.
    if (shift) this.target.addScaledVector(up, shift * this.unitsPerPixel);
    this.changed();
  }

  orbit(dAz: number, dEl: number): void {
    this.azimuth = (((this.azimuth + dAz + Math.PI) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI) - Math.PI;
    this.elevation = Math.max(-Math.PI / 2, Math.min(Math.PI / 2, this.elevation + dEl));
    this.preset = undefined;
    this.changed();
  }

  /** Pans by a screen offset in pixels (the scene follows the pointer). */
  pan(dxPx: number, dyPx: number): void {
    const k = this.unitsPerPixel;
    const { right, up } = this.basis();
    this.target.addScaledVector(right, -dxPx * k).addScaledVector(up, dyPx * k);
    this.changed();
  }

  zoom(factor: number): void {
    const r = this.sceneRadius;
    this.distance = Math.max(r * 1e-4, Math.min(r * 1e4, this.distance * factor));
    this.changed();
  }

  private basis(): { dir: Vector3; right: Vector3; up: Vector3 } {
    const ce = Math.cos(this.elevation);
    const dir = new Vector3(ce * Math.cos(this.azimuth), ce * Math.sin(this.azimuth), Math.sin(this.elevation));
    const right = new Vector3(-Math.sin(this.azimuth), Math.cos(this.azimuth), 0);
    const up = new Vector3().crossVectors(right, dir.clone().negate());
    return { dir, right, up };
  }

  update(): void {
    const { dir, right, up } = this.basis();
    this.m.makeBasis(right, up, dir);
    const r = this.sceneRadius;
    const p = this.persp;
    p.aspect = this.aspect;
    p.position.copy(this.target).addScaledVector(dir, this.distance);
    p.quaternion.setFromRotationMatrix(this.m);
    p.near = Math.max(this.distance * 1e-3, (this.distance - 4 * r) * 0.5);
    p.far = this.distance + 8 * r;
    p.updateProjectionMatrix();
    const o = this.ortho;
    const halfH = this.distance * Math.tan((FOV / 2) * DEG);
    const back = this.distance + 4 * r;
    o.left = -halfH * this.aspect;
    o.right = halfH * this.aspect;
    o.top = halfH;
    o.bottom = -halfH;
    o.position.copy(this.target).addScaledVector(dir, back);
    o.quaternion.copy(p.quaternion);
    o.near = 0;
    o.far = back + 8 * r;
    o.updateProjectionMatrix();
    p.updateMatrixWorld();
    o.updateMatrixWorld();
  }

  private changed(): void {
    this.update();
    this.onChange();
  }

  /** Keyboard navigation; true when the key was handled. */
  key(e: KeyboardEvent): boolean {
    const step = 10 * DEG;
    const panPx = this.heightPx * 0.06;
    switch (e.key) {
      case 'ArrowLeft':
        if (e.shiftKey) this.pan(-panPx, 0);
        else this.orbit(-step, 0);
        return true;
      case 'ArrowRight':
        if (e.shiftKey) this.pan(panPx, 0);
        else this.orbit(step, 0);
        return true;
      case 'ArrowUp':
        if (e.shiftKey) this.pan(0, -panPx);
        else this.orbit(0, step);
        return true;
      case 'ArrowDown':
        if (e.shiftKey) this.pan(0, panPx);
        else this.orbit(0, -step);
        return true;
      case '+':
      case '=':
        this.zoom(1 / 1.2);
        return true;
      case '-':
      case '_':
        this.zoom(1.2);
        return true;
      default:
        return false;
    }
  }

  /** Mouse / touch / pen on the canvas. */
  attach(el: HTMLElement): void {
    const on = <K extends keyof HTMLElementEventMap>(type: K, fn: (e: HTMLElementEventMap[K]) => void, opts?: AddEventListenerOptions): void => {
      el.addEventListener(type, fn, opts);
      this.off.push(() => el.removeEventListener(type, fn, opts));
    };
    on('pointerdown', (e) => {
      if (this.drag) return;
      const pan = e.button === 1 || e.button === 2 || e.shiftKey || e.ctrlKey || e.metaKey;
      if (e.button !== 0 && !pan) return;
      this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, pan, moved: 0 };
      this.lastDrag = 0;
      el.setPointerCapture?.(e.pointerId);
    });
    on('pointermove', (e) => {
      const d = this.drag;
      if (!d || d.id !== e.pointerId) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      d.x = e.clientX;
      d.y = e.clientY;
      d.moved += Math.abs(dx) + Math.abs(dy);
      this.lastDrag = d.moved;
      if (d.moved < 3) return;
      el.classList.add('cl3d-dragging');
      if (d.pan) this.pan(dx, dy);
      else this.orbit(-dx * 0.01, dy * 0.01);
    });
    const end = (e: PointerEvent): void => {
      if (!this.drag || this.drag.id !== e.pointerId) return;
      this.drag = undefined;
      el.classList.remove('cl3d-dragging');
      if (el.hasPointerCapture?.(e.pointerId)) el.releasePointerCapture(e.pointerId);
    };
    on('pointerup', end);
    on('pointercancel', end);
    on(
      'wheel',
      (e) => {
        e.preventDefault();
        const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
        this.zoom(Math.exp(Math.max(-200, Math.min(200, dy)) * 0.0015));
      },
      { passive: false },
    );
    on('contextmenu', (e) => e.preventDefault());
  }

  dispose(): void {
    for (const f of this.off.splice(0)) f();
  }
}
