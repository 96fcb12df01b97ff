// The bench's printed tables and its JSON (bench/results/latest.json).
import type { DenseExtra, EngineExtra, Outcome, PeerExtra, PeerRun } from './contenders';
import { cellMs, fmtMs, fmtRatio, table, wrap } from './format';
import type { Peer, PeerLoadFailure } from './peer';
import { TYPING_TARGET_MS, TYPING_TARGET_N, type TypingResult } from './typing';

export interface SizeResult {
  n: number;
  dofs: number;
  rows: number;
  engine?: Outcome<EngineExtra>;
  dense?: Outcome<DenseExtra>;
  /** By peer id. */
  peers: Record<string, PeerRun>;
  /** Wall-clock ms to build each contender's chain (parse + model, or model compilation), by label. */
  prepareMs: Record<string, number>;
  /** max |p_engine − p_dense| over links after the same number of steps (m), when both ran them. */
  engineVsDense?: { steps: number; maxPositionDiff: number };
}

/** Peers whose figure counts for "fastest peer" (the targets: newest MuJoCo, Rapier, cannon-es). */
export const TARGET_PEERS = ['mujoco', 'rapier', 'cannon'];

export function engineVsDense(e: Outcome<EngineExtra> | undefined, d: Outcome<DenseExtra> | undefined): SizeResult['engineVsDense'] {
  if (!e?.ok || !d?.ok || !e.positions || !d.positions) return undefined;
  const steps = e.sanity.steps;
  if (steps !== d.sanity.steps || e.positions.length !== d.positions.length) return undefined;
  let max = 0;
  for (let i = 0; i < e.positions.length; i++) max = Math.max(max, Math.abs(e.positions[i] - d.positions[i]));
  return { steps, maxPositionDiff: max };
}

/** Which per-step figure a table shows. */
export type Clock = 'wall' | 'cpu';
const fig = (o: { timing: { medianMs: number; cpuMedianMs: number } }, clock: Clock): number => (clock === 'wall' ? o.timing.medianMs : o.timing.cpuMedianMs);

/** The fastest sane peer among TARGET_PEERS at this size. */
export function fastestPeer(r: SizeResult, peers: Peer[], clock: Clock = 'wall'): { peer: Peer; ms: number } | undefined {
  let best: { peer: Peer; ms: number } | undefined;
  for (const p of peers) {
    if (!TARGET_PEERS.includes(p.id)) continue;
    const o = r.peers[p.id]?.main;
    if (!o?.ok || !o.sanity.sane) continue;
    if (!best || fig(o, clock) < best.ms) best = { peer: p, ms: fig(o, clock) };
  }
  return best;
}

const cell = (o: Outcome | undefined, clock: Clock): string => {
  if (!o) return '—';
  if (o.ok) return cellMs(fig(o, clock)) + (o.sanity.sane ? '' : ' (broken)');
  if (o.projectedMs !== undefined) return `skip (≈${fmtMs(o.projectedMs)})`;
  return o.projectedBuildMs !== undefined ? `skip (build ≈${fmtMs(o.projectedBuildMs)})` : 'n/a';
};
const sanityCell = (o: Outcome | undefined): string =>
  o?.ok ? `${o.sanity.jointError.toExponential(1)} / ${o.sanity.tipZ.toFixed(3)}${o.sanity.sane ? '' : ' BROKEN'}` : '—';

