// MuJoCo's WebAssembly for the oracle tests: a model from XML text with its data, released afterwards.
import { loadMujoco, type MujocoRuntime } from '../../src/import/mujoco';

type Mj = MujocoRuntime['mj'];
type Model = ReturnType<Mj['MjModel']['mj_loadXML']>;
type Data = InstanceType<Mj['MjData']>;

/** Compile `xml` (as m.xml in a fresh VFS), make its data, run `use`, and delete both whatever happens. */
export async function withMujocoXml<T>(xml: string, use: (mj: Mj, m: Model, d: Data) => T): Promise<T> {
  const { mj } = await loadMujoco();
  const vfs = new mj.MjVFS();
  vfs.addBuffer('m.xml', new TextEncoder().encode(xml));
  const m = mj.MjModel.mj_loadXML('m.xml', vfs);
  vfs.delete();
  const d = new mj.MjData(m);
  try {
    return use(mj, m, d);
  } finally {
    d.delete();
    m.delete();
  }
}
