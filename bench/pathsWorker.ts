// One scene's run as the library and the extension's Play take it, in a fresh worker thread (a new
// isolate: nothing compiled or warmed by the bench before, as in a new process), for bench/paths.ts.
// workerData: { text, steps, warm }; posts one PathsPhases back.
//   phases: inspectScene (what the CLI and the editor do first), the first `warm` steps (the JIT
//   warming up on this scene), the remaining steps (warmed per-step time), and the run's CL404
//   explanations (each is a few solves and a search over the history: one-off, not per step);
//   play: a second simulation of the same scene stepped by the extension's PlayLoop at "max" speed
//   with real timers, as the extension host runs it; direct: a third one, the same steps in a plain
//   loop (the engine alone), so that the loop's own cost reads as the difference.
import { parentPort, workerData } from 'node:worker_threads';
import { Codes, createSimulation, inspectScene, parseScene } from '../src/engine';
import { MAX_PLAY_RATE, PlayLoop } from '../src/extension/logic/playLoop';

export interface PathsPhases {
  inspectMs: number;
  warmSteps: number;
  warmMs: number;
  restSteps: number;
  restMs: number;
  divergenceExplained: boolean;
  stopped: boolean;
  play: { steps: number; ms: number };
  /** The same with an inspector that keeps up (acknowledges at once). */
  playWithPanel: { steps: number; ms: number };
  /** The same steps in a plain loop (`Simulation.step(1)` each), after Play, in the same isolate. */
  direct: { steps: number; ms: number };
}

const { text, steps, warm } = workerData as { text: string; steps: number; warm: number };

async function main(): Promise<PathsPhases> {
  let t = performance.now();
  const inspected = inspectScene(text);
  const inspectMs = performance.now() - t;
  const scene = inspected.parse.scene;
  if (!scene) throw new Error('the scene does not parse');
  const sim = createSimulation(scene, inspected.parse.sourceMap);
  const warmSteps = Math.min(warm, steps);
  t = performance.now();
  sim.step(warmSteps);
  const warmMs = performance.now() - t;
  t = performance.now();
  sim.step(steps - warmSteps);
  const restMs = performance.now() - t;
  const divergenceExplained = sim.diagnostics.some((d) => d.code === Codes.divergence);

  // Play: a new simulation (the JIT is warm now, as in an editor session), PlayLoop at max speed,
  // without an inspector (its tick) and with one that acknowledges at once (its yields between slices)
  const parse = parseScene(text);
  const target = Math.min(steps, 400);
  const playLoop = async (lag: (() => number) | undefined): Promise<{ steps: number; ms: number }> => {
    const played = createSimulation(parse.scene!, parse.sourceMap);
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      const loop = new PlayLoop({
        rate: () => MAX_PLAY_RATE,
        lag,
        step: () => {
          if (played.stopped || played.currentStep >= target) return false;
          played.step(1);
          return true;
        },
        progressed: () => {},
        ended: () => resolve(),
      });
      loop.start();
    });
    return { steps: played.currentStep, ms: performance.now() - t0 };
  };
  const play = await playLoop(undefined);
  const playWithPanel = await playLoop(() => 0);
  // the same steps of a third simulation in a plain loop: the engine alone, in the same warm isolate
  const plain = createSimulation(parse.scene!, parse.sourceMap);
  const t1 = performance.now();
  while (!plain.stopped && plain.currentStep < play.steps) plain.step(1);
  const direct = { steps: plain.currentStep, ms: performance.now() - t1 };
  return { inspectMs, warmSteps, warmMs, restSteps: steps - warmSteps, restMs, divergenceExplained, stopped: sim.stopped, play, playWithPanel, direct };
}

main().then(
  (r) => parentPort?.postMessage({ ok: true, phases: r }),
  (e) => parentPort?.postMessage({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
);
