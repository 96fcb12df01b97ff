// `npm run bench:import` — the figures docs/import.md quotes for MJCF/URDF models:
//   1. the load time of MuJoCo's WebAssembly: the first analysis of an MJCF file in a fresh process
//      (cold: load + compile + convert + analyse) and the next ones in the same process (warm), as the
//      extension's analyser and the CLI meet them;
//   2. agreement with MuJoCo on the test fixtures: masses, world centres of mass and M⁻¹ blocks
//      (1/m·I and R·I⁻¹·Rᵀ) against MuJoCo's compiled model, and, per equality constraint, our λ next to
//      MuJoCo's efc_force at t = 0 and both violations over the model's run (`compareWithMujoco`).
// Options: --cold N (fresh processes, default 5), --warm N (analyses per process, default 5), --no-time.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compareWithMujoco, inspectModel, nodeFileAccess } from '../src/import/index';
import { FIXTURES, mujocoReference, type MujocoReference } from '../test/unit/import-helpers';
import type { SystemSnapshot } from '../src/engine';
import { mujocoSolverBench } from './mujocoSolver';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number): number => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const TIME_MODEL = 'four-bar.xml';

async function analyse(name: string, keyframe?: string) {
  const path = join(FIXTURES, name);
  return inspectModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(FIXTURES), keyframe });
}

/** Child process: time the first analysis (MuJoCo not yet loaded), then `warm` more; print JSON. */
async function child(warm: number): Promise<void> {
  const t0 = performance.now();
  const first = await analyse(TIME_MODEL);
  const firstMs = performance.now() - t0;
  const warmMs: number[] = [];
  for (let i = 0; i < warm; i++) {
    const t = performance.now();
    await analyse(i % 2 ? 'slider-crank.xml' : TIME_MODEL);
    warmMs.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify({ firstMs, wasmLoadMs: first.parse.model?.wasmLoadMs, warmMs }));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const e = (x: number): string => (x === 0 ? '0' : x.toExponential(1));
const g = (x: number): string => (Math.abs(x) < 1e-9 ? e(x) : Number(x.toPrecision(6)).toString());

function timing(cold: number, warm: number): void {
  const runs = Array.from({ length: cold }, () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', __filename, '--child', String(warm)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    return JSON.parse(r.stdout) as { firstMs: number; wasmLoadMs: number; warmMs: number[] };
  });
  const first = runs.map((r) => r.firstMs);
  const load = runs.map((r) => r.wasmLoadMs);
  const warmAll = runs.flatMap((r) => r.warmMs);
  console.log(`## MuJoCo's WebAssembly: load time (${cold} fresh processes, Node ${process.version})\n`);
  console.log('| | median | min | max |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| WebAssembly load (import + compile + instantiate, first model only) | ${ms(median(load))} | ${ms(Math.min(...load))} | ${ms(Math.max(...load))} |`);
  console.log(`| cold: first analysis of ${TIME_MODEL} (load + compile + convert + step-0 analysis) | ${ms(median(first))} | ${ms(Math.min(...first))} | ${ms(Math.max(...first))} |`);
  console.log(`| warm: each later analysis in the same process (${TIME_MODEL} / slider-crank.xml, ${warmAll.length} in all) | ${ms(median(warmAll))} | ${ms(Math.min(...warmAll))} | ${ms(Math.max(...warmAll))} |`);
  console.log('');
}

/** Worst relative errors of masses, COMs and M⁻¹ blocks against MuJoCo's compiled model. */
function massAgreement(snap: SystemSnapshot, ref: MujocoReference) {
  let mass = 0, com = 0, minv = 0;
  snap.bodies.forEach((name, k) => {
    const b = ref.bodyNames.indexOf(name);
    if (b <= 0) throw new Error(`body ${name} not in MuJoCo's model`);
    const st = snap.bodyStates.find((s) => s.name === name)!;
    mass = Math.max(mass, Math.abs(st.mass - ref.mass[b]) / ref.mass[b]);
    const scale = Math.max(1, ...ref.xipos[b].map(Math.abs));
    for (let i = 0; i < 3; i++) com = Math.max(com, Math.abs(st.position[i] - ref.xipos[b][i]) / scale);
    const blk = snap.MinvBlocks.subarray(36 * k, 36 * k + 36);
    const R = ref.ximat[b], I = ref.inertia[b];
    const want = new Array(36).fill(0);
    for (let i = 0; i < 3; i++) want[i * 7] = 1 / ref.mass[b];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let q = 0; q < 3; q++) s += (R[i * 3 + q] * R[j * 3 + q]) / I[q];
      want[(3 + i) * 6 + 3 + j] = s;
    }
    const sc = Math.max(...want.map(Math.abs));
    for (let i = 0; i < 36; i++) minv = Math.max(minv, Math.abs(blk[i] - want[i]) / sc);
  });
  return { bodies: snap.bodies.length, mass, com, minv };
}

