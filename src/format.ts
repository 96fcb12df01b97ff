// Host-side formatting shared by the CLI and the extension: dense views of the snapshot's
// matrices, the `inspect --json` object, labelled text matrices, CSV of a run.
import { csrToDense } from './engine';
import type { CsrMatrix, StepRecord, SystemSnapshot, Diagnostic } from './engine';

/** Dense rows of a CSR matrix (the engine's own conversion). */
export const csrRows = csrToDense;

/** M⁻¹ as a CSR matrix built from its per-body 6×6 blocks. */
export function minvCsr(snap: SystemSnapshot): CsrMatrix {
  const n = snap.bodies.length * 6;
  const rowPtr = new Int32Array(n + 1);
  const colIdx: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = Math.floor(i / 6);
    for (let j = 0; j < 6; j++) {
      const v = snap.MinvBlocks[k * 36 + (i % 6) * 6 + j];
      if (v !== 0) {
        colIdx.push(k * 6 + j);
        values.push(v);
      }
    }
    rowPtr[i + 1] = colIdx.length;
  }
  return { rows: n, cols: n, rowPtr, colIdx: Int32Array.from(colIdx), values: Float64Array.from(values) };
}

/** Matrices up to this many entries are written densely in JSON; larger ones as CSR objects. */
export const DENSE_JSON_LIMIT = 4_000_000;

export type JsonMatrix = number[][] | { format: 'csr'; rows: number; cols: number; rowPtr: number[]; colIdx: number[]; values: number[] };

export function matrixJson(m: CsrMatrix): JsonMatrix {
  if (m.rows * m.cols <= DENSE_JSON_LIMIT) return csrRows(m);
  return { format: 'csr', rows: m.rows, cols: m.cols, rowPtr: Array.from(m.rowPtr), colIdx: Array.from(m.colIdx), values: Array.from(m.values) };
}

export interface JsonDiagnostic {
  severity: Diagnostic['severity'];
  code: string;
  message: string;
  range: Diagnostic['range'];
}

/** The `inspect --json` object: exactly the documented fields. */
export function inspectJson(snap: SystemSnapshot | undefined, diagnostics: Diagnostic[]): Record<string, unknown> {
  const diags: JsonDiagnostic[] = diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, range: d.range }));
  if (!snap) return { diagnostics: diags };
  const arr = (x: Float64Array) => Array.from(x);
  const out: Record<string, unknown> = {
    bodies: snap.bodies,
    rows: snap.rows.map((r) => ({ constraint: r.constraint, row: r.row })),
    Minv: matrixJson(minvCsr(snap)),
    J: matrixJson(snap.J),
    A: matrixJson(snap.A),
    F: arr(snap.F),
    v: arr(snap.v),
    rhs: arr(snap.rhs),
    a0: arr(snap.a0),
    b: arr(snap.b),
    lambda: arr(snap.lambda),
    a: arr(snap.a),
    C: arr(snap.C),
    Cdot: arr(snap.Cdot),
    constraintForce: arr(snap.constraintForce),
    cond: { A: snap.cond.A },
    rank: { J: snap.rank.J },
    redundant: snap.redundant,
    method: snap.method,
    diagnostics: diags,
  };
  if (snap.condEstimated) out.condEstimated = true;
  if (snap.W) out.W = matrixJson(snap.W);
  if (snap.B) out.B = arr(snap.B);
  if (snap.R) out.R = arr(snap.R);
  return out;
}

/** A number for tables: short, exact enough to read, stable width. */
export function num(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined) return '∞';
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e5) return String(Number(x.toPrecision(digits + 2)));
  // 1.000e-6 → 1e-6, 2.500e+7 → 2.5e+7
  return x.toExponential(digits - 1).replace(/\.?0+e/, 'e');
}

/** Split `Body.vx`-style labels into groups of consecutive labels sharing the prefix. */
function labelGroups(labels: string[]): { name: string; span: number; leaf: string[] }[] | undefined {
  const groups: { name: string; span: number; leaf: string[] }[] = [];
  for (const l of labels) {
    const k = l.lastIndexOf('.');
    if (k <= 0) return undefined;
    const name = l.slice(0, k);
    const last = groups[groups.length - 1];
    if (last && last.name === name) {
      last.span++;
      last.leaf.push(l.slice(k + 1));
    } else groups.push({ name, span: 1, leaf: [l.slice(k + 1)] });
  }
  return groups.length < labels.length ? groups : undefined;
}

