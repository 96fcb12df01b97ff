// The bodies' velocities under MuJoCo: every record of MuJoCo's run carries the converted scene's bodies'
// velocities in the engine's layout (the centre of mass's v, then ω, world axes), read from cvel; checked
// against a separate run of MuJoCo's WebAssembly through its own mj_objectVelocity (mjOBJ_BODY, world
// frame) to 1e-12 at every step, on a spinning brick that falls onto the floor and a pendulum hanging off
// a tilted frame. Step 0 is the engine's initial state; the snapshot of a later step the panel asks for
// carries its bodies at that step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectParsed } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import';
import { loadMujoco } from '../../src/import/mujoco';
import { MujocoRun } from '../../src/import/mujocoRun';
import { handleMujoco } from '../../src/extension/mujocoWorker';
import { MujocoPanelSession, type MujocoPanelHooks } from '../../src/extension/logic/mujocoPanelSession';
import { FIXTURES } from './import-helpers';
import { withMujocoXml } from './mujoco-helpers';

const DIR = join(FIXTURES, 'mujoco');
const PATH = join(DIR, 'falling-brick.xml');
// the brick thrown spinning, the pendulum swinging (nv = 6 + 1), so that ω × (xipos − subtree_com) matters
const XML = readFileSync(PATH, 'utf8').replace('</mujoco>', '  <keyframe><key name="spin" qvel="0.3 -0.2 0.4 2 -1 3 1.5"/></keyframe>\n</mujoco>');
const N = 150;

const near = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string): void => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol, `${what}[${i}]: ${a[i]} vs ${b[i]} (Δ ${a[i] - b[i]})`);
};

test('MuJoCo’s body velocities: every step’s record equals mj_objectVelocity of a separate run to 1e-12; step 0 the engine’s', async () => {
  const parse = await loadModel(PATH, XML, { files: nodeFileAccess(DIR), keyframe: 'spin' });
  assert.ok(parse.scene && parse.model);
  const names = parse.scene.bodies.map((b) => b.name);
  assert.deepEqual(names, ['brick', 'frame', 'bob']);
  const bodyId = names.map((n) => parse.model!.compiled.bodies.findIndex((b) => b.name === n));
  const rt = await loadMujoco();
  const run = MujocoRun.open(rt, parse.model, { keyframe: 'spin' });
  assert.ok(!('error' in run));
  try {
    // step 0: the engine's initial velocities (the converted scene's, from the keyframe's qvel)
    const engine = inspectParsed(XML, parse).snapshot;
    assert.ok(engine);
    const engine0 = names.flatMap((n) => {
      const b = engine.bodyStates.find((x) => x.name === n);
      assert.ok(b, n);
      return [...b.velocity, ...b.angularVelocity];
    });
    near(run.records[0].velocities, engine0, 1e-12, 'step 0 vs engine');
    assert.ok(Math.hypot(...engine0.slice(3, 6)) > 1, 'the brick spins');
    run.step(N);
    assert.equal(run.currentStep, N);
    await withMujocoXml(XML, (mj, m, d) => {
      const res = new mj.DoubleBuffer(6);
      try {
        (mj as unknown as { mj_resetDataKeyframe(m: unknown, d: unknown, key: number): void }).mj_resetDataKeyframe(m, d, 0);
        mj.mj_forward(m, d);
        let contacts = 0;
        for (let k = 1; k <= N; k++) {
          mj.mj_step(m, d);
          // the record of step k is the state after it (mj_step leaves cvel at the state it started from)
          const fk = mj as unknown as Record<'mj_kinematics' | 'mj_comPos' | 'mj_comVel', (m: unknown, d: unknown) => void>;
          fk.mj_kinematics(m, d);
          fk.mj_comPos(m, d);
          fk.mj_comVel(m, d);
          const v = run.records[k].velocities;
          bodyId.forEach((b, i) => {
            mj.mj_objectVelocity(m, d, mj.mjtObj.mjOBJ_BODY.value, b, res, 0);
            const r = res.GetView();
            near(v.subarray(6 * i, 6 * i + 3), r.subarray(3, 6), 1e-12, `step ${k} ${names[i]} v`);
            near(v.subarray(6 * i + 3, 6 * i + 6), r.subarray(0, 3), 1e-12, `step ${k} ${names[i]} ω`);
          });
          contacts = Math.max(contacts, Number(d.ncon));
        }
        assert.ok(contacts > 0, 'the brick reached the floor');
      } finally {
        res.delete();
      }
    });
    // the brick's velocity changed at the floor: not a constant the check would pass anyway
    const vz = (k: number) => run.records[k].velocities[2];
    assert.ok(Math.abs(vz(N) - vz(1)) > 0.1, `brick v_z ${vz(1)} → ${vz(N)}`);
  } finally {
    run.dispose();
  }
});

test('the snapshot of a later step carries MuJoCo’s bodies at that step (poses and velocities of its record)', async () => {
  let ids = 0;
  const hooks: MujocoPanelHooks = {
    request: (m) => handleMujoco({ ...m, id: ++ids } as Parameters<typeof handleMujoco>[0]),
    source: () => ({ path: PATH, fileName: 'falling-brick.xml', text: XML, keyframe: 'spin', plannedSteps: 10, conditionWarning: 1e8, maxSteps: 100_000 }),
    playRate: () => 1e6,
    modelChanged: () => undefined,
    stepped: () => undefined,
    running: () => undefined,
    diagnostics: () => undefined,
    error: (m) => assert.fail(m),
  };
  const s = new MujocoPanelSession('velocities', hooks);
  try {
    assert.ok(await s.open());
    assert.equal(await s.step(60), 60);
    const parse = await loadModel(PATH, XML, { files: nodeFileAccess(DIR), keyframe: 'spin' });
    const rt = await loadMujoco();
    const run = MujocoRun.open(rt, parse.model!, { keyframe: 'spin' });
    assert.ok(!('error' in run));
    try {
      run.step(60);
      for (const k of [1, 37, 60]) {
        const snap = await s.snapshot(k);
        assert.ok(snap);
        assert.deepEqual(snap.bodyStates.map((b) => b.name), ['brick', 'frame', 'bob']);
        snap.bodyStates.forEach((b, i) => {
          assert.deepEqual([...b.position, ...b.orientation], Array.from(run.records[k].poses.subarray(7 * i, 7 * i + 7)), `step ${k} ${b.name} pose`);
          assert.deepEqual([...b.velocity, ...b.angularVelocity], Array.from(run.records[k].velocities.subarray(6 * i, 6 * i + 6)), `step ${k} ${b.name} velocity`);
        });
      }
    } finally {
      run.dispose();
    }
  } finally {
    s.dispose();
  }
});
