// MuJoCo stepped through its WebAssembly, for the joint-force tests (forces*.test.ts).
import { loadMujoco } from '../../src/import/mujoco';

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