function timeTable(results: SizeResult[], peers: Peer[], engineOn: boolean, denseOn: boolean, clock: Clock): string {
  const header = ['N', 'rows'];
  if (engineOn) header.push('engine');
  if (denseOn) header.push('dense seed');
  header.push(...peers.map((p) => p.label), 'fastest peer', 'engine/fastest', 'dense/engine');
  const rows = results.map((r) => {
    const row = [String(r.n), String(r.rows)];
    if (engineOn) row.push(cell(r.engine, clock));
    if (denseOn) row.push(cell(r.dense, clock));
    row.push(...peers.map((p) => cell(r.peers[p.id]?.main, clock)));
    const best = fastestPeer(r, peers, clock);
    const e = r.engine?.ok ? fig(r.engine, clock) : undefined;
    row.push(best ? best.peer.label : '—');
    row.push(best && e !== undefined ? fmtRatio(e / best.ms) : '—');
    const d = r.dense;
    if (d?.ok && e !== undefined) row.push(fmtRatio(fig(d, clock) / e));
    else if (d && !d.ok && d.projectedMs !== undefined && e !== undefined) row.push(`≈${fmtRatio(d.projectedMs / e)} proj.`);
    else row.push('—');
    return row;
  });
  return table(header, rows);
}

export function printChainTables(results: SizeResult[], peers: Peer[], engineOn: boolean, denseOn: boolean): void {
  console.log('\nPer-step median, ms, wall clock (hanging chain; one full step each; lower is better)\n');
  console.log(timeTable(results, peers, engineOn, denseOn, 'wall'));
  console.log(`  engine/fastest: the engine's time over the fastest of ${TARGET_PEERS.join(', ')} at that size (< 1: the engine is faster)`);
  console.log('\nThe same steps timed by the CPU time of the process (excludes time the OS gave to other processes: read these on a busy machine)\n');
  console.log(timeTable(results, peers, engineOn, denseOn, 'cpu'));

  const cols: [string, (r: SizeResult) => Outcome | undefined][] = [];
  if (engineOn) cols.push(['engine', (r) => r.engine]);
  if (denseOn) cols.push(['dense seed', (r) => r.dense]);
  for (const p of peers) cols.push([p.label, (r) => r.peers[p.id]?.main]);
  console.log('\nSanity: max joint error |x_A − x_B| (m) / tip height z of the last link (m), after the 10 + 50 steps (t = 0.3 s)\n');
  console.log(
    table(
      ['N', ...cols.map((c) => c[0]), 'max |p_engine − p_dense|'],
      results.map((r) => [String(r.n), ...cols.map((c) => sanityCell(c[1](r))), r.engineVsDense ? r.engineVsDense.maxPositionDiff.toExponential(1) : '—']),
    ),
  );

  if (engineOn) {
    console.log('\nEngine per step: solve method and κ(A)\n');
    console.log(
      table(
        ['N', 'method', 'κ(A)', 'κ'],
        results.map((r) => {
          const e = r.engine;
          return e?.ok ? [String(r.n), e.method, e.cond === null ? '∞' : e.cond.toExponential(2), e.condEstimated ? 'estimated' : 'exact'] : [String(r.n), '—', '—', '—'];
        }),
      ),
    );
  }

  const withVariants = peers.filter((p) => results.some((r) => r.peers[p.id]?.variants.length));
  for (const p of withVariants) {
    const labels = [...new Set(results.flatMap((r) => r.peers[p.id]?.variants.map((v) => v.label) ?? []))];
    console.log(`\n${p.label} configurations (ms/step median, one round; solver iterations of the last step)\n`);
    console.log(
      table(
        ['N', 'Newton/sparse (main)', ...labels],
        results.map((r) => {
          const run = r.peers[p.id];
          const f = (o: Outcome<PeerExtra> | undefined) => (o?.ok ? `${cellMs(o.timing.medianMs)} (${o.info.iterations ?? '?'} it)` : cell(o, 'wall'));
          return [String(r.n), f(run?.main), ...labels.map((l) => f(run?.variants.find((v) => v.label === l)?.outcome))];
        }),
      ),
    );
  }
}