const MODELS: { file: string; keyframe?: string }[] = [
  { file: 'four-bar.xml' },
  { file: 'slider-crank.xml' },
  { file: 'weld.xml' },
  { file: 'joint-equality.xml', keyframe: 'tilted' },
  { file: 'arm-gripper.urdf' },
  { file: 'defaults-childclass.xml' },
  { file: 'frame.xml' },
  { file: 'degree.xml' },
  { file: 'inertia-from-geoms.xml' },
  { file: 'include-ok.xml' },
];

async function agreement(): Promise<void> {
  const mass: string[] = [];
  const forces: string[] = [];
  for (const { file, keyframe } of MODELS) {
    const r = await analyse(file, keyframe);
    if (!r.snapshot) throw new Error(`${file}: no snapshot`);
    const ref = await mujocoReference(file, keyframe);
    const a = massAgreement(r.snapshot, ref);
    const label = keyframe ? `${file} (key ${keyframe})` : file;
    mass.push(`| ${label} | ${a.bodies} | ${e(a.mass)} | ${e(a.com)} | ${e(a.minv)} |`);
    if (!r.parse.model?.compiled.equalities.length) continue;
    const c = await compareWithMujoco(r.parse);
    for (const q of c.equalities) {
      const n = Math.max(q.mujocoForce.length, q.ourLambda.length);
      const diff = Math.sqrt(Array.from({ length: n }, (_, i) => ((q.mujocoForce[i] ?? 0) - (q.ourLambda[i] ?? 0)) ** 2).reduce((s, x) => s + x, 0));
      const norm = Math.hypot(...q.ourLambda);
      const v = q.violation;
      forces.push(
        `| ${label} | ${q.type} ${q.name} → ${q.constraint ?? '–'} | ${q.mujocoForce.map(g).join(', ')} | ${q.ourLambda.map(g).join(', ')} | ${g(diff)} (${norm > 1e-9 ? `${((100 * diff) / norm).toFixed(2)} %` : '–'}) | ${e(v.mujocoMax)} / ${e(v.mujocoFinal)} | ${e(v.oursMax)} / ${e(v.oursFinal)} | ${c.steps} × ${c.dt} s, ${c.solver.iterationsMin}–${c.solver.iterationsMax} it. |`,
      );
    }
  }
  console.log('## Agreement with MuJoCo\'s compiled model (largest relative error over the moving bodies)\n');
  console.log('| model | bodies | mass | world COM (xipos) | M⁻¹ block |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const l of mass) console.log(l);
  console.log('\n## Equality constraints: our λ (exact, t = 0) vs MuJoCo\'s efc_force (soft), and the violation ‖C‖ over the run\n');
  console.log('| model | equality → constraint | MuJoCo efc_force | our λ | ‖difference‖ (of ‖λ‖) | MuJoCo ‖C‖ max / final | ours ‖C‖ max / final | run |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const l of forces) console.log(l);
}

async function main(): Promise<void> {
  if (argv[0] === '--child') return child(Number(argv[1]));
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average at the start: ${load()}\n`);
  if (!argv.includes('--no-time')) timing(opt('--cold', 5), opt('--warm', 5));
  await agreement();
  console.log(`\n## MuJoCo as the solver: per-step cost of the lens next to the bare mj_step (same process, medians of 5 rounds of 1000 steps)\n`);
  for (const l of await mujocoSolverBench(FIXTURES, opt('--mujoco-steps', 1000))) console.log(l);
  console.log(`\nload average at the end: ${load()}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
