// Per-geom and per-pair soft-contact parameters against MuJoCo's WebAssembly: a contact takes the
// explicit pair's solref/solimp, else the higher priority geom's, else the two geoms' mixed by solmix
// (MuJoCo's mj_contactParam). Balls started into a floor recover by those parameters; their heights
// follow MuJoCo's step by step, and a run with every contact on the scene's one pair is far off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contactSoft, parseScene, Simulation, type SceneSpec } from '../../src/engine';
import { exportScene, loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';

const load = (xml: string) => loadModel('/virtual/m.xml', xml, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });
const STEPS = 150;

const BALLS = `<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="mixed" pos="0 0 0.09"><freejoint/><geom name="mixed" type="sphere" size="0.1" solref="0.05 0.7" solmix="3"/></body>
    <body name="first" pos="1 0 0.085"><freejoint/><geom name="first" type="sphere" size="0.1" priority="1" solimp="0.5 0.9 0.05 0.3 3" solref="0.01 1.5"/></body>
    <body name="plain" pos="2 0 0.092"><freejoint/><geom name="plain" type="sphere" size="0.1"/></body>
    <body name="paired" pos="3 0 0.088"><freejoint/><geom name="paired" type="sphere" size="0.1" solref="0.004 0.3"/></body>
  </worldbody>
  <contact><pair geom1="paired" geom2="floor" solref="0.08 1" solimp="0.8 0.9 0.01 0.5 2"/></contact>
</mujoco>`;

async function mujocoHeights(xml: string): Promise<number[][]> {
  return withMujocoXml(xml, (mj, m, d) => {
    const out: number[][] = [];
    for (let k = 0; k < STEPS; k++) {
      mj.mj_step(m, d);
      const q = d.qpos as Float64Array;
      out.push([0, 1, 2, 3].map((b) => q[7 * b + 2]));
    }
    return out;
  });
}

function ourHeights(scene: SceneSpec): number[][] {
  const sim = new Simulation(scene);
  const out: number[][] = [];
  for (let k = 0; k < STEPS; k++) {
    sim.step();
    assert.equal(sim.stopped, false, JSON.stringify(sim.diagnostics));
    const p = sim.records[sim.records.length - 1].poses;
    out.push([0, 1, 2, 3].map((b) => p[7 * b + 2]));
  }
  return out;
}

const gap = (a: number[][], b: number[][]) => Math.max(...a.flatMap((row, k) => row.map((x, i) => Math.abs(x - b[k][i]))));

test('balls in a floor recover by their mixed, prioritised and paired solref/solimp as in MuJoCo, step by step', async () => {
  const ref = await mujocoHeights(BALLS);
  const parse = await load(BALLS);
  const scene = parse.scene!;
  assert.ok(!parse.diagnostics.some((d) => /solref/.test(d.message)), parse.diagnostics.map((d) => d.message).join('\n'));
  const shape = (b: string) => scene.bodies.find((x) => x.name === b)!.shapes[0];
  assert.deepEqual([shape('mixed').solref, shape('mixed').solmix], [[0.05, 0.7], 3]);
  assert.deepEqual(shape('first').solimp, [0.5, 0.9, 0.05, 0.3, 3]);
  assert.equal(shape('plain').solref, undefined);
  assert.deepEqual(scene.world.pairs?.[0].solref, [0.08, 1]);
  const ours = ourHeights(scene);
  const g = gap(ours, ref);
  assert.ok(g < 1e-8, `heights differ from MuJoCo's by ${g} m`);
  // every ball moved by its own parameters: the scene's one pair for all is far off
  const flat = structuredClone(scene);
  for (const b of flat.bodies) for (const s of b.shapes) for (const k of ['solref', 'solimp', 'solmix'] as const) delete s[k];
  for (const p of flat.world.pairs ?? []) for (const k of ['solref', 'solimp'] as const) delete p[k];
  const off = gap(ourHeights(flat), ref);
  assert.ok(off > 1e-4, `one pair for every contact is ${off} m off`);
  // Export as Scene writes the rules; the scene reads them back and runs the same steps
  const back = parseScene(exportScene({ scene, path: 'm.xml' }));
  assert.deepEqual(back.diagnostics.filter((d) => d.severity === 'error'), []);
  assert.equal(gap(ourHeights(back.scene!), ours), 0);
});

test("MuJoCo's mixing rule: solmix weights, a zero weight, priority, an explicit pair, and the direct form's minimum", () => {
  const settings = { solref: [0.02, 1] as [number, number], solimp: [0.9, 0.95, 0.001, 0.5, 2] as [number, number, number, number, number] } as never;
  const near = (a: readonly number[], b: readonly number[]) => a.every((x, k) => Math.abs(x - b[k]) < 1e-15);
  assert.equal(contactSoft({}, {}, settings), undefined, 'nothing of their own: the scene\'s settings');
  const m = contactSoft({ solref: [0.04, 2], solmix: 3 }, { solmix: 1 }, settings)!;
  assert.ok(near(m.solref, [0.75 * 0.04 + 0.25 * 0.02, 0.75 * 2 + 0.25 * 1]), String(m.solref));
  assert.ok(near(contactSoft({ solref: [0.04, 2], solmix: 0 }, {}, settings)!.solref, [0.02, 1]), 'a zero weight takes the other\'s');
  assert.ok(near(contactSoft({ solref: [0.04, 2], solmix: 0 }, { solmix: 0 }, settings)!.solref, [0.03, 1.5]), 'two zero weights: half and half');
  assert.deepEqual(contactSoft({ solref: [0.04, 2] }, { priority: 2 }, settings)!.solref, [0.02, 1], 'the higher priority shape\'s, its own or the scene\'s');
  assert.deepEqual(contactSoft({ solref: [0.04, 2] }, {}, settings, { solimp: [0.5, 0.6, 0.1, 0.5, 2] } as never)!, { solref: [0.02, 1], solimp: [0.5, 0.6, 0.1, 0.5, 2] });
  assert.deepEqual(contactSoft({ solref: [-100, -10] }, { solref: [0.04, 2] }, settings)!.solref, [-100, -10], 'the direct form mixes by the minimum');
});
