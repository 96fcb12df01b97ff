import { loadMujoco } from './mujoco';
import { chainMjcf, chainParams } from './chain';
(async () => {
  const mj = await loadMujoco();
  for (const n of [500, 1000, 2000]) for (const noEq of [false, true]) {
    let xml = chainMjcf(chainParams(n), { solver: 'Newton', jacobian: 'sparse', memory: `${Math.max(64, n / 10)}M` });
    if (noEq) xml = xml.replace(/<equality>[\s\S]*<\/equality>/, '');
    mj.FS.writeFile('/working/x.xml', xml);
    const t0 = performance.now();
    const m = mj.MjModel.loadFromXML('/working/x.xml');
    console.log(n, noEq ? 'no-eq' : 'eq', (performance.now() - t0).toFixed(0), 'ms');
    m.delete();
  }
})();
