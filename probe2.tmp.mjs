import load from '@mujoco/mujoco';
import { readFileSync } from 'node:fs';
const mj = await load({ print: () => {}, printErr: () => {} });
const vfs = new mj.MjVFS();
vfs.addBuffer('m.xml', readFileSync(process.argv[2]));
const m = mj.MjModel.mj_loadXML('m.xml', vfs);
const d = new mj.MjData(m);
mj.mj_forward(m, d);
console.log('ncon', d.ncon);
const c = d.contact;
console.log(Object.prototype.toString.call(c), c.constructor?.name, typeof c.get, typeof c.size, c.length);
let c0 = c.get ? c.get(0) : c[0];
console.log(c0);
let p = Object.getPrototypeOf(c0); console.log(Object.getOwnPropertyNames(p));
for (let i = 0; i < d.ncon; i++) { const x = c.get ? c.get(i) : c[i]; console.log(x.geom1, x.geom2, x.dist, x.includemargin, Array.from(x.frame).slice(0,3), Array.from(x.pos), x.dim, Array.from(x.friction), x.exclude); }
console.log(Array.from(m.geom_gap), Array.from(m.geom_margin));
