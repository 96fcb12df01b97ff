// MuJoCo as the solver: what the lens adds to each mj_step of a long run (the record of every step: ‖λ‖
// and the violation per element, energy, the blow-up watch; a checkpoint every 32 steps) against the bare
// mj_step on the same model in the same process, alternating, medians of several rounds. Snapshots
// (the analysed system of one step) are on demand and timed apart, and so is the analysis of every
// step (the report's and the MuJoCo inspector's history: κ and rank of each step's own system, read in
// one pass over the run from its checkpoints). The inspector's MuJoCo switch plays a model through the
// worker's live session (src/extension/mujocoSessions.ts): every step recorded, κ and rank analysed on a
// sample of the steps (whenever the analyses so far cost at most 5 % of the stepping time) and κ
// estimated on the steps between (within 10 %), timed here as the session takes them; and the step shown analysed at most 10 times a second (the panel's feed),
// which at Play as fast as possible takes 10 snapshots' time of every second: that column (≈) is
// computed from the medians, not timed as a whole. The bare mj_step, the lens and the session run side
// by side, each on its own data, in chunks taken in turn. Every column times the steps after the first `warm`
// ones, untimed, of the same run: a run's one-off costs (its first checkpoint, finding mjData's efc
// fields on the heap, the JIT's first compilations) are not a per-step cost, and on a model whose
// mj_step takes 10 µs they were half of a 1000-step run.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel, nodeFileAccess } from '../src/import/index';
import { compileModel, loadMujoco } from '../src/import/mujoco';
import { analysedStep, MujocoRun } from '../src/import/mujocoRun';
import { MujocoSessions } from '../src/extension/mujocoSessions';

