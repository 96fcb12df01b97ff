// The axes of the history charts, as pure functions (tested in Node, no chart.js): tick labels
// that tell neighbours apart, and when a series needs a logarithmic axis to be read.
import { formatNumber as fmt } from '../src/shared';

/** The fewest significant digits (2 to 6) at which every pair of neighbouring values is printed differently. */
export function distinctDigits(values: readonly number[]): number {
  for (let d = 2; d < 6; d++) {
    let ok = true;
    for (let i = 1; i < values.length && ok; i++) ok = fmt(values[i], d) !== fmt(values[i - 1], d);
    if (ok) return d;
  }
  return 6;
}
