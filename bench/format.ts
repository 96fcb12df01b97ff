// Number and table formatting for the bench's console output.

export function fmtMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(0)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(3)} ms`;
}

export function fmtBytes(b: number): string {
  return b >= 1e9 ? `${(b / 1e9).toFixed(1)} GB` : `${(b / 1e6).toFixed(0)} MB`;
}

/** A per-step time in ms for a table cell: 4 significant-ish digits. */
export function cellMs(ms: number): string {
  if (ms >= 1000) return ms.toFixed(0);
  if (ms >= 100) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(2);
  return ms.toFixed(3);
}

/** a/b as "1.23×" (two decimals below 10, none above). */
export function fmtRatio(r: number): string {
  if (!Number.isFinite(r)) return '—';
  return `${r.toFixed(r < 10 ? 2 : 0)}×`;
}

export function table(header: string[], rows: string[][]): string {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? (c ?? '').padEnd(w[i]) : (c ?? '').padStart(w[i]))).join(' | ');
  return [line(header), w.map((x) => '-'.repeat(x)).join('-|-'), ...rows.map(line)].join('\n');
}

/** The load average as printed next to every set of figures. */
export function fmtLoad(load: number[], cores: number): string {
  const s = load.map((x) => x.toFixed(2)).join(' ');
  return load[0] > cores ? `${s}  (busy machine: ${load[0].toFixed(1)} runnable on ${cores} cores; expect noisy timings)` : s;
}

/** Word-wrap `text` to `width` columns, every line after the first indented by `indent` spaces. */
export function wrap(text: string, width: number, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const room = width - (lines.length ? indent : 0);
    if (line && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i ? ' '.repeat(indent) + l : l)).join('\n');
}
