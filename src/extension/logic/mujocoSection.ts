// The importer's comparison with MuJoCo as the panel receives it (protocol.ts MujocoComparison):
// the model's path stays in the host, and non-finite numbers become null (messages travel as JSON,
// where NaN and ∞ do not exist). Pure: unit-tested.
import type { CompareResult } from '../../import/compare';
import type { MaybeNumber, MujocoComparison, MujocoTrajectory, MujocoTrajectoryOf } from '../../protocol';

const finite = (x: number): MaybeNumber => (Number.isFinite(x) ? x : null);
const all = (xs: readonly number[]): MaybeNumber[] => xs.map(finite);

export function toPanelComparison(r: CompareResult): MujocoComparison {
  return {
    steps: r.steps,
    dt: r.dt,
    ...(r.keyframe !== undefined ? { keyframe: r.keyframe } : {}),
    equalities: r.equalities.map((e) => ({
      name: e.name,
      type: e.type,
      ...(e.constraint !== undefined ? { constraint: e.constraint } : {}),
      rows: [...e.rows],
      mujocoForce: all(e.mujocoForce),
      ourLambda: all(e.ourLambda),
      mujocoR: all(e.mujocoR),
      mujocoDiagA: all(e.mujocoDiagA),
      ourDiagA: all(e.ourDiagA),
      solref: [e.solref[0], e.solref[1]],
      solimp: [...e.solimp],
      violation: {
        mujoco: all(e.violation.mujoco),
        ours: all(e.violation.ours),
        mujocoMax: finite(e.violation.mujocoMax),
        oursMax: finite(e.violation.oursMax),
        mujocoFinal: finite(e.violation.mujocoFinal),
        oursFinal: finite(e.violation.oursFinal),
      },
    })),
    solver: { ...r.solver, warnings: r.solver.warnings.map((w) => ({ ...w })) },
    otherRows: { contacts: { ...r.otherRows.contacts }, limits: { ...r.otherRows.limits }, friction: { ...r.otherRows.friction } },
    bodies: r.bodies.map((b) => ({ name: b.name, distance: finite(b.distance) })),
    ...(r.trajectory ? { trajectory: toPanelTrajectory(r.trajectory) } : {}),
    ...(r.stoppedAt !== undefined ? { stoppedAt: r.stoppedAt } : {}),
    timing: { ...r.timing },
    notes: [...r.notes],
  };
}

function toPanelTrajectory(t: MujocoTrajectoryOf<number>): MujocoTrajectory {
  return {
    samples: [...t.samples],
    joints: t.joints.map((j) => ({
      name: j.name,
      type: j.type,
      ...(j.constraint !== undefined ? { constraint: j.constraint } : {}),
      ...(j.why !== undefined ? { why: j.why } : {}),
      mujoco: { q: all(j.mujoco.q), qd: all(j.mujoco.qd) },
      ours: { q: all(j.ours.q), qd: all(j.ours.qd) },
      dq: { max: finite(j.dq.max), step: j.dq.step },
      dqd: { max: finite(j.dqd.max), step: j.dqd.step },
    })),
    bodies: t.bodies.map((b) => ({ name: b.name, error: all(b.error), max: finite(b.max), step: b.step })),
  };
}
