// Gymnasium's ant (a public model, test/fixtures/import/public/ant) opened with no options: contacts
// are solved, the ant lands on its feet instead of falling through the floor, and the pairs of geoms
// in contact are MuJoCo's — at MuJoCo's own state after 1 s, where all four feet touch the floor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectContacts, inspectParsed, simulateInspected, type Quat, type Vec3 } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { matq } from '../../src/import/geometry';
import { loadMujoco } from '../../src/import/mujoco';

const DIR = join(__dirname, '..', 'fixtures', 'import', 'public', 'ant');
const PATH = join(DIR, 'ant.xml');
const TEXT = readFileSync(PATH, 'utf8');

test('ant: converted with contacts on (velocity formulation), MuJoCo\'s filters written out', async () => {
  const parse = await loadModel(PATH, TEXT, { files: nodeFileAccess(DIR) });
  const scene = parse.scene!;
  assert.deepEqual(parse.diagnostics.filter((d) => d.severity !== 'information'), []);
  assert.equal(scene.solver.formulation, 'velocity');
  assert.equal(scene.solver.contacts.enabled, true);
  // the ant's default class gives every body geom conaffinity 0 and margin 0.01: its parts never
  // collide with each other (by the bitmasks alone, so no exclusion is needed), only with the floor
  assert.equal(scene.world.exclude, undefined);
  assert.ok(scene.bodies.every((b) => b.shapes.every((s) => s.margin === 0.01 && s.conaffinity === 0 && s.contype === undefined)));
  assert.deepEqual(scene.world.shapes.map((s) => [s.name, s.type, s.conaffinity ?? 1]), [['floor', 'plane', 1]]);
});

test('ant: lands on its feet in 1 s (no overflow, no NaN), with MuJoCo\'s contact pairs at MuJoCo\'s state', async () => {
  const parse = await loadModel(PATH, TEXT, { files: nodeFileAccess(DIR) });
  const scene = parse.scene!;
  const inspect = inspectParsed(TEXT, parse);
  const out = simulateInspected(inspect, 100);
  const codes = inspect.diagnostics.map((d) => d.code);
  for (const bad of ['CL401-non-finite', 'CL403-overflow', 'CL404-divergence']) assert.ok(!codes.includes(bad as never), bad);
  const torso = scene.bodies.findIndex((b) => b.name === 'torso');
  const z = out.result!.steps[99].poses[7 * torso + 2];
  // MuJoCo: 0.566 m with its joint limits, armature and damping (0.270 m without them); never below the floor.
  // The legs' armature (1 kg·m² on links of 1e-2) is simulated between the moving links (drive rows)
  assert.ok(scene.constraints.filter((c) => c.drive?.armature === 1).length === 8, 'every hip and ankle keeps its armature');
  assert.ok(!parse.diagnostics.some((d) => /armature/.test(d.message)), 'no armature listed as not simulated');
  assert.ok(Math.abs(z - 0.566) < 0.1, `torso at ${z} m after 1 s (MuJoCo 0.566 m)`);

  // MuJoCo's state after 1 s: the same geom pairs in contact
  const { mj } = await loadMujoco();
  const vfs = new mj.MjVFS();
  vfs.addBuffer('ant.xml', new TextEncoder().encode(TEXT));
  const m = mj.MjModel.mj_loadXML('ant.xml', vfs);
  vfs.delete();
  const d = new mj.MjData(m);
  try {
    for (let k = 0; k < 100; k++) mj.mj_step(m, d);
    mj.mj_forward(m, d);
    const M = m as unknown as Record<string, ArrayLike<number>>;
    const D = d as unknown as Record<string, ArrayLike<number>> & { ncon: number; contact: { get(i: number): { geom1: number; geom2: number } } };
    const names = new TextDecoder().decode(Uint8Array.from(M.names, (x) => x & 0xff));
    const nameAt = (adr: number) => names.slice(adr, names.indexOf('\0', adr));
    const geomName = (g: number) => nameAt(M.name_geomadr[g]) || `${M.geom_bodyid[g]}`;
    // unnamed bodies are `body<id>` in the scene
    const bodyId = (name: string) => Array.from({ length: Number(m.nbody) }, (_, b) => b).find((b) => (nameAt(M.name_bodyadr[b]) || `body${b}`) === name)!;
    const poses = scene.bodies.map((b) => {
      const id = bodyId(b.name);
      return { p: [D.xipos[3 * id], D.xipos[3 * id + 1], D.xipos[3 * id + 2]] as Vec3, q: matq(Array.from({ length: 9 }, (_, k) => D.ximat[9 * id + k])) as Quat };
    });
    const theirs = new Set<string>();
    for (let i = 0; i < D.ncon; i++) {
      const c = D.contact.get(i);
      theirs.add([geomName(c.geom1), geomName(c.geom2)].sort().join('|'));
    }
    const shapeName = (owner: number, i: number) => (owner < 0 ? scene.world.shapes[i] : scene.bodies[owner].shapes[i]).name;
    const ours = new Set(detectContacts(scene, poses).map((c) => [shapeName(c.bodyA, c.shapeA), shapeName(c.bodyB, c.shapeB)].sort().join('|')));
    assert.ok(theirs.size >= 4, [...theirs].join(', '));
    assert.deepEqual([...ours].sort(), [...theirs].sort());
  } finally {
    d.delete();
    m.delete();
  }
});
