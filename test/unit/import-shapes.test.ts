// Geoms → contact shapes: the converted shapes are valid scene shapes that the engine's collision
// detection reads, and the gaps it finds equal MuJoCo's own contact distances on the same model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectContacts, parseScene, type Quat, type Vec3 } from '../../src/engine';
import { exportScene, loadModel } from '../../src/import/index';
import { loadMujoco } from '../../src/import/mujoco';

// A floor, a sphere, a box turned about z, a capsule lying along x and a second sphere touching the
// first: every pair penetrates by 0.01 m.
const MODEL = `<mujoco model="shapes">
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="ball" pos="0 0 0.09"><freejoint/><geom name="ball" type="sphere" size="0.1"/></body>
    <body name="crate" pos="1 0 0.09" euler="0 0 17"><freejoint/><geom name="crate" type="box" size="0.1 0.2 0.1"/></body>
    <body name="pill" pos="2 0 0.04" euler="0 90 0"><freejoint/><geom name="pill" type="capsule" size="0.05 0.2"/></body>
    <body name="ball2" pos="0 0.19 0.09"><freejoint/><geom name="ball2" type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>`;

const load = () => loadModel('/virtual/shapes.xml', MODEL, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });

/** Smallest gap per pair of geom names (order-free key). */
function byPair(entries: [string, string, number][]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [a, b, gap] of entries) {
    const key = [a, b].sort().join('|');
    out.set(key, Math.min(out.get(key) ?? Infinity, gap));
  }
  return out;
}

test('converted shapes collide: the engine finds the pairs MuJoCo finds, with MuJoCo\'s distances', async () => {
  const parse = await load();
  const scene = parse.scene!;
  assert.ok(scene, JSON.stringify(parse.diagnostics));
  assert.deepEqual(parse.diagnostics.map((d) => d.code), [], 'nothing left out: contacts are solved');
  assert.equal(scene.solver.contacts.enabled, true);
  assert.equal(scene.solver.formulation, 'velocity');

  // Our detection, with contacts switched on, at the initial poses.
  const poses = scene.bodies.map((b) => ({ p: b.position as Vec3, q: b.orientation as Quat }));
  const ours = detectContacts(scene, poses, { ...scene.solver.contacts, enabled: true });
  const shapeName = (owner: number, index: number) => (owner < 0 ? scene.world.shapes[index] : scene.bodies[owner].shapes[index]).name;
  const oursByPair = byPair(ours.map((c) => [shapeName(c.bodyA, c.shapeA), shapeName(c.bodyB, c.shapeB), c.gap]));

  // MuJoCo's contacts on the same model.
  const { mj } = await loadMujoco();
  const vfs = new mj.MjVFS();
  vfs.addBuffer('shapes.xml', new TextEncoder().encode(MODEL));
  const m = mj.MjModel.mj_loadXML('shapes.xml', vfs);
  vfs.delete();
  const d = new mj.MjData(m);
  const theirs: [string, string, number][] = [];
  try {
    mj.mj_forward(m, d);
    const raw = d as unknown as { ncon: number; contact: { get(i: number): { geom1: number; geom2: number; dist: number; delete?: () => void } } };
    const names = ['floor', 'ball', 'crate', 'pill', 'ball2']; // geom ids follow document order
    for (let i = 0; i < raw.ncon; i++) {
      const c = raw.contact.get(i)!;
      theirs.push([names[c.geom1], names[c.geom2], c.dist]);
      c.delete?.();
    }
  } finally {
    d.delete();
    m.delete();
  }
  const theirsByPair = byPair(theirs);
  assert.deepEqual([...oursByPair.keys()].sort(), [...theirsByPair.keys()].sort(), 'the same touching pairs');
  assert.equal(oursByPair.size, 5);
  for (const [pair, gap] of theirsByPair) {
    assert.ok(Math.abs(oursByPair.get(pair)! - gap) < 1e-9, `${pair}: ours ${oursByPair.get(pair)} vs MuJoCo ${gap}`);
    assert.ok(Math.abs(gap + 0.01) < 1e-9, `${pair}: penetrates by 0.01 m (${gap})`);
  }
});

test('the exported scene carries the shapes and reads back without a diagnostic', async () => {
  const parse = await load();
  const text = exportScene({ scene: parse.scene!, path: '/virtual/shapes.xml' });
  const back = parseScene(text);
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual(back.scene!.bodies.map((b) => b.shapes.map((s) => [s.name, s.type])), [[['ball', 'sphere']], [['crate', 'box']], [['pill', 'capsule']], [['ball2', 'sphere']]]);
  assert.deepEqual(back.scene!.world.shapes.map((s) => s.type), ['plane']);
  assert.equal(back.scene!.solver.contacts.enabled, true, 'contacts on, as in the import');
  assert.equal(back.scene!.solver.contacts.frictionRule, 'max');
  assert.equal(back.scene!.solver.formulation, 'velocity');
});
