// This engine on the benchmark chain: the scene is built as JSON text and goes through the real
// front door (`parseScene` → `new Simulation(scene, sourceMap)`, both from the engine's public
// index), and one timed step is `Simulation.step(1)`: assemble + solve + analysis (κ, rank,
// residual, energy, drift check) + integrate + the history record.
import { parseScene, Simulation } from '../src/engine/index';
import { chainJointError, chainSceneText, type ChainParams } from './chain';

export interface EngineChain {
  /** Rows of J and unknowns (6 per moving body). */
  rows: number;
  dofs: number;
  /** Back to the initial state (history cleared). */
  reset(): void;
  step(): void;
  /** Of the last step: solve method, κ(A) and whether κ was estimated. */
  lastStepInfo(): { method: string; cond: number | null; condEstimated: boolean };
  /** max over joints of |x_A − x_B| after the last step (m), from the final poses. */
  jointError(): number;
  /** z of the last link's centre after the last step (m). */
  tipZ(): number;
  /** Centres of mass after the last step, [x,y,z] per link. */
  positions(): number[];
  /** Set when the run stopped early (non-finite value). */
  stopped(): string | undefined;
}

export type EngineChainResult = { ok: true; chain: EngineChain } | { ok: false; reason: string };

export function makeEngineChain(p: ChainParams): EngineChainResult {
  const parsed = parseScene(chainSceneText(p));
  if (!parsed.scene || parsed.hasErrors) {
    const first = parsed.diagnostics.find((d) => d.severity === 'error');
    return { ok: false, reason: `scene rejected: ${first ? `${first.code} ${first.message}` : 'no scene'}` };
  }
  const sim = new Simulation(parsed.scene, parsed.sourceMap);
  const rows = parsed.scene.constraints.length * 3;
  const dofs = parsed.scene.bodies.filter((b) => !b.fixed).length * 6;
  const last = () => sim.records[sim.records.length - 1];
  const finalBodies = () => sim.result().final.bodies;
  return {
    ok: true,
    chain: {
      rows,
      dofs,
      reset: () => sim.reset(),
      step: () => {
        sim.step(1);
      },
      lastStepInfo: () => {
        const r = last();
        return r ? { method: r.method, cond: r.cond.A, condEstimated: r.condEstimated } : { method: 'none', cond: null, condEstimated: false };
      },
      jointError: () => {
        const b = finalBodies();
        return chainJointError(p, (k) => ({ pos: b[k].position, quatXyzw: b[k].orientation }));
      },
      tipZ: () => finalBodies()[p.n - 1].position[2],
      positions: () => finalBodies().flatMap((b) => [...b.position]),
      stopped: () => {
        if (!sim.stopped) return undefined;
        const d = sim.diagnostics.find((x) => x.severity === 'error');
        return d ? `${d.code}: ${d.message}` : 'stopped';
      },
    },
  };
}
