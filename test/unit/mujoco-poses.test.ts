// The 3D view under MuJoCo: the inspector's MuJoCo session carries the converted scene's bodies posed by
// MuJoCo's run. Step 0's poses are the engine's initial poses (the converted scene: centres of mass,
// principal axes), and every record's poses are MuJoCo's own xipos and ximat after that step, checked
// against a separate run of MuJoCo's WebAssembly; the shown step's snapshot carries MuJoCo's contacts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cross, inspectParsed, quatToMat3, type ContactReport } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import';
import { loadMujoco } from '../../src/import/mujoco';
import { MujocoRun } from '../../src/import/mujocoRun';
import type { MujocoSolverModule } from '../../src/import/mujocoSystem';
import { handleMujoco } from '../../src/extension/mujocoWorker';
import { MujocoPanelSession, type MujocoPanelHooks } from '../../src/extension/logic/mujocoPanelSession';
import { isPanelModel } from '../../src/protocol';
import { FIXTURES } from './import-helpers';
import { hypot4 } from '../../src/import/geometry';
import { withMujocoXml } from './mujoco-helpers';
import { frameAt, sceneData } from '../../webview/scene3d/model';

const PATH = join(FIXTURES, 'mujoco', 'falling-brick.xml');
const XML = readFileSync(PATH, 'utf8');

const N = 120;

let ids = 0;

function session(path: string, text: string): MujocoPanelSession {
  const hooks: MujocoPanelHooks = {
    request: (m) => handleMujoco({ ...m, id: ++ids }),
    source: () => ({ path, fileName: 'falling-brick.xml', text, plannedSteps: N, conditionWarning: 1e8, maxSteps: 100_000 }),
    playRate: () => 1e6,
    modelChanged: () => undefined,
    stepped: () => undefined,
    running: () => undefined,
    diagnostics: () => undefined,
    error: (m) => assert.fail(m),
  };
  return new MujocoPanelSession(`poses:${++ids}`, hooks);
}

const near = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string): void => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

