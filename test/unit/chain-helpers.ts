// Random joint chains of every closed-form pattern (scene/chainPattern.ts), for the exactness tests.
import type { ChainJointSpec, Vec3 } from '../../src/engine/index';

type Rng = () => number;

function gauss(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}
function runit(rng: Rng): Vec3 {
  const v: Vec3 = [gauss(rng), gauss(rng), gauss(rng)];
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
}
const rvec = (rng: Rng, s: number): Vec3 => [s * (2 * rng() - 1), s * (2 * rng() - 1), s * (2 * rng() - 1)];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (v: Vec3): Vec3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};

/** The patterns, by their joint sequence: s = slide, h = hinge (all hinges parallel), x = skew pair, r = three hinges with independent axes (rs, rss: with one or two slides among them). */
export const CHAIN_SHAPES = ['s', 'ss', 'sss', 'ssh', 'hss', 'shs', 'hS', 'Sh', 'hh', 'sh', 'hs', 'hhh', 'hhs', 'Shh', 'x', 'r', 'rs', 'rss'] as const;
export type ChainShape = (typeof CHAIN_SHAPES)[number];

/** A random chain of the given shape (S: a slide along the hinges' axis), axes and anchors in A's frame. */
export function randomChain(rng: Rng, shape: ChainShape): ChainJointSpec[] {
  if (shape === 'x') {
    return [
      { type: 'hinge', axis: runit(rng), anchor: rvec(rng, 1) },
      { type: 'hinge', axis: runit(rng), anchor: rvec(rng, 1) },
    ];
  }
  if (shape.startsWith('r')) {
    // the middle axis perpendicular to the others, so that every rotation has angles (with general axes
    // only a band of rotations has; chain-rotation.test.ts covers those at the states they reach), and
    // the first and last axes far from parallel (the gimbal lock)
    for (;;) {
      const b = runit(rng);
      const a1 = unit(cross(b, runit(rng))), a3 = unit(cross(b, runit(rng)));
      if (Math.hypot(...cross(a1, a3)) < 0.3) continue;
      const out = [a1, b, a3].map((axis): ChainJointSpec => ({ type: 'hinge', axis, anchor: rvec(rng, 1) }));
      // slides at random places among the hinges
      for (let k = 0; k < shape.length - 1; k++) out.splice(Math.floor(rng() * (out.length + 1)), 0, { type: 'slider', axis: runit(rng), anchor: rvec(rng, 1) });
      return out;
    }
  }
  const a = runit(rng);
  // In-plane slides: random directions perpendicular to a.
  const inPlane = (): Vec3 => unit(cross(a, runit(rng)));
  const hasHinge = shape.includes('h');
  return [...shape].map((c): ChainJointSpec => {
    if (c === 'h') return { type: 'hinge', axis: a, anchor: rvec(rng, 1) };
    if (c === 'S') return { type: 'slider', axis: a, anchor: rvec(rng, 1) };
    return { type: 'slider', axis: hasHinge ? inPlane() : runit(rng), anchor: rvec(rng, 1) };
  });
}
