// What the bench needs from every peer engine (MuJoCo, Rapier, cannon-es): build the benchmark
// chain, reset it, step it, and report where it is afterwards so that the table can show that
// every peer simulated the same thing.
import type { ChainParams } from './chain';

export interface PeerChain {
  /** Back to the initial state (may rebuild the world; never timed). */
  reset(): void;
  /** One time step of `p.dt` (the timed call). */
  step(): void;
  /** max over joints of |x_A − x_B| in world coordinates (m), via `chainJointError`. */
  jointError(): number;
  /** z of the last link's centre of mass (m). */
  tipZ(): number;
  /** Figures of the last step worth printing (solver iterations, constraint rows, …). */
  lastStepInfo(): Record<string, number>;
  dispose(): void;
}

export interface Peer {
  /** Stable key used in the JSON (`mujoco`, `mujoco-old`, `rapier`, `cannon`). */
  id: string;
  /** Column header. */
  label: string;
  /** Package and version as loaded, e.g. `@mujoco/mujoco 3.14.0`. */
  version: string;
  /** How the chain is modelled and stepped (printed under the table). */
  describe(): string;
  /** Settings that matter for the comparison (solver, iterations, …), for the JSON. */
  settings(): Record<string, unknown>;
  make(p: ChainParams): PeerChain;
  /** Other configurations of the same peer, timed for comparison only (never the peer's figure). */
  variants?(p: ChainParams): { label: string; make(): PeerChain }[];
}

/** A peer that could not be loaded at all (missing package, wasm failure): reported, never fatal. */
export interface PeerLoadFailure {
  id: string;
  label: string;
  reason: string;
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