test('MuJoCo’s poses: step 0 is the engine’s initial state, step k MuJoCo’s xipos and ximat; the snapshot carries its contacts', async () => {
  const s = session(PATH, XML);
  try {
    const parse = await loadModel(PATH, XML, { files: nodeFileAccess(join(FIXTURES, 'mujoco')) });
    assert.ok(parse.scene && parse.model);
    const names = parse.scene.bodies.map((b) => b.name);
    // the massless body is merged: three scene bodies, the frame welded to the world
    assert.deepEqual(names, ['brick', 'frame', 'bob']);
    const engine = inspectParsed(XML, parse).snapshot;
    assert.ok(engine);
    const engine0 = names.map((n) => {
      const b = engine.bodyStates.find((x) => x.name === n);
      assert.ok(b, n);
      return [...b.position, ...b.orientation];
    });
    // the brick's principal axes are not its body frame's: the check below would not see a missing iquat
    const iq = parse.model.compiled.bodies[1].iquat;
    assert.ok(Math.abs(Math.abs(iq[3]) - 1) > 1e-3, `iquat ${iq}`);

    // the run's own record of step 0 (what the worker's session starts from)
    const rt = await loadMujoco();
    const run = MujocoRun.open(rt, parse.model);
    assert.ok(!('error' in run));
    try {
      near(run.records[0].poses, engine0.flat(), 1e-12, 'run step 0 vs engine');
    } finally {
      run.dispose();
    }

    assert.ok(await s.open());
    const m = s.model();
    assert.ok(m && isPanelModel(m));
    // the 3D view's bodies and shapes are the converted scene's, step 0 posed as the engine poses it
    assert.deepEqual(m.sceneBodies.map((b) => b.name), names);
    assert.ok(m.sceneBodies[0].shapes && m.sceneBodies[0].shapes.length === 2);
    assert.ok(m.worldShapes?.some((w) => w.type === 'plane'));
    near(names.flatMap((n) => {
      const b = m.snapshot.bodyStates.find((x) => x.name === n);
      assert.ok(b, n);
      return [...b.position, ...b.orientation];
    }), engine0.flat(), 1e-12, 'model step 0 vs engine');

    assert.equal(await s.step(N), N);
    const recs = s.records;
    assert.ok(recs.every((r) => r.poses.length === 7 * names.length));

    let mujocoContacts: MjContact[] = [];
    // MuJoCo's own run of the same model, step by step: the record of step k holds xipos and ximat of the state after it
    await withMujocoXml(XML, (mj, mm, d) => {
      mj.mj_forward(mm, d);
      const bodyId = names.map((n) => parse.model!.compiled.bodies.findIndex((b) => b.name === n));
      let contacts = 0;
      for (let k = 1; k <= N; k++) {
        // the system step N solves, at the state before it: MuJoCo's contacts and forces as the snapshot of step N must give them
        if (k === N) {
          mj.mj_forward(mm, d);
          mujocoContacts = contactForcesOnBodies(mj, mm, d, parse.model!.compiled.bodies.map((b) => b.name), parse.model!.compiled.geoms.map((g) => g.body));
        }
        mj.mj_step(mm, d);
        // the record of step k is the state after it: mj_step leaves the kinematics at the state it
        // started from, so they are computed again (the next mj_step recomputes them: the run is unchanged)
        (mj as unknown as { mj_kinematics(m: unknown, d: unknown): void }).mj_kinematics(mm, d);
        const xipos = d.xipos as Float64Array, ximat = d.ximat as Float64Array;
        const p = recs[k - 1].poses;
        bodyId.forEach((b, i) => {
          near(p.slice(7 * i, 7 * i + 3), xipos.subarray(3 * b, 3 * b + 3), 1e-12, `step ${k} ${names[i]} xipos`);
          const q = p.slice(7 * i + 3, 7 * i + 7) as [number, number, number, number];
          near(quatToMat3(q), ximat.subarray(9 * b, 9 * b + 9), 1e-12, `step ${k} ${names[i]} ximat`);
        });
        contacts = Number(d.ncon);
      }
      // the brick fell and came to the floor; the pendulum swung
      assert.ok(contacts > 0, 'MuJoCo has contacts at the end');
      assert.ok(recs[N - 1].poses[2] < engine0[0][2] - 0.05, `brick z ${recs[N - 1].poses[2]}`);
      assert.ok(Math.abs(recs[N - 1].poses[17] - engine0[2][3]) > 1e-3, 'the bob turned');
    });

    // the shown step's snapshot: MuJoCo's contacts in the engine's report shape, on the brick and the floor
    const snap = await s.snapshot(N);
    assert.ok(snap?.contacts && snap.contacts.length > 0);
    assert.equal(snap.contacts.length, mujocoContacts.length);
    snap.contacts.forEach((c) => {
      // as the engine reports a contact with the world: the body is A, the world B, the normal from B to A
      assert.equal(c.bodyA, 'brick');
      assert.equal(c.bodyB, 'world');
      assert.ok(c.normal[2] > 0.9, `normal ${c.normal}`);
      assert.ok(Math.abs(c.point[2]) < 0.01, `contact at z = ${c.point[2]}`);
    });
    sameContacts(snap.contacts, mujocoContacts);
    assert.ok(snap.contacts.some((c) => c.normalForce > 0), 'some contact pushes');

    // what the 3D view draws of the panel's model: the scene's bodies posed by the records (the shown
    // step's snapshot has no bodies), step 0 by the engine's initial poses, MuJoCo's contacts, and none
    // of MuJoCo's rows as joints (they name no bodies: drawn at the world's origin they would mislead)
    const panel = { ...m, history: recs.slice(), snapshots: [snap] };
    const data = sceneData(panel);
    assert.deepEqual(data.bodies.map((b) => b.name), names);
    assert.deepEqual(data.constraints, []);
    const fN = frameAt(panel, data, N, snap);
    assert.ok(fN.exact);
    near(fN.poses, recs[N - 1].poses, 1e-12, 'frame N vs record N');
    assert.equal(fN.contacts.length, snap.contacts.length);
    near(frameAt(panel, data, 0).poses, engine0.flat(), 1e-12, 'frame 0 vs engine');
    near(frameAt(panel, data, 7).poses, recs[6].poses, 1e-12, 'frame 7 (no snapshot) vs record 7');
  } finally {
    s.dispose();
  }
});

type Mj = Parameters<Parameters<typeof withMujocoXml>[1]>[0];
type MjM = Parameters<Parameters<typeof withMujocoXml>[1]>[1];
type MjD = Parameters<Parameters<typeof withMujocoXml>[1]>[2];

/** MuJoCo's contacts after mj_forward: the bodies of geom1 and geom2, the point and the force on geom2 in world axes (f in the contact frame). */
function contactForcesOnBodies(mj: Mj, m: MjM, d: MjD, bodyNames: readonly string[], geomBody: readonly number[]): MjContact[] {
  const name = (b: number): string => (b === 0 ? 'world' : bodyNames[b]);
  const buf = new mj.DoubleBuffer(6);
  const vec = d.contact as unknown as { size(): number; get(i: number): { geom1: number; geom2: number; pos: ArrayLike<number>; frame: ArrayLike<number>; delete(): void } };
  const out: MjContact[] = [];
  try {
    for (let i = 0; i < Number(d.ncon); i++) {
      const c = vec.get(i);
      (mj as unknown as MujocoSolverModule).mj_contactForce(m, d as never, i, buf as never);
      const f = buf.GetView();
      const fr = Array.from(c.frame);
      const force = [0, 1, 2].map((k) => f[0] * fr[k] + f[1] * fr[3 + k] + f[2] * fr[6 + k]);
      out.push({ bodies: [name(geomBody[c.geom1]), name(geomBody[c.geom2])], point: Array.from(c.pos), force });
      c.delete();
    }
  } finally {
    buf.delete();
  }
  return out;
}

