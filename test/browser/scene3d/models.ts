// PanelModels for the 3D view's browser tests: the examples through the real engine (with the
// scene's geometry from sceneGeometry), a generated N-link chain, a joint gallery, and a synthetic
// contact scene (shapes, a ground plane and contacts added as the contact engine will report them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, Simulation } from '../../../src/engine';
import { sceneGeometry } from '../../../src/panelModel';
import type { PanelModel, SystemSnapshot } from '../../../src/protocol';
import { ROOT } from '../fixtures';

/** Analyse and run a scene text for `steps` steps; snapshots of the listed steps are embedded. */
export function modelFromText(text: string, fileName: string, steps: number, snapshotSteps: number[] = []): PanelModel {
  const inspect = inspectScene(text);
  const scene = inspect.parse.scene;
  if (!scene || !inspect.snapshot) throw new Error(`${fileName}: the scene could not be analysed: ${inspect.diagnostics.map((d) => d.message).join('; ')}`);
  const sim = new Simulation(scene, inspect.parse.sourceMap);
  sim.step(steps);
  const snapshots: SystemSnapshot[] = snapshotSteps.filter((k) => k > 0 && k <= sim.currentStep).map((k) => sim.snapshotAt(k));
  return {
    sceneName: scene.name,
    fileName,
    snapshot: inspect.snapshot,
    history: [...sim.records],
    plannedSteps: scene.solver.steps,
    dt: scene.solver.dt,
    diagnostics: [...inspect.diagnostics, ...sim.diagnostics],
    snapshots: snapshots.length ? snapshots : undefined,
    ...sceneGeometry(scene),
  };
}

export function exampleModel(name: string, steps: number, snapshotSteps: number[] = []): PanelModel {
  return modelFromText(readFileSync(join(ROOT, 'examples', `${name}.scene.json`), 'utf8'), `${name}.scene.json`, steps, snapshotSteps);
}

/** The bench's chain: n links of 0.1 m and 1 kg hanging from the world by ball joints, released horizontally. */
export function chainText(n: number, steps: number): string {
  const bodies = Array.from({ length: n }, (_, k) => ({ name: `link${k}`, mass: 1, inertia: [0.01, 0.01, 0.01], position: [0.1 * k + 0.05, 0, 0] }));
  const constraints = Array.from({ length: n }, (_, k) => ({
    name: k ? `joint${k}` : 'pin',
    type: 'ball',
    bodyA: k ? `link${k - 1}` : 'world',
    bodyB: `link${k}`,
    anchorA: k ? [0.05, 0, 0] : [0, 0, 0],
    anchorB: [-0.05, 0, 0],
  }));
  return JSON.stringify({ name: `Chain of ${n} links`, solver: { dt: 0.005, steps, alpha: 100, beta: 20, stabilization: 'baumgarte' }, bodies, constraints });
}

/** One constraint of each type, side by side along x. */
export function galleryText(): string {
  const I = [0.02, 0.02, 0.02];
  const bodies = [
    { name: 'bob', mass: 1, inertia: I, position: [0, 0, 0.4] },
    { name: 'ballBody', mass: 1, inertia: I, position: [1, 0, 0.5] },
    { name: 'door', mass: 1, inertia: [0.05, 0.02, 0.04], position: [2, 0, 0.5] },
    { name: 'carriage', mass: 1, inertia: I, position: [3, 0, 0.7] },
    { name: 'base', mass: 5, inertia: [0.2, 0.2, 0.2], position: [4, 0, 0.3], fixed: true },
    { name: 'welded', mass: 1, inertia: I, position: [4, 0, 0.8] },
    { name: 'locked', mass: 1, inertia: I, position: [5, 0, 0.6] },
  ];
  const constraints = [
    { name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'bob', anchorA: [0, 0, 1.2], anchorB: [0, 0, 0] },
    { name: 'socket', type: 'ball', bodyA: 'world', bodyB: 'ballBody', anchorA: [1, 0, 1], anchorB: [0, 0, 0.5] },
    { name: 'hinge', type: 'hinge', bodyA: 'world', bodyB: 'door', anchorA: [2, 0, 1], anchorB: [0, 0, 0.5], axisA: [0, 1, 0], axisB: [0, 1, 0] },
    { name: 'rail', type: 'slider', bodyA: 'world', bodyB: 'carriage', anchorA: [3, 0, 0.7], anchorB: [0, 0, 0], axisA: [1, 0, 0] },
    { name: 'weld', type: 'fixed', bodyA: 'base', bodyB: 'welded', anchorA: [0, 0, 0.25], anchorB: [0, 0, -0.25] },
    { name: 'lock', type: 'lock', bodyA: 'world', bodyB: 'locked', anchorA: [5, 0, 0.6], anchorB: [0, 0, 0], linear: [true, false, true], angular: [false, true, false] },
  ];
  return JSON.stringify({ name: 'Joint gallery', solver: { dt: 0.01, steps: 50, alpha: 100, beta: 20, stabilization: 'baumgarte' }, bodies, constraints });
}

