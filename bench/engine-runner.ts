// This engine on the benchmark chain: the scene is built as JSON text and goes through the real
// front door (`parseScene` → `new Simulation(scene, sourceMap)`), and one timed step is
// `Simulation.step(1)`: assemble + solve + analysis (κ, rank, residual, energy, drift check) +
// integrate + the history record.
import { parseScene, Simulation } from '../src/engine';
import { chainSceneText, type ChainParams } from './chain';

export interface EngineChain {
  /** Rows of J and unknowns (6 per moving body). */
  rows: number;
  dofs: number;
  /** Back to the initial state (history cleared). */
  reset(): void;
  step(): void;
  /** Of the last step: solve method, κ(A) and whether κ was estimated. */
  lastStepInfo(): { method: string; cond: number | null; condEstimated: boolean };
  /** max over constraints of ‖C‖₂ after the last step (m). */
  jointError(): number;
  /** Centres of mass after the last step, [x,y,z] per link (undefined above the engine's record limit of 500 bodies). */
  positions(): number[] | undefined;
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
        const r = last();
        return r ? r.C.reduce((m, c) => Math.max(m, c), 0) : 0;
      },
      positions: () => {
        const r = last();
        if (!r || r.poses.length !== 7 * p.n) return undefined;
        const out: number[] = [];
        for (let k = 0; k < p.n; k++) out.push(r.poses[7 * k], r.poses[7 * k + 1], r.poses[7 * k + 2]);
        return out;
      },
      stopped: () => {
        if (!sim.stopped) return undefined;
        const d = sim.diagnostics.find((x) => x.severity === 'error');
        return d ? `${d.code}: ${d.message}` : 'stopped';
      },
    },
  };
}