type MjContact = { bodies: [string, string]; point: number[]; force: number[] };

/** The reports are MuJoCo's contacts: (t1, t2, n) right-handed, n from B to A, fn·n + f1·t1 + f2·t2 the force MuJoCo puts on A. */
function sameContacts(reports: readonly ContactReport[], mujoco: readonly MjContact[]): void {
  assert.equal(reports.length, mujoco.length);
  reports.forEach((c, i) => {
    const mjc = mujoco[i];
    near(cross(c.t1, c.t2), c.normal, 1e-12, `contact ${i} t1 × t2`);
    near(c.point, mjc.point, 1e-12, `contact ${i} point`);
    // A is geom2's body (the force on it is MuJoCo's f) or geom1's (the force on it is −f)
    const sign = c.bodyA === mjc.bodies[1] && c.bodyB === mjc.bodies[0] ? 1 : -1;
    if (sign < 0) assert.deepEqual([c.bodyA, c.bodyB], mjc.bodies);
    const onA = [0, 1, 2].map((k) => c.normalForce * c.normal[k] + c.frictionForce[0] * c.t1[k] + c.frictionForce[1] * c.t2[k]);
    near(onA, mjc.force.map((x) => sign * x), 1e-9 * (1 + Math.hypot(...mjc.force)), `contact ${i} force on ${c.bodyA}`);
  });
}

test('MuJoCo’s contacts between two bodies and with the world, with friction, in the engine’s report shape', async () => {
  // a stack pushed sideways by a tilted gravity: every contact holds friction; box on box (A is geom1) and box on floor (A is the box)
  const xml = `<mujoco><option timestep="0.002" gravity="2 1 -9.81"/><worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="low" pos="0 0 0.1"><freejoint/><geom name="lowbox" type="box" size="0.1 0.1 0.1" mass="1" friction="1.5"/></body>
    <body name="high" pos="0.03 0.02 0.3" euler="0 0 20"><freejoint/><geom name="highbox" type="box" size="0.08 0.08 0.1" mass="1" friction="1.5"/></body>
  </worldbody></mujoco>`;
  const parse = await loadModel('/virtual/m.xml', xml, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });
  assert.ok(parse.model);
  const run = MujocoRun.open(await loadMujoco(), parse.model);
  assert.ok(!('error' in run));
  const K = 40;
  try {
    run.step(K);
    const reports = run.snapshotAt(K).snapshot.contacts ?? [];
    let mujoco: MjContact[] = [];
    await withMujocoXml(xml, (mj, m, d) => {
      for (let k = 1; k < K; k++) mj.mj_step(m, d);
      mj.mj_forward(m, d);
      mujoco = contactForcesOnBodies(mj, m, d, parse.model!.compiled.bodies.map((b) => b.name), parse.model!.compiled.geoms.map((g) => g.body));
    });
    assert.ok(reports.some((c) => c.bodyB === 'world') && reports.some((c) => c.bodyA !== 'world' && c.bodyB !== 'world'), JSON.stringify(reports.map((c) => [c.bodyA, c.bodyB])));
    assert.ok(reports.every((c) => c.bodyA !== 'world'), 'the world is never A');
    assert.ok(reports.some((c) => c.bodyB !== 'world' && Math.hypot(...c.frictionForce) > 0.1), 'friction between the boxes');
    sameContacts(reports, mujoco);
  } finally {
    run.dispose();
  }
});

test('hypot4 (the records’ and the converted scene’s quaternion norm) is Math.hypot to the bit', () => {
  // random magnitudes over 40 decades with signs and zeros, then the special values
  let seed = 12345;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const value = (): number => {
    const k = rand();
    if (k < 0.05) return 0;
    if (k < 0.1) return -0;
    return (rand() - 0.5) * 10 ** (Math.floor(rand() * 40) - 20);
  };
  for (let i = 0; i < 200_000; i++) {
    const q = [value(), value(), value(), value()] as const;
    assert.ok(Object.is(hypot4(...q), Math.hypot(...q)), `hypot4(${q.join(', ')})`);
  }
  const special: [number, number, number, number][] = [[NaN, 1, 2, 3], [Infinity, NaN, 0, 0], [NaN, -Infinity, 0, 0], [0, 0, 0, 0], [-0, 0, 0, -0], [1e308, 1e308, 1e308, 1e308], [5e-324, 5e-324, 0, 0], [1, 1e-300, 1e300, -1]];
  for (const q of special)
    assert.ok(Object.is(hypot4(...q), Math.hypot(...q)), `hypot4(${q.join(', ')})`);
});
