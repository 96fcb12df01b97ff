// Tall systems (the performance target: 10,000 rows inspected in under a second): m distance rods on ONE body (6 columns), and on a few bodies joined into
// one island, inspected end to end (parse, buildWorld, assemble, solve, analysis, findings) and
// written as `inspect --json`. Rank, redundancy, κ and λ go through J's column space
// (src/engine/linalg/tall.ts); A = J·M⁻¹·Jᵀ is not formed (src/engine/assembly/tallOmissions.ts). Prints the
// time (best of a few runs) and the peak resident set of the process.
import { inspectScene } from '../src/engine';
import { inspectJson } from '../src/cli/json';

/** m rods from the world to `bodies` bodies (round robin), the bodies joined in a chain by ball joints. */
export function tallSceneText(m: number, bodies = 1): string {
  const names = Array.from({ length: bodies }, (_, b) => (bodies === 1 ? 'B' : `B${b}`));
  const constraints: object[] = Array.from({ length: m }, (_, i) => {
    const t = i * 2.399963, z = 1 - (2 * (i + 0.5)) / m, r = Math.sqrt(1 - z * z);
    const b = i % bodies;
    return { name: `d${i}`, type: 'distance', bodyA: 'world', bodyB: names[b], anchorA: [3 * r * Math.cos(t) + b, 3 * r * Math.sin(t), 3 * z], anchorB: [0.1 * Math.cos(i), 0.1 * Math.sin(i), 0.05 * ((i % 7) - 3)] };
  });
  for (let b = 1; b < bodies; b++) constraints.push({ name: `j${b}`, type: 'ball', bodyA: names[b - 1], bodyB: names[b], anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0] });
  const bodySpecs = names.map((name, b) => ({ name, mass: 1, inertia: [1, 1, 1], position: [b, 0, 0] }));
  return JSON.stringify({ name: 'tall', bodies: bodySpecs, constraints });
}

export interface TallResult {
  rows: number;
  bodies: number;
  /** Best of the runs: scene text → diagnostics. */
  ms: number;
  /** The same plus `inspect --json` of the snapshot. */
  jsonMs: number;
  /** CPU time (user + system, all threads) of scene text → `inspect --json`: the figure on a loaded machine. */
  cpuMs: number;
  jsonMB: number;
  peakRssMB: number;
  rank: number;
  redundant: number;
  /** Why A was not formed, or undefined when it was. */
  aOmitted?: string;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function once(text: string): { ms: number; jsonMs: number; cpuMs: number; jsonMB: number; r: ReturnType<typeof inspectScene> } {
  gc();
  const c0 = cpuNow();
  const t0 = performance.now();
  const r = inspectScene(text);
  const t1 = performance.now();
  const json = inspectJson(r.snapshot, r.diagnostics);
  const t2 = performance.now();
  return { ms: t1 - t0, jsonMs: t2 - t0, cpuMs: cpuNow() - c0, jsonMB: json.length / 1e6, r };
}

export function benchTall(sizes: number[] = [1000, 2000, 10000], bodyCounts: number[] = [1, 3], runs = 3): TallResult[] {
  console.log('\nTall systems: m distance rods on one body (and on 3 jointed bodies), inspect end to end (parse … diagnostics), then inspect --json');
  console.log('   rows  bodies   inspect ms   +json ms   CPU ms   json MB   peak RSS MB   rank   redundant   A');
  const out: TallResult[] = [];
  for (const m of sizes) {
    for (const nb of bodyCounts) {
      const text = tallSceneText(m, nb);
      let best: ReturnType<typeof once> | undefined;
      for (let k = 0; k < runs; k++) {
        const x = once(text);
        if (!best || x.jsonMs < best.jsonMs) best = x;
      }
      const { r } = best!;
      const res: TallResult = {
        rows: r.snapshot?.rank.rows ?? -1,
        bodies: nb,
        ms: best!.ms,
        jsonMs: best!.jsonMs,
        cpuMs: best!.cpuMs,
        jsonMB: best!.jsonMB,
        peakRssMB: process.resourceUsage().maxRSS / 1024,
        rank: r.snapshot?.rank.J ?? -1,
        redundant: r.snapshot?.redundant.length ?? -1,
        aOmitted: r.snapshot?.omitted?.A,
      };
      out.push(res);
      console.log(
        `${String(res.rows).padStart(7)} ${String(nb).padStart(7)} ${res.ms.toFixed(0).padStart(12)} ${res.jsonMs.toFixed(0).padStart(10)} ${res.cpuMs.toFixed(0).padStart(8)} ${res.jsonMB.toFixed(1).padStart(9)} ${res.peakRssMB.toFixed(0).padStart(13)} ${String(res.rank).padStart(6)} ${String(res.redundant).padStart(11)}   ${res.aOmitted ? 'omitted' : 'formed'}`,
      );
    }
  }
  return out;
}
