// The MuJoCo comparison in joint space (src/import/compareTrajectory.ts): the engine's reader of a
// hinge's or slider's coordinate against a closed form and its q̇ against a finite difference of q,
// a pendulum and a block on a rail against MuJoCo's qpos and qvel over a run (and the rail against its
// closed form), the samples drawn, the panel's form of it, and what the card says.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jointCoordinateReader, quatMul, type BodyKinematics, type SceneSpec } from '../../src/engine';
import { toPanelComparison } from '../../src/extension/logic/mujocoSection';
import { MAX_SAMPLES, sampleSteps } from '../../src/import/compareTrajectory';
import { compareWithMujoco, type CompareResult } from '../../src/import/index';
import { isMujocoSection } from '../../src/protocol';
import { bodyRow, jointRow, seriesPoints, trajectorySummary } from '../../webview/mujocoTrajectoryView';
import { importFixture } from './import-helpers';

const axisAngle = (a: [number, number, number], th: number): [number, number, number, number] => {
  const s = Math.sin(th / 2);
  return [a[0] * s, a[1] * s, a[2] * s, Math.cos(th / 2)];
};

describe('joint coordinate reader', () => {
  // bodyA tilted, bodyB hinged to it about A's local z; ω of B relative to A about that axis
  const qa = axisAngle([1, 0, 0], 0.4);
  const scene = {
    bodies: [
      { name: 'a', position: [0, 0, 0], orientation: qa, fixed: false },
      { name: 'b', position: [1, 0, 0], orientation: qa, fixed: false },
    ],
    constraints: [{ name: 'h', type: 'hinge', bodyA: 'a', bodyB: 'b', axisA: [0, 0, 1] }],
  } as unknown as SceneSpec;
  const read = jointCoordinateReader(scene, 'h')!;
  // B turned by θ about A's z (world: R_A·z), spinning at rate θ̇ about it
  const zWorld = (): [number, number, number] => {
    const [x, y, z, w] = qa;
    // R(q)·(0,0,1)
    return [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
  };
  const state = (th: number, rate: number): BodyKinematics[] => {
    const n = zWorld();
    return [
      { position: [0, 0, 0], orientation: qa, velocity: [0, 0, 0], angularVelocity: [0, 0, 0] },
      { position: [1, 0, 0], orientation: quatMul(axisAngle(n, th), qa), velocity: [0, 0, 0], angularVelocity: [n[0] * rate, n[1] * rate, n[2] * rate] },
    ];
  };

  test('q is the turn about the axis from the initial pose; q̇ is its rate', () => {
    for (const th of [0, 0.3, -1.2, 2.9]) {
      const r = read(state(th, 0.7));
      assert.ok(Math.abs(r.q - th) < 1e-12, `θ ${th}: q ${r.q}`);
      assert.ok(Math.abs(r.qd - 0.7) < 1e-12, `θ ${th}: q̇ ${r.qd}`);
    }
  });

  test('q̇ equals the finite difference of q along a motion of both bodies', () => {
    // A spins about world y at 0.5 rad/s, B turns relative to A at 1.3 rad/s about A's axis
    const at = (t: number): BodyKinematics[] => {
      const qA = quatMul(axisAngle([0, 1, 0], 0.5 * t), qa);
      const [x, y, z, w] = qA;
      const n: [number, number, number] = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
      const qB = quatMul(axisAngle(n, 1.3 * t), qA);
      return [
        { position: [0, 0, 0], orientation: qA, velocity: [0, 0, 0], angularVelocity: [0, 0.5, 0] },
        { position: [1, 0, 0], orientation: qB, velocity: [0, 0, 0], angularVelocity: [n[0] * 1.3, 0.5 + n[1] * 1.3, n[2] * 1.3] },
      ];
    };
    const t = 0.8, e = 1e-6;
    const fd = (read(at(t + e)).q - read(at(t - e)).q) / (2 * e);
    assert.ok(Math.abs(read(at(t)).qd - fd) < 1e-7, `q̇ ${read(at(t)).qd} vs finite difference ${fd}`);
    assert.ok(Math.abs(read(at(t)).q - 1.3 * t) < 1e-12);
  });

  test('no reader for a constraint that is not a hinge or slider, or not there', () => {
    assert.equal(jointCoordinateReader(scene, 'nope'), undefined);
    const ball = { ...scene, constraints: [{ name: 'b', type: 'ball', bodyA: 'a', bodyB: 'b' }] } as unknown as SceneSpec;
    assert.equal(jointCoordinateReader(ball, 'b'), undefined);
  });
});

describe('samples', () => {
  test('every state up to the cap, else an even stride ending on the last state', () => {
    assert.deepEqual(sampleSteps(5), [0, 1, 2, 3, 4]);
    assert.deepEqual(sampleSteps(0), []);
    const s = sampleSteps(1001);
    assert.ok(s.length <= MAX_SAMPLES, `${s.length} samples`);
    assert.equal(s[0], 0);
    assert.equal(s[s.length - 1], 1000);
    assert.ok(s.every((k, i) => i === 0 || k > s[i - 1]));
  });
});

describe('MuJoCo comparison in joint space (swing-rail.xml)', () => {
  let c: CompareResult;
  const steps = 300;
  before(async () => {
    const r = await importFixture('swing-rail.xml');
    c = await compareWithMujoco(r.parse, steps);
  });

  test('every hinge and slide joint is compared, held by its own constraint', () => {
    const t = c.trajectory!;
    assert.deepEqual(
      t.joints.map((j) => [j.name, j.type, j.constraint]),
      [
        ['swing', 'hinge', 'swing'],
        ['rail', 'slide', 'rail'],
      ],
    );
    assert.deepEqual(t.samples, sampleSteps(steps + 1));
    assert.deepEqual(t.bodies.map((b) => b.name).sort(), ['arm', 'block']);
  });

  test('both runs start equal and stay within a small deviation; MuJoCo and ours follow the rail’s closed form', () => {
    const [swing, rail] = c.trajectory!.joints;
    for (const j of [swing, rail]) {
      assert.equal(j.ours.q[0], j.mujoco.q[0]);
      assert.equal(j.ours.q.length, j.mujoco.q.length);
    }
    // 0.3 s of a pendulum released from horizontal: it swings ≈ 1 rad; the integrators differ by O(h)
    const last = swing.mujoco.q.length - 1;
    assert.ok(Math.abs(swing.mujoco.q[last]) > 0.5, `the pendulum swung (${swing.mujoco.q[last]})`);
    assert.ok(swing.dq.max < 2e-3, `max |Δq| of the swing ${swing.dq.max} rad`);
    assert.ok(swing.dqd.max < 2e-2, `max |Δq̇| of the swing ${swing.dqd.max} rad/s`);
    assert.ok(swing.dq.step > 0 && swing.dq.step <= steps);
    // semi-implicit Euler on the rail: q_n = −a·h²·n(n+1)/2 with a = g·sin 45°, exactly in both
    const a = 9.81 * Math.SQRT1_2, h = c.dt;
    rail.mujoco.q.forEach((q, k) => {
      const n = c.trajectory!.samples[k];
      const expected = (-a * h * h * n * (n + 1)) / 2;
      assert.ok(Math.abs(q - expected) < 1e-9, `MuJoCo's rail at step ${n}: ${q} vs ${expected}`);
      assert.ok(Math.abs(rail.ours.q[k] - expected) < 1e-9, `our rail at step ${n}: ${rail.ours.q[k]} vs ${expected}`);
      assert.ok(Math.abs(rail.ours.qd[k] + a * h * n) < 1e-9, `our rail's q̇ at step ${n}: ${rail.ours.qd[k]}`);
    });
    for (const b of c.trajectory!.bodies) assert.ok(b.max < 1e-3, `${b.name}: centre-of-mass distance ${b.max} m`);
  });

  test('the panel receives it, validated; the card names the largest deviation and when', () => {
    const p = toPanelComparison(c);
    assert.ok(p.trajectory);
    assert.equal(isMujocoSection({ status: 'done', comparison: p, keyframes: [] }), true);
    assert.equal(isMujocoSection({ status: 'done', comparison: { ...p, trajectory: { ...p.trajectory, joints: [{ name: 'x' }] } }, keyframes: [] }), false);
    const t = p.trajectory!;
    const swing = t.joints[0];
    const row = jointRow(swing, c.dt);
    assert.equal(row[0], 'swing (hinge)');
    assert.match(row[1], / rad$/);
    assert.match(row[2], new RegExp(`\\(step ${swing.dq.step}\\)$`));
    assert.match(row[3], / rad\/s$/);
    // the rail agrees to round-off (1e-15 m): said as such, not as a deviation at some step
    assert.match(trajectorySummary(t, c.dt), /largest hinge \|Δq\| .* rad \(swing, t = .* s \(step \d+\)\); slide joints agree to round-off; largest centre-of-mass distance .* m \(arm/);
    assert.deepEqual(jointRow(t.joints[1], c.dt).slice(1), ['≈ 0', '–', '≈ 0', '–']);
    assert.match(bodyRow(t.bodies[0], c.dt)[1], / m$/);
  });
});

describe('card texts', () => {
  const joint = (o: object) => ({ name: 'j', type: 'hinge' as const, mujoco: { q: [0, 1], qd: [0, 1] }, ours: { q: [0, 1], qd: [0, 1] }, dq: { max: 0.5, step: 3 }, dqd: { max: 1, step: 2 }, ...o });
  test('a joint held by a combined constraint says why; a non-finite deviation says so with its step', () => {
    assert.deepEqual(jointRow(joint({ ours: { q: [], qd: [] }, why: 'held by a chain constraint' }), 0.01), ['j (hinge)', 'held by a chain constraint', '', '', '']);
    assert.deepEqual(jointRow(joint({ dq: { max: null, step: 7 } }), 0.01).slice(1, 3), ['not finite', 't = 0.07 s (step 7)']);
    const s = trajectorySummary({ samples: [0, 1], joints: [joint({}), joint({ name: 'k', ours: { q: [], qd: [] } })], bodies: [] }, 0.01);
    assert.match(s, /largest hinge \|Δq\| 0\.5 rad \(j, t = 0\.03 s \(step 3\)\); 1 of 2 joints are held by combined constraints/);
  });
  test('series share one scale; nulls are skipped; a flat series still draws', () => {
    const sp = seriesPoints([[0, 1, null, 2], [0, 2]], 100, 10)!;
    assert.equal(sp.lo, 0);
    assert.equal(sp.hi, 2);
    assert.equal(sp.points[0], '0.0,10.0 33.3,5.0 100.0,0.0');
    assert.equal(sp.points[1], '0.0,10.0 33.3,0.0');
    assert.deepEqual(jointRow(joint({ dq: { max: 3e-15, step: 9 } }), 0.01).slice(1, 3), ['≈ 0', '–']);
    const flat = seriesPoints([[3, 3, 3]], 100, 10)!;
    assert.ok(flat.hi > flat.lo);
    assert.equal(seriesPoints([[null]], 100, 10), undefined);
  });
});

test('Compare with MuJoCo starts MuJoCo from the keyframe’s ctrl and act, as the engine: an actuated slide agrees', async () => {
  const { loadModel } = await import('../../src/import/index');
  const xml = `<mujoco><option timestep="0.01" gravity="0 0 0"/><worldbody><body name="cart"><joint name="s" type="slide" axis="1 0 0"/>
    <geom type="box" size="0.1 0.1 0.1" mass="2" contype="0" conaffinity="0"/></body></worldbody>
    <actuator><motor name="m" joint="s"/><general name="f" joint="s" dyntype="filter" dynprm="0.1" gainprm="3"/></actuator>
    <keyframe><key name="k" act="0.5" ctrl="2 -1"/></keyframe></mujoco>`;
  const parse = await loadModel('m.xml', xml, { keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const c = await compareWithMujoco(parse, 100);
  const [slide] = c.trajectory!.joints;
  // the motor and the filter (from act 0.5 towards −1) move the cart about 5 cm in 1 s; both runs take the same forces
  assert.ok(Math.abs(slide.mujoco.q[slide.mujoco.q.length - 1]) > 0.02, `MuJoCo's cart moved ${slide.mujoco.q[slide.mujoco.q.length - 1]}`);
  assert.ok(slide.dq.max < 1e-9, `max |Δq| ${slide.dq.max} m`);
});
