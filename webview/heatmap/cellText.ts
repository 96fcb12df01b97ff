// Which text a heatmap cell can hold: the value at the most significant digits (3, 2, then 1) and
// the larger font that fit the cell's width. Pure: the caller measures text at the base font.
import { formatNumber as fmt } from '../../src/shared';

interface CellText {
  text: string;
  /** Font size (px) to draw it at. */
  size: number;
}

/**
 * The label of value `v` in a cell `maxWidth` px wide, or undefined when even one significant
 * digit at the small font does not fit. `measure` gives a text's width at `baseSize`; widths at
 * `smallSize` are taken proportional.
 */
export function fitCellText(v: number, maxWidth: number, measure: (text: string) => number, baseSize: number, smallSize: number): CellText | undefined {
  const sizes = smallSize < baseSize ? [baseSize, smallSize] : [baseSize];
  let last = '';
  for (const digits of [3, 2, 1]) {
    const text = fmt(v, digits);
    if (text === last) continue;
    last = text;
    const w = measure(text);
    for (const size of sizes) if ((w * size) / baseSize <= maxWidth) return { text, size };
  }
  return undefined;
}

/** Cell sizes (CSS px) below which no value is printed at all. */
export const MIN_LABEL_CELL = { width: 20, height: 14 };

/** Base font size of cell values for cells `sy` px tall, and the smaller one tried next. */
export function cellFontSizes(sy: number): { base: number; small: number } {
  const base = Math.min(11, Math.floor(sy * 0.55));
  return { base, small: Math.min(base, Math.max(8, base - 2)) };
}
