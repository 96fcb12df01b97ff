// The benchmark chain, defined once and rendered for each contender:
//   link k (k = 0..N−1): 1 kg, inertia diag(0.01, 0.01, 0.01), at (k·0.1, 0, 0), at rest,
//   a horizontal chain that falls and swings under gravity (0, 0, −9.81);
//   ball joints between consecutive links at their midpoint (anchors ±0.05 in x),
//   and a ball joint between the world and link 0 at (−0.05, 0, 0);
//   dt = 0.005; stabilisation α = 3430, β = 100 (AerisLab rhs = −(1+β)·Ċ − α·C: hβ = ½ and h²α ≈
//   (1 − √½)², the engine's own "stable gains", ρ ≈ 0.71 per step), so that the engine's joints are
//   held together like the peers' (MuJoCo's soft constraints, Rapier's and cannon-es's stabilised
//   joints) rather than drifting; the gains cost nothing per step (the same formula with α = β = 0).

export interface ChainParams {
  n: number;
  mass: number;
  inertia: number;
  spacing: number;
  dt: number;
  gravity: [number, number, number];
  alpha: number;
  beta: number;
}

/** The chain's stabilisation gains (see above). */
export const CHAIN_ALPHA = 3430;
export const CHAIN_BETA = 100;

export function chainParams(n: number): ChainParams {
  return { n, mass: 1, inertia: 0.01, spacing: 0.1, dt: 0.005, gravity: [0, 0, -9.81], alpha: CHAIN_ALPHA, beta: CHAIN_BETA };
}

export const linkName = (k: number): string => `link${k}`;

/** Initial centre of mass of link k. */
export function linkPosition(p: ChainParams, k: number): [number, number, number] {
  return [k * p.spacing, 0, 0];
}

/** Half the spacing: the joint anchors are at ±half in each link's x. */
export const half = (p: ChainParams): number => p.spacing / 2;

/** The chain as scene-file JSON text (format v1), for `parseScene`. */
export function chainSceneText(p: ChainParams): string {
  const h = half(p);
  const bodies = [];
  const constraints = [];
  for (let k = 0; k < p.n; k++) {
    bodies.push({
      name: linkName(k),
      mass: p.mass,
      inertia: [p.inertia, p.inertia, p.inertia],
      position: linkPosition(p, k),
      orientation: [0, 0, 0, 1],
    });
  }
  constraints.push({ name: 'pin', type: 'ball', bodyA: linkName(0), bodyB: 'world', anchorA: [-h, 0, 0], anchorB: [-h, 0, 0] });
  for (let k = 0; k + 1 < p.n; k++) {
    constraints.push({
      name: `joint${k}`,
      type: 'ball',
      bodyA: linkName(k),
      bodyB: linkName(k + 1),
      anchorA: [h, 0, 0],
      anchorB: [-h, 0, 0],
    });
  }
  const scene = {
    name: `Chain of ${p.n} links (bench)`,
    gravity: p.gravity,
    solver: { dt: p.dt, steps: 100, alpha: p.alpha, beta: p.beta, stabilization: 'aerislab' },
    bodies,
    constraints,
  };
  return JSON.stringify(scene, null, 1);
}

/**
 * The chain in MJCF: N free bodies (`<freejoint/>`, explicit `<inertial>`, no geoms so there are
 * no contacts) and one `<connect>` equality per joint (anchor in body1's frame; body2's anchor is
 * taken from the initial configuration, which puts it at −0.05 in x of body2). Link 0 is connected
 * to the world (body2 omitted = world).
 */
export function chainMjcf(
  p: ChainParams,
  opts: { solver: 'Newton' | 'CG' | 'PGS'; jacobian: 'dense' | 'sparse' | 'auto'; memory?: string },
): string {
  const h = half(p);
  const lines: string[] = [];
  lines.push(`<mujoco model="chain${p.n}">`);
  lines.push(
    `  <option timestep="${p.dt}" gravity="${p.gravity.join(' ')}" integrator="Euler" solver="${opts.solver}" jacobian="${opts.jacobian}"/>`,
  );
  if (opts.memory) lines.push(`  <size memory="${opts.memory}"/>`);
  lines.push('  <worldbody>');
  for (let k = 0; k < p.n; k++) {
    const [x, y, z] = linkPosition(p, k);
    lines.push(`    <body name="${linkName(k)}" pos="${x} ${y} ${z}">`);
    lines.push('      <freejoint/>');
    lines.push(`      <inertial pos="0 0 0" mass="${p.mass}" diaginertia="${p.inertia} ${p.inertia} ${p.inertia}"/>`);
    lines.push('    </body>');
  }
  lines.push('  </worldbody>');
  lines.push('  <equality>');
  lines.push(`    <connect body1="${linkName(0)}" anchor="${-h} 0 0"/>`);
  for (let k = 0; k + 1 < p.n; k++) {
    lines.push(`    <connect body1="${linkName(k)}" body2="${linkName(k + 1)}" anchor="${h} 0 0"/>`);
  }
  lines.push('  </equality>');
  lines.push('</mujoco>');
  return lines.join('\n');
}

/** Rotate v by the unit quaternion q = [x, y, z, w] (scalar last). */
export function rotateXyzw(q: ArrayLike<number>, v: [number, number, number]): [number, number, number] {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  // t = 2·(qv × v); v' = v + w·t + qv × t
  const tx = 2 * (qy * v[2] - qz * v[1]);
  const ty = 2 * (qz * v[0] - qx * v[2]);
  const tz = 2 * (qx * v[1] - qy * v[0]);
  return [
    v[0] + qw * tx + (qy * tz - qz * ty),
    v[1] + qw * ty + (qz * tx - qx * tz),
    v[2] + qw * tz + (qx * ty - qy * tx),
  ];
}

/**
 * Worst joint violation of a chain state: max over joints of |x_A − x_B| (world anchor points),
 * given link k's position and orientation ([x,y,z,w]) by the callback.
 */
export function chainJointError(
  p: ChainParams,
  pose: (k: number) => { pos: ArrayLike<number>; quatXyzw: ArrayLike<number> },
): number {
  const h = half(p);
  const anchor = (k: number, sx: number): [number, number, number] => {
    const { pos, quatXyzw } = pose(k);
    const r = rotateXyzw(quatXyzw, [sx * h, 0, 0]);
    return [pos[0] + r[0], pos[1] + r[1], pos[2] + r[2]];
  };
  let worst = 0;
  const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  worst = Math.max(worst, dist(anchor(0, -1), [-h, 0, 0]));
  for (let k = 0; k + 1 < p.n; k++) worst = Math.max(worst, dist(anchor(k, 1), anchor(k + 1, -1)));
  return worst;
}