/**
 * A box on the ground, a ball on the box, a capsule sliding on the ground tethered to a fixed post,
 * and a sphere just above the ground (an open contact). Shapes, the ground plane and the contacts
 * are added to the engine's model structurally (as the contact engine will provide them).
 */
export function contactModel(): PanelModel {
  const text = JSON.stringify({
    name: 'Contacts (synthetic)',
    gravity: [0, 0, -9.81],
    solver: { dt: 0.01, steps: 30, formulation: 'velocity', stabilization: 'none' },
    bodies: [
      { name: 'crate', mass: 4, inertia: [0.1, 0.1, 0.13], position: [0, 0, 0.25] },
      { name: 'ball', mass: 1, inertia: [0.009, 0.009, 0.009], position: [0.05, 0, 0.65] },
      { name: 'sled', mass: 2, inertia: [0.07, 0.07, 0.01], position: [1.2, 0.3, 0.1], orientation: [0, Math.SQRT1_2, 0, Math.SQRT1_2] },
      { name: 'post', mass: 1, inertia: [0.1, 0.1, 0.1], position: [2.2, 0.3, 0.5], fixed: true },
      { name: 'pebble', mass: 0.2, inertia: [0.0005, 0.0005, 0.0005], position: [-0.9, 0.2, 0.13] },
    ],
    constraints: [{ name: 'tether', type: 'distance', bodyA: 'post', bodyB: 'sled', anchorA: [0, 0, -0.3], anchorB: [0, 0, 0.3] }],
  });
  const m = modelFromText(text, 'contacts.scene.json', 1);
  const shapes: Record<string, unknown[]> = {
    crate: [{ type: 'box', name: 'crate', halfExtents: [0.3, 0.25, 0.25] }],
    ball: [{ type: 'sphere', name: 'ball', radius: 0.15 }],
    sled: [{ type: 'capsule', name: 'sled', radius: 0.1, halfLength: 0.3 }],
    post: [{ type: 'box', name: 'post', halfExtents: [0.06, 0.06, 0.5] }],
    pebble: [{ type: 'sphere', name: 'pebble', radius: 0.1 }],
  };
  for (const b of m.sceneBodies) b.shapes = shapes[b.name] as typeof b.shapes;
  m.worldShapes = [{ type: 'plane', name: 'ground', normal: [0, 0, 1], offset: 0, position: [0, 0, 0], orientation: [0, 0, 0, 1], friction: 0.5, restitution: 0, index: 0 }];
  const g = 9.81;
  const t1: [number, number, number] = [1, 0, 0];
  const t2: [number, number, number] = [0, 1, 0];
  const contact = (point: number[], normal: number[], normalForce: number, f: [number, number], state: string, bodyA: number, bodyB: number): unknown => ({
    bodyA,
    bodyB,
    point,
    normal,
    t1,
    t2,
    gap: state === 'open' ? 0.03 : -1e-4,
    normalForce,
    frictionForce: f,
    state,
  });
  const crateOnGround = [
    [-0.3, -0.25],
    [0.3, -0.25],
    [0.3, 0.25],
    [-0.3, 0.25],
  ].map(([x, y]) => contact([x, y, 0], [0, 0, 1], (5 * g) / 4, [0, 0], 'stick', 0, -1));
  const ballOnCrate = contact([0.05, 0, 0.5], [0, 0, 1], g, [0, 0], 'stick', 1, 0);
  const sledSlip = [0.9, 1.5].map((x) => contact([x, 0.3, 0], [0, 0, 1], g, [-0.4 * g, 0], 'slip', 2, -1));
  const pebbleOpen = contact([-0.9, 0.2, 0], [0, 0, 1], 0, [0, 0], 'open', 4, -1);
  (m.snapshot as unknown as { contacts: unknown[] }).contacts = [...crateOnGround, ballOnCrate, ...sledSlip, pebbleOpen];
  return m;
}
