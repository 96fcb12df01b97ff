#!/usr/bin/env node
// Summarise a .cpuprofile (V8's sampling profile, as written by the typing test under
// CL_E2E_PROFILE): top functions by self and by total time, within the keystroke windows when a
// windows file ([[startUs, endUs], …] in the profile's clock) is given.
//   node test/e2e/tools/cpuprofile.mjs test-results/e2e/typing-host.cpuprofile [windows.json] [--top 40]
import { readFileSync } from 'node:fs';

const [file, winFile] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const topArg = process.argv.indexOf('--top');
const TOP = topArg > 0 ? Number(process.argv[topArg + 1]) : 40;
const p = JSON.parse(readFileSync(file, 'utf8'));
const windows = winFile ? JSON.parse(readFileSync(winFile, 'utf8')) : [[-Infinity, Infinity]];
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^.*\/(node_modules|dist|out|vs)\//, '$1/');
  return `${f.functionName || '(anon)'} ${url}:${f.lineNumber + 1}`;
};
const self = new Map();
const total = new Map();
let t = p.startTime;
let inWin = 0;
let idle = 0;
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i];
  const dt = p.timeDeltas[i + 1] ?? 0;
  if (!windows.some(([a, b]) => t >= a && t <= b)) continue;
  const n = byId.get(p.samples[i]);
  inWin += dt;
  if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') idle += n.callFrame.functionName === '(idle)' ? dt : 0;
  const l = label(n);
  self.set(l, (self.get(l) ?? 0) + dt);
  const seen = new Set();
  for (let id = n.id; id !== undefined; id = parent.get(id)) {
    const ll = label(byId.get(id));
    if (seen.has(ll)) continue;
    seen.add(ll);
    total.set(ll, (total.get(ll) ?? 0) + dt);
  }
}
const ms = (us) => (us / 1000).toFixed(1).padStart(8);
const per = windows.length;
console.log(`windows ${per}, sampled ${ms(inWin)} ms, idle ${ms(idle)} ms, busy ${ms(inWin - idle)} ms (per window ${((inWin - idle) / 1000 / per).toFixed(1)} ms)`);
for (const [name, m] of [['self', self], ['total', total]]) {
  console.log(`\n-- top ${TOP} by ${name} time (ms over all windows) --`);
  for (const [l, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${ms(v)}  ${l}`);
}

// --stacks NAME: the distinct call stacks (outermost 14 frames under NAME's caller chain) through a function, by time.
const stArg = process.argv.indexOf('--stacks');
if (stArg > 0) {
  const want = process.argv[stArg + 1];
  const stacks = new Map();
  let t2 = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t2 += p.timeDeltas[i];
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (!windows.some(([a, b]) => t2 >= a && t2 <= b)) continue;
    const chain = [];
    for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) chain.push(label(byId.get(id)));
    const at = chain.findIndex((l) => l.startsWith(want + ' '));
    if (at < 0) continue;
    const key = chain.slice(at, at + 16).reverse().join('\n    ← ');
    stacks.set(key, (stacks.get(key) ?? 0) + dt);
  }
  console.log(`\n-- stacks through ${want} --`);
  for (const [k, v] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${ms(v)}\n    ${k}\n`);
}

// --tree NAME [--min MS]: the top-down tree of the calls under every frame of NAME (merged by label), in the windows.
const trArg = process.argv.indexOf('--tree');
if (trArg > 0) {
  const want = process.argv[trArg + 1];
  const minArg = process.argv.indexOf('--min');
  const MIN = (minArg > 0 ? Number(process.argv[minArg + 1]) : 5) * 1000;
  const root = { t: 0, kids: new Map() };
  let t3 = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t3 += p.timeDeltas[i];
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (!windows.some(([a, b]) => t3 >= a && t3 <= b)) continue;
    const chain = [];
    for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) chain.push(label(byId.get(id)));
    let at = -1;
    for (let k = chain.length - 1; k >= 0; k--) if (chain[k].startsWith(want + ' ')) { at = k; break; }
    if (at < 0) continue;
    let node = root;
    node.t += dt;
    for (let k = at; k >= 0; k--) {
      let c = node.kids.get(chain[k]);
      if (!c) node.kids.set(chain[k], (c = { t: 0, kids: new Map() }));
      c.t += dt;
      node = c;
    }
  }
  const show = (n, depth) => {
    for (const [l, c] of [...n.kids].sort((a, b) => b[1].t - a[1].t)) {
      if (c.t < MIN) continue;
      console.log(`${ms(c.t)} ${'  '.repeat(depth)}${l}`);
      show(c, depth + 1);
    }
  };
  console.log(`\n-- tree under ${want} (≥ ${MIN / 1000} ms) --`);
  show(root, 0);
}
