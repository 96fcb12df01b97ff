// Shared by the trace tests: load a fixture and compare a step's analysis with numpy's expected numbers.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseSystem, readTrace, type RedundantRow, type TraceSource } from '../../src/engine';

export const DIR = join(__dirname, '..', 'fixtures', 'trace');

export interface Expected {
  cond: number | 'Infinity' | null;
  rank: number;
  rows: number;
  redundant: { row: string; dependsOn: { row: string; coefficient: number }[] }[];
  normLambda?: number;
  normC?: number;
}

export function load(file: string): TraceSource {
  const r = readTrace(new Uint8Array(readFileSync(join(DIR, file))), file);
  assert.deepEqual(r.diagnostics, [], `${file} reads without diagnostics`);
  assert.ok(r.source);
  return r.source;
}

export const expected = (file: string): { steps: Expected[]; [k: string]: unknown } => JSON.parse(readFileSync(join(DIR, file), 'utf8'));

export const close = (a: number, b: number, rel: number, what: string) => assert.ok(Math.abs(a - b) <= rel * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

/** The step's analysis against numpy's: κ when A is nonsingular, the rank, redundant rows and coefficients. */
export function compareStep(source: TraceSource, k: number, e: Expected): void {
  const an = analyseSystem(source.systemAt(k));
  assert.ok(an.ok, `step ${k} analysed`);
  assert.equal(an.rank.rows, e.rows);
  assert.equal(an.rank.J, e.rank, `step ${k}: rank`);
  const cond = an.cond.AR ?? an.cond.A;
  if (e.rank === e.rows && typeof e.cond === 'number') close(cond, e.cond, 1e-6 * e.cond, `step ${k}: κ`);
  else assert.equal(cond, Infinity, `step ${k}: a singular A has κ = ∞`);
  const labels = source.systemAt(k).rows;
  const name = (r: { constraint: string; row: number }) => labels.find((x) => x.constraint === r.constraint && x.row === r.row)?.label;
  assert.equal(an.redundant.length, e.redundant.length, `step ${k}: redundant rows`);
  an.redundant.forEach((r: RedundantRow, i) => {
    const want = e.redundant[i];
    assert.equal(name(r), want.row);
    const got = new Map(r.dependsOn.map((d) => [name(d), d.coefficient]));
    for (const d of want.dependsOn) close(got.get(d.row) ?? 0, d.coefficient, 1e-8, `${want.row} on ${d.row}`);
    for (const [row, c] of got) if (!want.dependsOn.some((d) => d.row === row)) assert.ok(Math.abs(c) < 1e-8, `${want.row} on ${row}: ${c}`);
  });
}

