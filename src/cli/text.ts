// The CLI's text layout: labelled matrices, vectors side by side, matrix summaries, diagnostic
// lines. Numbers are spelled by the shared formatter; every name is made safe to print.
import type { CsrMatrix, Diagnostic } from '../engine';
import { absRange, formatNumber, safeText } from '../shared';

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

const widest = (xs: readonly string[], min: number): number => xs.reduce((w, x) => Math.max(w, x.length), min);

/** A labelled text matrix (small matrices in full, 6 significant digits); `Body.dof` column labels get a two-line grouped header. */
export function textMatrix(rows: number[][], rowLabels: string[], colLabels: string[]): string {
  const rl = rowLabels.map((l) => safeText(l));
  const cells = rows.map((r) => r.map((x) => formatNumber(x, 6)));
  const groups = labelGroups(colLabels.map((l) => safeText(l)));
  const leaves = groups ? groups.flatMap((g) => g.leaf) : colLabels.map((l) => safeText(l));
  const w = Math.max(widest(leaves, 5), ...cells.map((r) => widest(r, 5)));
  const lw = widest(rl, 1);
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
  for (let i = 0; i < cells.length; i++) lines.push(rl[i].padEnd(lw) + ' │ ' + sepAt(split(cells[i].map((c) => c.padStart(w)))));
  return lines.join('\n');
}

/** Vectors side by side, one row per label (`digits` significant digits). */
export function textColumns(labels: string[], columns: { name: string; values: ArrayLike<number> }[], digits = 12): string {
  const ls = labels.map((l) => safeText(l));
  const lw = widest(ls, 1);
  const cols = columns.map((c) => {
    const cells = Array.from(c.values, (x) => formatNumber(x, digits));
    return { name: c.name, cells, w: widest(cells, c.name.length) };
  });
  const head = ' '.repeat(lw) + ' │ ' + cols.map((c) => c.name.padStart(c.w)).join('  ');
  const lines = [head, '─'.repeat(lw) + '─┼─' + '─'.repeat(Math.max(0, head.length - lw - 3))];
  ls.forEach((l, i) => lines.push(l.padEnd(lw) + ' │ ' + cols.map((c) => c.cells[i].padStart(c.w)).join('  ')));
  return lines.join('\n');
}

/** A one-paragraph summary of a large sparse matrix. */
export function matrixSummary(m: CsrMatrix): string {
  const { maxAbs, minAbs } = absRange(m.values);
  let nonFinite = 0;
  for (let k = 0; k < m.values.length; k++) if (!Number.isFinite(m.values[k])) nonFinite++;
  const nnz = m.values.length;
  const density = m.rows * m.cols ? nnz / (m.rows * m.cols) : 0;
  return `${m.rows}×${m.cols}, ${nnz} stored entries (${formatNumber(density * 100, 3)}% dense), |value| in [${formatNumber(minAbs)}, ${formatNumber(maxAbs)}]${nonFinite ? `, ${nonFinite} non-finite` : ''}`;
}

/** `file:line:col: severity code message` (1-based line and column, as compilers print), safe to print. */
export function diagnosticLine(file: string, d: Diagnostic): string {
  return safeText(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code} ${d.message}`);
}

/** A comma-separated list of (already safe) items, cut after `max`. */
export const listed = (items: string[], max = 12): string => (items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')}, … and ${items.length - max} more`);
