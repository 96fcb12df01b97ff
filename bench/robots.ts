// `npm run bench:robots [-- MODEL_OR_DIR ...] [--seconds S] [--json]` — public robots opened with no
// options, side by side with MuJoCo's WebAssembly on the same model and initial state (the physics
// MuJoCo runs is the target; docs/import.md). Per model:
//   - status: the CLI's exit status for `simulate` (1 when the import or the run has an error);
//   - the run's own blow-up findings (CL401 non-finite, CL403 divergence, CL404 energy growth);
//   - the root body's height (its centre of mass, world z) at 0.25, 0.5 and 1 s (or the --seconds
//     grid), ours next to MuJoCo's mj_step;
//   - the pairs of bodies in contact at t = 0, ours (detection at the converted poses) against MuJoCo's
//     d.contact after mj_forward: how many, and how many differ;
//   - per-step time, ours (Simulation.step) and bare mj_step, on the same process, one after the other;
//   - our contact solver's work: Gauss–Seidel sweeps per step (mean) and the share of steps that
//     converged by the solver's own tolerance (velocity formulation; Newton's iterations otherwise).
// Default models: test/fixtures/import/public/*/*.xml (shipped with their licences). Directories are
// searched one level deep for *.xml and *.urdf files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { detectContacts, Simulation, type Quat, type SceneSpec, type Vec3 } from '../src/engine';
import { loadModel, nodeFileAccess } from '../src/import/index';
import { compileModel, loadMujoco, release, type MujocoRuntime } from '../src/import/mujoco';
import type { ModelParseResult } from '../src/import/model';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '1' }, json: { type: 'boolean', default: false } },
});
const SECONDS = Number(values.seconds);
const MARKS = [0.25, 0.5, 1].map((f) => f * SECONDS);
const BLOWUP = ['CL401', 'CL403', 'CL404'];

interface Row {
  model: string;
  status: number;
  errors: string[];
  blowups: string[];
  root: string;
  heights: { t: number; ours: number; mujoco: number }[];
  /** The root's centre of mass in the horizontal plane at the last mark (swimmers move in it). */
  xy: { ours: [number, number]; mujoco: [number, number] };
  contacts: { ours: number; mujoco: number; onlyOurs: string[]; onlyMujoco: string[] };
  stepMs: { ours: number; mujoco: number };
  /** Mean sweeps (or Newton iterations) per step and the fraction of steps converged; NaN without contact steps. */
  solver: { sweeps: number; converged: number };
  notSimulated: string;
}

const NO_SOLVER = { sweeps: NaN, converged: NaN };

function modelsOf(args: string[]): string[] {
  const roots = args.length ? args : [join(__dirname, '../test/fixtures/import/public')];
  const out: string[] = [];
  const isModel = (f: string) => /\.(xml|urdf)$/i.test(f);
  for (const r of roots) {
    if (!statSync(r).isDirectory()) {
      out.push(r);
      continue;
    }
    for (const e of readdirSync(r).sort()) {
      const p = join(r, e);
      if (statSync(p).isDirectory()) {
        for (const f of readdirSync(p).sort()) if (isModel(f)) out.push(join(p, f));
      } else if (isModel(e)) out.push(p);
    }
  }
  return out;
}