/** The timed steps are taken in this many chunks, the bare mj_step, the lens and the session in turn. */
const CHUNKS = 8;
/** Each round times at least this long a run of the bare mj_step (more steps on the smallest models). */
const MIN_ROUND_MS = 100;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The models timed: the MuJoCo fixtures and any public models shipped as fixtures. */
function models(fixtures: string): string[] {
  const out = ['four-bar.xml', 'mujoco/box-stack.xml', 'mujoco/solref-clamp.xml'].filter((f) => existsSync(join(fixtures, f)));
  const pub = join(fixtures, 'public');
  if (existsSync(pub))
    for (const d of readdirSync(pub, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) for (const f of readdirSync(join(pub, d))) if (/\.(xml|urdf)$/.test(f) && !/scene|assets/.test(f)) out.push(join('public', d, f));
  return out;
}

export async function mujocoSolverBench(fixtures: string, steps = 1000, rounds = 5, warm = 1000): Promise<string[]> {
  const rt = await loadMujoco();
  const lines = [
    '| model | DOFs | steps timed a round | bare mj_step, ms | with the lens, ms | ratio | inspector session (κ sampled), ms/step | ratio | exact κ every N steps | inspector Play, max speed (+ shown step ≤ 10 Hz), ms/step | ratio | every step analysed, ms/step | ratio | one snapshot (analysed), ms |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const name of models(fixtures)) {
    const path = join(fixtures, name);
    const parse = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(fixtures) });
    const model = parse.model;
    if (!model) continue;
    const bare: number[] = [], lens: number[] = [], snap: number[] = [], all: number[] = [], live: number[] = [];
    let sampled = 0;
    const timed: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const c = compileModel(rt, model.mainName, [...model.vfs].map(([n, data]) => ({ name: n, data })));
      if ('error' in c) break;
      const mj = rt.mj as unknown as { MjData: new (m: unknown) => { delete(): void }; mj_step(m: unknown, d: unknown): void; mj_resetData(m: unknown, d: unknown): void };
      const d = new mj.MjData(c.model);
      const run = MujocoRun.open(rt, model);
      if ('error' in run) {
        d.delete();
        c.model.delete();
        break;
      }
      // the inspector's live session, as the worker steps it for Play
      const sessions = new MujocoSessions();
      const opened = await sessions.open({ id: 0, kind: 'open', key: 'bench', path, fileName: name, text: readFileSync(path, 'utf8'), plannedSteps: steps, conditionWarning: 1e8 });
      const live0 = opened.ok && opened.kind === 'open' && opened.model !== undefined;
      // maxSteps beyond the run: MuJoCo's findings come when a run stops or pauses, not per step
      const maxSteps = warm + 20 * steps + 1;
      let t = performance.now();
      for (let i = 0; i < warm; i++) mj.mj_step(c.model, d);
      // a small model's 2000 steps are a few ms, within the machine's jitter: each column of a round
      // times at least MIN_ROUND_MS of the bare mj_step (up to 20× `steps`)
      const n = Math.min(20 * steps, Math.max(steps, Math.ceil((MIN_ROUND_MS * warm) / Math.max(1e-6, performance.now() - t))));
      run.step(warm);
      const lensFrom = run.currentStep;
      const first = live0 ? sessions.step({ id: 1, kind: 'step', key: 'bench', steps: warm, budgetMs: 1e9, maxSteps }) : undefined;
      let liveTotal = first?.ok && first.kind === 'step' ? first.total : 0;
      // the three side by side, in chunks taken in turn, so that the machine's drift during a round
      // falls on all three alike
      const times = { bare: 0, lens: 0, live: 0 }, taken = { bare: 0, lens: 0, live: 0 };
      const chunk = Math.max(1, Math.ceil(n / CHUNKS));
      timed.push(n);
      for (let done = 0; done < n; done += chunk) {
        const k = Math.min(chunk, n - done);
        t = performance.now();
        for (let i = 0; i < k; i++) mj.mj_step(c.model, d);
        times.bare += performance.now() - t;
        taken.bare += k;
        const before = run.currentStep;
        t = performance.now();
        run.step(k);
        times.lens += performance.now() - t;
        taken.lens += run.currentStep - before;
        if (live0) {
          t = performance.now();
          const res = sessions.step({ id: 2, kind: 'step', key: 'bench', steps: k, budgetMs: 1e9, maxSteps });
          times.live += performance.now() - t;
          if (res.ok && res.kind === 'step') {
            taken.live += res.total - liveTotal;
            liveTotal = res.total;
            sampled += res.records.filter((x) => x.rank !== undefined).length;
          }
        }
      }
      bare.push(times.bare / taken.bare);
      if (taken.lens > 0) lens.push(times.lens / taken.lens);
      if (taken.live > 0) live.push(times.live / taken.live);
      d.delete();
      c.model.delete();
      sessions.close('bench');
      t = performance.now();
      run.snapshotAt(run.currentStep);
      snap.push(performance.now() - t);
      t = performance.now();
      // the analysis of every step costs tens of mj_steps: 500 of them tell its cost per step
      const allTo = Math.min(run.currentStep, lensFrom + 500);
      run.forEachSystem(lensFrom + 1, allTo, (sys) => analysedStep(sys, { wantSpectrum: false }));
      all.push((performance.now() - t) / Math.max(1, allTo - lensFrom));
      run.dispose();
    }
    if (bare.length === 0) continue;
    const b = median(bare), l = median(lens);
    const a = median(all);
    const v = live.length ? median(live) : NaN;
    // Play as fast as possible: 10 analysed snapshots of every second are not stepping time
    const play = v / Math.max(1e-9, 1 - (10 * median(snap)) / 1000);
    const every = sampled > 0 ? `${Math.round(timed.slice(0, live.length).reduce((a, x) => a + x, 0) / sampled)}` : '—';
    lines.push(`| ${name} | ${model.compiled.nv} | ${median(timed)} | ${b.toFixed(4)} | ${l.toFixed(4)} | ${(l / b).toFixed(2)} | ${v.toFixed(4)} | ${(v / b).toFixed(2)} | ${every} | ≈${play.toFixed(4)} | ≈${(play / b).toFixed(2)} | ${a.toFixed(4)} | ${(a / b).toFixed(1)} | ${median(snap).toFixed(2)} |`);
  }
  return lines;
}