/** A labelled text matrix (small matrices in full); `Body.dof` column labels get a two-line grouped header. */
export function textMatrix(rows: number[][], rowLabels: string[], colLabels: string[]): string {
  const cells = rows.map((r) => r.map((x) => num(x)));
  const groups = labelGroups(colLabels);
  const leaves = groups ? groups.flatMap((g) => g.leaf) : colLabels;
  const w = Math.max(5, ...cells.flat().map((c) => c.length), ...leaves.map((c) => c.length));
  const lw = Math.max(...rowLabels.map((l) => l.length), 1);
  const lines: string[] = [];
  if (groups) {
    lines.push(
      ' '.repeat(lw) + ' │ ' +
        groups
          .map((g) => {
            const width = g.span * (w + 1) - 1;
            const name = g.name.length > width ? g.name.slice(0, width - 1) + '…' : g.name;
            return name.padStart(Math.floor((width + name.length) / 2)).padEnd(width);
          })
          .join(' │ '),
    );
  }
  const sepAt = (parts: string[][]) => parts.map((p) => p.join(' ')).join(groups ? ' │ ' : ' ');
  const split = (r: string[]): string[][] => {
    if (!groups) return [r];
    const out: string[][] = [];
    let k = 0;
    for (const g of groups) {
      out.push(r.slice(k, k + g.span));
      k += g.span;
    }
    return out;
  };
  const head = ' '.repeat(lw) + ' │ ' + sepAt(split(leaves.map((c) => c.padStart(w))));
  lines.push(head);
  lines.push('─'.repeat(lw) + '─┼─' + '─'.repeat(Math.max(0, head.length - lw - 3)));
  for (let i = 0; i < cells.length; i++) lines.push(rowLabels[i].padEnd(lw) + ' │ ' + sepAt(split(cells[i].map((c) => c.padStart(w)))));
  return lines.join('\n');
}

/** Vectors side by side, one row per label. */
export function textColumns(labels: string[], columns: { name: string; values: ArrayLike<number> }[], digits = 10): string {
  const lw = Math.max(...labels.map((l) => l.length), 1);
  const cols = columns.map((c) => {
    const cells = Array.from(c.values, (x) => num(x, digits));
    return { name: c.name, cells, w: Math.max(c.name.length, ...cells.map((x) => x.length)) };
  });
  const head = ' '.repeat(lw) + ' │ ' + cols.map((c) => c.name.padStart(c.w)).join('  ');
  const lines = [head, '─'.repeat(lw) + '─┼─' + '─'.repeat(Math.max(0, head.length - lw - 3))];
  labels.forEach((l, i) => lines.push(l.padEnd(lw) + ' │ ' + cols.map((c) => c.cells[i].padStart(c.w)).join('  ')));
  return lines.join('\n');
}

/** A one-paragraph summary of a large sparse matrix. */
export function matrixSummary(m: CsrMatrix): string {
  let maxAbs = 0;
  let minAbs = Infinity;
  for (const v of m.values) {
    const a = Math.abs(v);
    if (a > maxAbs) maxAbs = a;
    if (a > 0 && a < minAbs) minAbs = a;
  }
  const nnz = m.values.length;
  const density = m.rows * m.cols ? nnz / (m.rows * m.cols) : 0;
  return `${m.rows}×${m.cols}, ${nnz} stored entries (${(density * 100).toPrecision(3)}% dense), |value| in [${num(minAbs === Infinity ? 0 : minAbs)}, ${num(maxAbs)}]`;
}

/** CSV of a run's history: one row per step, ‖C‖ per constraint and λ per row. */
export function historyCsv(records: readonly StepRecord[], constraintNames: string[], rowLabels: string[]): string {
  const head = ['step', 't', 'method', 'condA', 'condEstimated', 'kinetic', 'potential', 'total', 'quatDrift', ...constraintNames.map((n) => `|C|:${n}`)];
  const withLambda = records.some((r) => r.lambda.length === rowLabels.length && rowLabels.length > 0);
  if (withLambda) head.push(...rowLabels.map((l) => `lambda:${l}`));
  const esc = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const lines = [head.map(esc).join(',')];
  for (const r of records) {
    const row: (string | number)[] = [r.step, r.t, r.method, r.cond.A ?? 'Infinity', r.condEstimated ? 1 : 0, r.energy.kinetic, r.energy.potential, r.energy.total, r.quatDrift, ...r.C];
    if (withLambda) row.push(...(r.lambda.length === rowLabels.length ? r.lambda : rowLabels.map(() => '')));
    lines.push(row.map((x) => esc(String(x))).join(','));
  }
  return lines.join('\n') + '\n';
}

/** `file:line:col: severity code message` (1-based line and column, as compilers print). */
export function diagnosticLine(file: string, d: Diagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code} ${d.message}`;
}
