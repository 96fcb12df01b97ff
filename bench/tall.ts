// Tall systems (issue 9): m distance rods between the world and ONE body (6 columns), inspected
// end to end (parse, assemble, solve, analysis, findings). Rank, redundancy, κ and λ go through J's
// column space (src/engine/linalg/tall.ts); prints time and the growth of the resident set.
import { inspectScene } from '../src/engine';

export function tallSceneText(m: number): string {
  const constraints = Array.from({ length: m }, (_, i) => {
    const t = i * 2.399963, z = 1 - (2 * (i + 0.5)) / m, r = Math.sqrt(1 - z * z);
    return { name: `d${i}`, type: 'distance', bodyA: 'world', bodyB: 'B', anchorA: [3 * r * Math.cos(t), 3 * r * Math.sin(t), 3 * z], anchorB: [0.1 * Math.cos(i), 0.1 * Math.sin(i), 0.05 * ((i % 7) - 3)] };
  });
  return JSON.stringify({ name: 'tall', bodies: [{ name: 'B', mass: 1, inertia: [1, 1, 1], position: [0, 0, 0] }], constraints });
}

export interface TallResult {
  rows: number;
  ms: number;
  rssGrowthMB: number;
  rank: number;
  redundant: number;
}

export function benchTall(sizes: number[] = [250, 1000, 2000]): TallResult[] {
  console.log('\nTall systems: m distance rods on one body (inspect: parse + assemble + solve + analysis + diagnostics)');
  console.log('   rows        ms   RSS +MB  rank  redundant');
  const out: TallResult[] = [];
  for (const m of sizes) {
    const text = tallSceneText(m);
    const rss0 = process.memoryUsage().rss;
    const t0 = performance.now();
    const r = inspectScene(text);
    const ms = performance.now() - t0;
    const res = { rows: m, ms, rssGrowthMB: (process.memoryUsage().rss - rss0) / 1e6, rank: r.snapshot?.rank.J ?? -1, redundant: r.snapshot?.redundant.length ?? -1 };
    out.push(res);
    console.log(`${String(m).padStart(7)} ${ms.toFixed(0).padStart(9)} ${res.rssGrowthMB.toFixed(0).padStart(9)} ${String(res.rank).padStart(5)} ${String(res.redundant).padStart(10)}`);
  }
  return out;
}
