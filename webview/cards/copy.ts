// Copying the shown matrix (or its visible part when huge) as CSV or as a NumPy literal.
import { h } from '../dom';
import { csvField as csvCell, exactNumber as fmtExact } from '../../src/shared';
import { csrEntry as entry } from '../../src/shared';
import { type MatrixSource } from '../matrix';

export interface CellRange {
  i0: number;
  i1: number;
  j0: number;
  j1: number;
}

/** Largest matrix copied whole; bigger ones copy the visible block. */
export const FULL_COPY_CELLS = 250_000;

export function matrixText(m: MatrixSource, r: CellRange, kind: 'csv' | 'numpy'): string {
  const lines: string[] = [];
  if (kind === 'csv') {
    const head = [''];
    for (let j = r.j0; j < r.j1; j++) head.push(csvCell(m.colLabels[j]));
    lines.push(head.join(','));
    for (let i = r.i0; i < r.i1; i++) {
      const row = [csvCell(m.rowLabels[i])];
      for (let j = r.j0; j < r.j1; j++) row.push(fmtExact(entry(m, i, j).value));
      lines.push(row.join(','));
    }
  } else {
    const num = (x: number): string => (Number.isFinite(x) ? fmtExact(x) : Number.isNaN(x) ? 'np.nan' : x > 0 ? 'np.inf' : '-np.inf');
    lines.push(`# ${m.name} rows ${r.i0}..${r.i1 - 1}, cols ${r.j0}..${r.j1 - 1}`);
    lines.push(`# columns: ${Array.from({ length: r.j1 - r.j0 }, (_, k) => m.colLabels[r.j0 + k]).join(', ')}`);
    lines.push(`${m.id.replace(/\W/g, '_')} = np.array([`);
    for (let i = r.i0; i < r.i1; i++) {
      const row: string[] = [];
      for (let j = r.j0; j < r.j1; j++) row.push(num(entry(m, i, j).value));
      lines.push(`    [${row.join(', ')}],  # ${m.rowLabels[i]}`);
    }
    lines.push('])');
  }
  return lines.join('\n') + '\n';
}

export async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back */
  }
  const ta = h('textarea', { class: 'cl-clip', 'aria-hidden': 'true', readonly: true });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}
