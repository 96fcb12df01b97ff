// src/shared: CSV and JSON conventions (one non-finite spelling), CSR lookups.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { absRange, blockDiagonalCsr, csrEntry, csrFind, csrGet, csrLowerBound, csvNumber, csrToDense, csrToDenseFlat, csvField, csvText, jsonCond, jsonNumber, runCsv, stringifyJson, type RunRecord } from '../../src/shared';

test('CSV quoting: commas, quotes, CR/LF; spreadsheet formulas in names are neutralised', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('cr\rhere'), '"cr\rhere"');
  assert.equal(csvField(''), '');
  assert.equal(csvText('=HYPERLINK("x")'), '"\'=HYPERLINK(""x"")"');
  assert.equal(csvText('+1'), "'+1");
  assert.equal(csvText('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvText('rod.d'), 'rod.d');
});

test('non-finite values: one spelling in CSV and JSON', () => {
  assert.equal(csvNumber(NaN), 'NaN');
  assert.equal(csvNumber(Infinity), 'Infinity');
  assert.equal(csvNumber(-Infinity), '-Infinity');
  assert.equal(csvNumber(-0), '0');
  assert.equal(csvNumber(null), '');
  assert.equal(csvNumber(undefined), '');
  assert.equal(csvNumber(1e-320), '1e-320');
  assert.equal(jsonNumber(NaN), 'NaN');
  assert.equal(jsonNumber(-Infinity), '-Infinity');
  assert.equal(jsonNumber(2.5), 2.5);
  assert.equal(jsonCond(null, 3), 'Infinity', 'singular');
  assert.equal(jsonCond(null, 0), null, 'no constraints: κ is not defined');
  assert.equal(jsonCond(12.5, 1), 12.5);
  const text = stringifyJson({ a: [1, NaN, Infinity, -Infinity], f: Float64Array.of(0.5, NaN), i: Int32Array.of(3), name: 'x\u202Ey\u009b\u007f' });
  assert.equal(text, '{"a":[1,"NaN","Infinity","-Infinity"],"f":[0.5,"NaN"],"i":[3],"name":"x\\u202ey\\u009b\\u007f"}');
  assert.deepEqual(JSON.parse(text).name, 'x\u202Ey\u009b\u007f', 'escaped, same value');
  assert.equal(stringifyJson({ e: '\u001b' }), '{"e":"\\u001b"}');
});

function rec(step: number, condA: number | null, over: Partial<RunRecord> = {}): RunRecord {
  return { step, t: step * 0.01, cond: { A: condA }, condEstimated: false, method: 'cholesky', energy: { kinetic: 1, potential: -2, total: -1 }, quatDrift: 0, C: [1e-9], lambda: [NaN, 12.5], poses: [0, 0, -Infinity, 0, 0, 0, 1], ...over };
}

test('runCsv: the one run-export dialect', () => {
  const meta = { constraints: ['rod, "a"'], rowLabels: ['rod.d', 'rod.x'], bodies: ['=B'] };
  const lines = runCsv([rec(1, 1234.5), rec(2, null, { lambda: [] })], meta).trimEnd().split('\n');
  assert.equal(
    lines[0],
    'step,t,cond_A,cond_estimated,method,kinetic,potential,total_energy,quat_drift,"C[rod, ""a""]",lambda[rod.d],lambda[rod.x],\'=B.px,\'=B.py,\'=B.pz,\'=B.qx,\'=B.qy,\'=B.qz,\'=B.qw',
  );
  assert.equal(lines[1], '1,0.01,1234.5,false,cholesky,1,-2,-1,0,1e-9,NaN,12.5,0,0,-Infinity,0,0,0,1');
  assert.equal(lines[2].split(',')[2], 'Infinity', 'singular');
  assert.deepEqual(lines[2].split(',').slice(10, 12), ['', ''], 'λ not recorded: empty fields');
  const none = runCsv([rec(1, null, { C: [], lambda: [] })], { constraints: [], rowLabels: [], bodies: [] }).trimEnd().split('\n');
  assert.equal(none[1].split(',')[2], '', 'no constraints: κ is empty, not Infinity');
});

test('CSR lookups: binary search in a row, structural zeros, dense views', () => {
  const dense = [
    [0, 2, 0, 0, 5],
    [0, 0, 0, 0, 0],
    [1, 0, 0, 4, 0],
  ];
  const m = { rows: 3, cols: 5, rowPtr: Int32Array.of(0, 2, 2, 4), colIdx: Int32Array.of(1, 4, 0, 3), values: Float64Array.of(2, 5, 1, 4) };
  for (let i = 0; i < 3; i++) for (let j = 0; j < 5; j++) assert.equal(csrGet(m, i, j), dense[i][j]);
  assert.equal(csrFind(m, 0, 4), 1);
  assert.equal(csrFind(m, 0, 3), -1);
  assert.equal(csrLowerBound(m, 0, 3), 1);
  assert.equal(csrLowerBound(m, 1, 0), 2, 'empty row: its start');
  assert.equal(csrLowerBound(m, 2, 9), 4, 'past the row: its end');
  assert.deepEqual(csrEntry(m, 2, 3), { value: 4, stored: true });
  assert.deepEqual(csrEntry(m, 2, 2), { value: 0, stored: false });
  const stored0 = { rows: 1, cols: 2, rowPtr: [0, 1], colIdx: [1], values: [0] };
  assert.deepEqual(csrEntry(stored0, 0, 1), { value: 0, stored: true }, 'plain arrays (JSON) work, stored zeros are told apart');
  assert.deepEqual(csrToDense(m), dense);
  assert.deepEqual(Array.from(csrToDenseFlat(m)), dense.flat());
  const dup = { rows: 1, cols: 2, rowPtr: [0, 2], colIdx: [1, 1], values: [1, 2] };
  assert.deepEqual(csrToDense(dup), [[0, 3]], 'duplicates are summed');
});

test('blockDiagonalCsr (M⁻¹ from 6×6 blocks) and absRange', () => {
  const blocks = new Float64Array(72);
  for (let b = 0; b < 2; b++) for (let k = 0; k < 6; k++) blocks[b * 36 + k * 7] = b + 1 + k;
  blocks[1] = -0.5;
  const full = blockDiagonalCsr(blocks, 6);
  assert.equal(full.rows, 12);
  assert.equal(full.values.length, 72, 'every block entry is stored');
  const sparse = blockDiagonalCsr(blocks, 6, true);
  assert.equal(sparse.values.length, 13, 'exact zeros dropped');
  assert.deepEqual(csrToDense(full), csrToDense(sparse));
  assert.equal(csrGet(full, 7, 7), 3);
  assert.equal(csrGet(full, 0, 1), -0.5);
  assert.equal(csrGet(full, 0, 6), 0);
  assert.deepEqual(absRange([0, -3, 0.25, NaN, Infinity]), { maxAbs: 3, minAbs: 0.25 });
  assert.deepEqual(absRange([0, 0]), { maxAbs: 0, minAbs: 0 });
});