/** Body pairs (sorted names) of MuJoCo's contacts after mj_forward at the initial state, and the world-z of each body's centre of mass over the run. */
function mujocoRun(rt: MujocoRuntime, parse: ModelParseResult, root: string, steps: number, every: number[]): { pairs: Set<string>; heights: number[]; xy: [number, number]; stepMs: number } | undefined {
  const model = parse.model!;
  const compiled = compileModel(rt, model.mainName, [...model.vfs].map(([name, data]) => ({ name, data })));
  if ('error' in compiled) return undefined;
  const m = compiled.model;
  const d = new rt.mj.MjData(m);
  try {
    (d.qpos as Float64Array).set(model.state.qpos);
    (d.qvel as Float64Array).set(model.state.qvel);
    rt.mj.mj_forward(m, d);
    const M = m as unknown as Record<string, ArrayLike<number>>;
    const names = new TextDecoder().decode(Uint8Array.from(M.names, (x) => x & 0xff));
    const bodyName = (b: number) => {
      const n = names.slice(M.name_bodyadr[b], names.indexOf('\0', M.name_bodyadr[b]));
      return b === 0 ? 'world' : n || `body${b}`;
    };
    const nbody = Number((m as unknown as { nbody: number }).nbody);
    const rootIdx = Array.from({ length: nbody }, (_, b) => b).find((b) => bodyName(b) === root) ?? 1;
    const raw = d as unknown as { ncon: number; contact: { get(i: number): { geom1: number; geom2: number; delete?(): void } } };
    const pairs = new Set<string>();
    for (let i = 0; i < raw.ncon; i++) {
      const c = raw.contact.get(i);
      pairs.add([bodyName(M.geom_bodyid[c.geom1]), bodyName(M.geom_bodyid[c.geom2])].sort().join('|'));
      c.delete?.();
    }
    const heights: number[] = [];
    const z = () => (d.xipos as Float64Array)[3 * rootIdx + 2];
    const xy = (): [number, number] => [(d.xipos as Float64Array)[3 * rootIdx], (d.xipos as Float64Array)[3 * rootIdx + 1]];
    let k = 0;
    const t0 = performance.now();
    for (const target of every) {
      for (; k < target; k++) rt.mj.mj_step(m, d);
      // mj_step leaves xipos at the state the step started from: the positions after it need kinematics
      rt.mj.mj_kinematics(m, d);
      heights.push(z());
    }
    const stepMs = (performance.now() - t0) / Math.max(1, steps);
    return { pairs, heights, xy: xy(), stepMs };
  } finally {
    d.delete();
    release(m);
  }
}

function ourPairs(scene: SceneSpec): Set<string> {
  const poses = scene.bodies.map((b) => ({ p: b.position as Vec3, q: b.orientation as Quat }));
  const name = (i: number) => (i < 0 ? 'world' : scene.bodies[i].name);
  return new Set(detectContacts(scene, poses).map((c) => [name(c.bodyA), name(c.bodyB)].sort().join('|')));
}

async function one(rt: MujocoRuntime, path: string): Promise<Row> {
  const text = readFileSync(path, 'utf8');
  const parse = await loadModel(path, text, { files: nodeFileAccess(dirname(path)) });
  const errors = parse.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code.split('-')[0]);
  const notSimulated = parse.diagnostics.filter((d) => d.code.startsWith('CL606')).map((d) => d.message.replace(/\s+/g, ' ').slice(0, 160)).join(' / ');
  const empty: Row = { model: path, status: 1, errors, blowups: [], root: '', heights: [], xy: { ours: [NaN, NaN], mujoco: [NaN, NaN] }, contacts: { ours: 0, mujoco: 0, onlyOurs: [], onlyMujoco: [] }, stepMs: { ours: NaN, mujoco: NaN }, solver: NO_SOLVER, notSimulated };
  const scene = parse.scene;
  if (!scene || !parse.model) return empty;
  const dt = parse.model.compiled.timestep;
  const steps = Math.round(SECONDS / dt);
  const marks = MARKS.map((t) => Math.round(t / dt));
  const rootBody = scene.bodies.find((b) => !b.fixed);
  if (!rootBody) return { ...empty, status: errors.length ? 1 : 0 };
  const rootIdx = scene.bodies.indexOf(rootBody);
  const mj = mujocoRun(rt, parse, rootBody.name, steps, marks);

  const sim = new Simulation(scene, parse.sourceMap);
  const heights: number[] = [];
  let xy: [number, number] = [NaN, NaN];
  let k = 0;
  const t0 = performance.now();
  for (const target of marks) {
    if (target > k) sim.step(target - k);
    k = target;
    const p = sim.result().final.bodies[rootIdx]?.position;
    heights.push(p?.[2] ?? NaN);
    xy = [p?.[0] ?? NaN, p?.[1] ?? NaN];
    if (sim.stopped) break;
  }
  const oursMs = (performance.now() - t0) / Math.max(1, sim.currentStep);
  const runCodes = sim.diagnostics.map((d) => d.code.split('-')[0]);
  const runErrors = sim.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code.split('-')[0]);
  let sweeps = 0, converged = 0, solved = 0;
  for (const rec of sim.records) {
    const r = rec.pgs ?? rec.newton;
    if (!r) continue;
    solved++;
    sweeps += r.iterations;
    if (r.converged) converged++;
  }
  const ours = ourPairs(scene);
  const theirs = mj?.pairs ?? new Set<string>();
  return {
    model: path,
    status: errors.length || runErrors.length ? 1 : 0,
    errors: [...errors, ...runErrors],
    blowups: [...new Set(runCodes.filter((c) => BLOWUP.includes(c)))],
    root: rootBody.name,
    heights: MARKS.map((t, i) => ({ t, ours: heights[i] ?? NaN, mujoco: mj?.heights[i] ?? NaN })),
    xy: { ours: xy, mujoco: mj?.xy ?? [NaN, NaN] },
    contacts: { ours: ours.size, mujoco: theirs.size, onlyOurs: [...ours].filter((p) => !theirs.has(p)), onlyMujoco: [...theirs].filter((p) => !ours.has(p)) },
    stepMs: { ours: oursMs, mujoco: mj?.stepMs ?? NaN },
    solver: solved ? { sweeps: sweeps / solved, converged: converged / solved } : NO_SOLVER,
    notSimulated,
  };
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : String(x));
const f2 = (x: number) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toPrecision(2)) : '–');

