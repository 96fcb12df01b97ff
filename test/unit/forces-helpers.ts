// MuJoCo stepped through its WebAssembly, and the engine's joint coordinates over a run, for the joint-force tests (forces*, drive-rows*, hinge-groups* tests).
import { loadMujoco } from '../../src/import/mujoco';
import assert from 'node:assert/strict';
import type { Simulation } from '../../src/engine';

type Raw = Record<string, unknown> & { delete(): void };

/** MuJoCo's qpos after each of `steps` steps (from the key `k` with its ctrl when the model has one), and its energy. */
export async function mujocoRun(xml: string, steps: number): Promise<{ q: number[][]; qvel: number[][] }> {
  const { mj } = await loadMujoco();
  const vfs = new mj.MjVFS();
  vfs.addBuffer('m.xml', new TextEncoder().encode(xml));
  const m = mj.MjModel.mj_loadXML('m.xml', vfs) as unknown as Raw;
  vfs.delete();
  const d = new mj.MjData(m as never) as unknown as Raw;
  const mjx = mj as unknown as Record<string, (...a: unknown[]) => void>;
  try {
    if (Number(m.nkey) > 0) mjx.mj_resetDataKeyframe(m, d, 0);
    const q: number[][] = [], qvel: number[][] = [];
    for (let k = 0; k < steps; k++) {
      mjx.mj_step(m, d);
      q.push(Array.from(d.qpos as Float64Array));
      qvel.push(Array.from(d.qvel as Float64Array));
    }
    return { q, qvel };
  } finally {
    d.delete();
    m.delete();
  }
}


/**
 * The joints' coordinates after each of `steps` steps. The joint forces run in each step's assembly, at
 * the state before the step, so step k+1 reports the state after step k: steps + 1 steps are taken.
 */
export function jointAngles(sim: Simulation, steps: number): number[][] {
  const out: number[][] = [];
  for (let k = 0; k <= steps; k++) {
    sim.step(1);
    assert.equal(sim.stopped, false, JSON.stringify(sim.diagnostics));
    if (k > 0) out.push(Array.from(sim.world.forces!.report.q));
  }
  return out;
}
