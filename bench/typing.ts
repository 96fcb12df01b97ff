// "While typing": from scene text to diagnostics, as the extension does after each edit
// (`inspectScene`: parse, assemble, solve, analyse). Each timed run analyses a different edit of
// the chain's text (one link's mass changed), so nothing can be reused from an identical text.
import { inspectScene, parseScene } from '../src/engine/index';
import { chainParams, chainSceneText } from './chain';
import { cpuMs, median, nowMs } from './timing';

/** The target for a 100-body chain (ms). */
export const TYPING_TARGET_MS = 20;
export const TYPING_TARGET_N = 100;

export interface TypingResult {
  n: number;
  bytes: number;
  runs: number;
  /** Median of inspectScene(text) over the edits (ms). */
  medianMs: number;
  /** The same runs by the CPU time of the process (ms). */
  cpuMedianMs: number;
  minMs: number;
  /** Median of parseScene(text) alone over the same edits (ms), wall clock and CPU time; the rest is assemble + solve + analyse. */
  parseMedianMs: number;
  parseCpuMedianMs: number;
  diagnostics: number;
  method: string;
  cond: number | null;
  condEstimated: boolean;
  /** inspectScene said the scene has errors (the bench chain never should). */
  hasErrors: boolean;
}

/** `count` variants of `text`, each with the mass of a different link edited (1 → 1.0k). */
function edits(text: string, count: number): string[] {
  const marks: number[] = [];
  const needle = '"mass": 1,';
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) marks.push(i);
  if (!marks.length) throw new Error('the chain text has no "mass": 1 to edit');
  const out: string[] = [];
  for (let r = 0; r < count; r++) {
    const at = marks[(r * 7919) % marks.length];
    out.push(`${text.slice(0, at)}"mass": 1.${String(r + 1).padStart(3, '0')},${text.slice(at + needle.length)}`);
  }
  return out;
}

export function runTyping(n: number, runs: number): TypingResult {
  const base = chainSceneText(chainParams(n));
  const warm = Math.max(5, Math.ceil(runs / 4));
  const texts = edits(base, warm + runs);
  // warm-up (JIT): untimed
  for (let k = 0; k < warm; k++) inspectScene(texts[k]);
  const totals: number[] = [];
  const cpus: number[] = [];
  const parses: number[] = [];
  const parseCpus: number[] = [];
  let last: ReturnType<typeof inspectScene> | undefined;
  for (let k = warm; k < texts.length; k++) {
    const c0 = cpuMs();
    const t0 = nowMs();
    last = inspectScene(texts[k]);
    totals.push(nowMs() - t0);
    cpus.push(cpuMs() - c0);
    const c1 = cpuMs();
    const t1 = nowMs();
    parseScene(texts[k]);
    parses.push(nowMs() - t1);
    parseCpus.push(cpuMs() - c1);
  }
  const s = last?.snapshot;
  return {
    n,
    bytes: base.length,
    runs,
    medianMs: median(totals),
    cpuMedianMs: median(cpus),
    minMs: Math.min(...totals),
    parseMedianMs: median(parses),
    parseCpuMedianMs: median(parseCpus),
    diagnostics: last?.diagnostics.length ?? 0,
    method: s?.method ?? 'none',
    cond: s ? s.cond.A : null,
    condEstimated: s?.condEstimated ?? false,
    hasErrors: last?.hasErrors ?? true,
  };
}