async function main(): Promise<void> {
  const rt = await loadMujoco();
  const rows: Row[] = [];
  for (const p of modelsOf(positionals)) {
    try {
      rows.push(await one(rt, p));
    } catch (e) {
      rows.push({ model: p, status: 1, errors: [`threw: ${(e as Error).message}`], blowups: [], root: '', heights: [], xy: { ours: [NaN, NaN], mujoco: [NaN, NaN] }, contacts: { ours: 0, mujoco: 0, onlyOurs: [], onlyMujoco: [] }, stepMs: { ours: NaN, mujoco: NaN }, solver: NO_SOLVER, notSimulated: '' });
    }
  }
  if (values.json) {
    process.stdout.write(JSON.stringify({ load: loadavg(), seconds: SECONDS, rows }, null, 1) + '\n');
    return;
  }
  const head = ['model', 'status', 'blow-up', ...MARKS.map((t) => `root z @${t}s ours / MuJoCo (m)`), `root (x, y) @${MARKS[MARKS.length - 1]}s ours / MuJoCo (m)`, 'contact pairs t=0 ours / MuJoCo (differ)', 'ms/step ours / mj_step', 'sweeps/step (converged)'];
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) {
    const name = `${basename(dirname(r.model))}/${basename(r.model)}`;
    const diff = r.contacts.onlyOurs.length + r.contacts.onlyMujoco.length;
    console.log(
      `| ${name} | ${r.status}${r.errors.length ? ` (${[...new Set(r.errors)].join(',')})` : ''} | ${r.blowups.join(',') || '–'} | ${r.heights.map((h) => `${f3(h.ours)} / ${f3(h.mujoco)}`).join(' | ')} | (${f3(r.xy.ours[0])}, ${f3(r.xy.ours[1])}) / (${f3(r.xy.mujoco[0])}, ${f3(r.xy.mujoco[1])}) | ${r.contacts.ours} / ${r.contacts.mujoco} (${diff}) | ${f2(r.stepMs.ours)} / ${f2(r.stepMs.mujoco)} | ${Number.isFinite(r.solver.sweeps) ? `${r.solver.sweeps.toFixed(1)} (${(100 * r.solver.converged).toFixed(0)} %)` : '–'} |`,
    );
  }
  for (const r of rows) {
    if (r.contacts.onlyOurs.length || r.contacts.onlyMujoco.length) console.log(`${basename(r.model)}: only ours ${r.contacts.onlyOurs.join(' ') || '–'}; only MuJoCo ${r.contacts.onlyMujoco.join(' ') || '–'}`);
  }
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; per-step times: one run of each, total time / steps, same process`);
}

void main();