export function printNotes(results: SizeResult[], peers: Peer[], failures: PeerLoadFailure[]): void {
  const notes: string[] = [];
  for (const f of failures) notes.push(`${f.label}: could not be loaded: ${f.reason}`);
  for (const r of results) {
    if (r.engine && !r.engine.ok) notes.push(`N=${r.n} engine: ${r.engine.reason}`);
    if (r.dense && !r.dense.ok) notes.push(`N=${r.n} dense seed: ${r.dense.reason}`);
    for (const p of peers) {
      const o = r.peers[p.id]?.main;
      if (o && !o.ok) notes.push(`N=${r.n} ${p.label}: ${o.reason}`);
      for (const v of r.peers[p.id]?.variants ?? []) if (!v.outcome.ok) notes.push(`N=${r.n} ${p.label} ${v.label}: ${v.outcome.reason}`);
    }
  }
  if (notes.length) console.log('\n' + notes.map((s) => `  • ${s}`).join('\n'));
  console.log(
    [
      '',
      'Contenders:',
      '  engine      Simulation.step(1) from parseScene(scene text): assemble + solve + analysis (exact λ, κ exact or',
      '              estimated, rank, residual, energy, drift check) + semi-implicit Euler + the history record.',
      '  dense seed  AerisLab assemble_system + solve_kkt + HybridSolver step followed literally: dense M⁻¹ (6N×6N), dense J,',
      '              A = J·(M⁻¹·Jᵀ) by dense products, λ by dense LU with partial pivoting (≈ numpy solve), plain',
      '              Float64Array loops (single thread, no BLAS); no analysis.',
      ...peers.map((p) => '  ' + wrap(`${p.label}: ${p.version}. ${p.describe()}`, 116, 14)),
      '  Each figure is the lowest of the rounds\' per-step medians; each round resets the chain (10 untimed + 50 timed',
      '  steps). "skip (≈…)" is the projected per-step time of a size left out to keep the run short, "skip (build ≈…)"',
      '  the projected time to build its chain (MuJoCo\'s compiler grows faster than its step); see --budget.',
      '  The engine and the dense path use the seed formulation (rhs = −(1+β)J·v − α·C, no J̇v term) with the',
      '  stable gains α = 3430, β = 100 (ρ ≈ 0.71 per step): their joints are held like the peers\' (sanity table).',
    ].join('\n'),
  );
}

/** Whether a target is met by the wall-clock figure, or only by the CPU-time one (a busy machine). */
export function targetWord(wallMs: number, cpuMs: number, target = TYPING_TARGET_MS): string {
  if (wallMs <= target) return 'met';
  return cpuMs <= target ? 'met in CPU time only' : 'NOT met';
}

export function printTyping(rows: TypingResult[]): void {
  console.log('\nWhile typing: scene text → diagnostics (inspectScene: parse + assemble + solve + analyse), ms per edit\n');
  console.log(
    table(
      ['N bodies', 'text', 'inspectScene median', 'min', 'CPU median', 'parse (CPU)', 'assemble+solve+analyse (CPU)', 'diagnostics', 'κ(A)', `target (N=${TYPING_TARGET_N})`],
      rows.map((t) => [
        String(t.n),
        `${(t.bytes / 1024).toFixed(0)} KB`,
        cellMs(t.medianMs),
        cellMs(t.minMs),
        cellMs(t.cpuMedianMs),
        cellMs(t.parseCpuMedianMs),
        cellMs(Math.max(0, t.cpuMedianMs - t.parseCpuMedianMs)),
        `${t.diagnostics}${t.hasErrors ? ' (errors!)' : ''}`,
        t.cond === null ? '∞' : `${t.cond.toExponential(2)}${t.condEstimated ? ' est.' : ''}`,
        t.n === TYPING_TARGET_N ? `≤ ${TYPING_TARGET_MS} ms: ${targetWord(t.medianMs, t.cpuMedianMs)}` : '',
      ]),
    ),
  );
  console.log('  Each timed run analyses a different edit of the text (one link\'s mass changed); parse is timed separately on the same texts;');
  console.log('  CPU median: the same runs by the CPU time of the process.');
}

/** JSON.stringify replacer: per-link positions are for the in-process comparison only. */
export const jsonReplacer = (key: string, value: unknown): unknown => (key === 'positions' ? undefined : value);
