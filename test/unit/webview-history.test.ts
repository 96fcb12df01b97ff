// The run's history on the wire (src/shared/history.ts) and in the panel (webview/history.ts):
// records survive the columns exactly, appends share the buffer without disturbing older views,
// and the charts' decimation keeps every extreme with a bounded number of points.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, Simulation, type StepRecord } from '../../src/engine/index';
import { chunkRecord, encodeHistory, HISTORY_METHODS, isHistoryChunk, methodCode, normalizeChunk, recordsPerChunk, recordWidth } from '../../src/shared/history';
import { decodeFromJson, encodeForJson } from '../../src/protocol';
import { buildPanelModel } from '../../src/panelModel';
import { frameAt, recordsRun, sceneData } from '../../webview/scene3d/model';
import { appendHistory, emptyHistory, historyBytes, historyFromRecords, recordAt, runRecords, truncateHistory, violationAt } from '../../webview/history';
import { bucketWidth, decimate, MAX_BUCKETS } from '../../webview/decimate';

function run(name: string, steps: number): { records: StepRecord[]; sim: Simulation } {
  const text = readFileSync(join(__dirname, '..', '..', 'examples', `${name}.scene.json`), 'utf8');
  const r = inspectScene(text);
  const sim = new Simulation(r.parse.scene!, r.parse.sourceMap);
  sim.step(steps);
  return { records: [...sim.records], sim };
}

const chain = run('chain', 60);

test('a chunk carries records exactly, through typed arrays and through plain JSON', () => {
  const c = encodeHistory(chain.records, 10, 25);
  assert.equal(c.from, 10);
  assert.equal(c.count, 15);
  assert.deepEqual([c.nC, c.nL, c.nP], [chain.records[0].C.length, chain.records[0].lambda.length, chain.records[0].poses.length]);
  for (let k = 0; k < c.count; k++) assert.deepEqual(chunkRecord(c, k), chain.records[10 + k]);
  // Every column is its own buffer (VS Code would send a view's whole buffer).
  const buffers = [c.t, c.C, c.lambda, c.cond, c.energy, c.quatDrift, c.rank, c.poses].map((a) => a.buffer);
  assert.equal(new Set(buffers).size, buffers.length);
  for (const a of [c.t, c.C, c.poses]) assert.equal(a.byteOffset, 0);
  assert.ok(isHistoryChunk(c));
  const viaJson = normalizeChunk(JSON.parse(JSON.stringify(c)) as typeof c);
  assert.ok(viaJson.C instanceof Float64Array && viaJson.method instanceof Uint8Array);
  assert.deepEqual(chunkRecord(viaJson, 3), chain.records[13]);
  const viaCodec = normalizeChunk(decodeFromJson(encodeForJson(c)));
  assert.deepEqual(chunkRecord(viaCodec, 14), chain.records[24]);
  // Bounds are clamped; an empty range is an empty chunk.
  assert.equal(encodeHistory(chain.records, 50, 999).count, 10);
  assert.equal(encodeHistory(chain.records, 70, 80).count, 0);
  assert.equal(recordsPerChunk(1, 1, 14, 1 << 20), Math.floor((1 << 20) / (8 * recordWidth(1, 1, 14))));
  assert.equal(recordsPerChunk(10, 1000, 10000, 100), 1, 'at least one record per message');
});

test('singular κ and missing λ survive the columns', () => {
  const recs = chain.records.slice(0, 3).map((r, i) => ({ ...r, cond: { A: i === 1 ? null : r.cond.A }, lambda: i === 2 ? [] : r.lambda }));
  const c = encodeHistory(recs, 0, 3);
  assert.equal(chunkRecord(c, 1).cond.A, null);
  assert.ok(chunkRecord(c, 2).lambda.every((x) => Number.isNaN(x)), 'a record shorter than the shape is padded with NaN');
  const h = historyFromRecords(recs);
  assert.equal(recordAt(h, 1)?.cond.A, null);
});

test('appends write in place, older views keep their length and values, a rewrite copies', () => {
  let h = emptyHistory();
  const views = [];
  for (let k = 0; k < 60; k += 7) {
    h = appendHistory(h, encodeHistory(chain.records, k, k + 7));
    views.push(h);
  }
  assert.equal(h.length, 60);
  const buf = h.buf;
  assert.ok(views.slice(1).every((v) => v.buf === buf || v.length < 64), 'one growing buffer');
  for (const v of views) for (let k = 0; k < v.length; k++) assert.equal(violationAt(v, k, 3), chain.records[k].C[3]);
  // Appending to an older view (a branch) must not overwrite the records newer views show.
  const old = views[2];
  const branch = appendHistory(old, { ...encodeHistory(chain.records, old.length, old.length + 1), C: new Float64Array(chain.records[0].C.length).fill(-1) });
  assert.equal(violationAt(branch, old.length, 0), -1);
  assert.equal(violationAt(h, old.length, 0), chain.records[old.length].C[0], 'the newer view is untouched');
  // A gap is refused.
  assert.equal(appendHistory(h, encodeHistory(chain.records, 59, 60)).length, 60, 'overlap: the tail is replaced');
  const gapped = appendHistory(views[0], encodeHistory(chain.records, 30, 31));
  assert.equal(gapped, views[0]);
  // Truncation.
  const t = truncateHistory(h, 10);
  assert.equal(t.length, 10);
  assert.equal(h.length, 60);
  assert.deepEqual(recordAt(t, 9), chain.records[9]);
  assert.equal(recordAt(t, 10), undefined);
  assert.equal(truncateHistory(h, 99), h);
  assert.ok(historyBytes(h) >= 60 * 8 * recordWidth(h.buf.nC, h.buf.nL, h.buf.nP));
});

test('the 3D view reads the run from columns as from records (frames, bounds)', () => {
  const h = historyFromRecords(chain.records);
  const text = readFileSync(join(__dirname, '..', '..', 'examples', 'chain.scene.json'), 'utf8');
  const model = buildPanelModel('chain.scene.json', inspectScene(text), chain.sim, 30)!;
  assert.equal(model.history.length, 60);
  const cols = runRecords(h);
  const data = sceneData(model, cols);
  assert.deepEqual(data, sceneData(model), 'bounds over the run');
  for (const step of [0, 1, 17, 30, 60]) {
    assert.deepEqual(frameAt(model, data, step, undefined, cols), frameAt(model, data, step), `step ${step}`);
  }
  assert.equal(cols.poses(61), undefined);
  assert.equal(recordsRun(chain.records).poses(61), undefined);
  assert.deepEqual(Array.from(cols.poses(17)!), chain.records[16].poses);
});

test('decimation: every point when short, ≤ 2·buckets points with every bucket extreme when long', () => {
  const xs = (k: number): number => k + 1;
  assert.deepEqual(
    decimate(5, (k) => [1, NaN, 3, Infinity, 5][k], xs),
    [
      { x: 1, y: 1 },
      { x: 3, y: 3 },
      { x: 5, y: 5 },
    ],
  );
  assert.equal(bucketWidth(2000), 2);
  assert.equal(bucketWidth(1000), 1);
  assert.equal(bucketWidth(100_000), 128);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 30_000 }), fc.integer({ min: 1, max: 1 << 30 }), fc.integer({ min: 2, max: 300 }), (n, seed, buckets) => {
      let x = seed;
      const ys = Float64Array.from({ length: n }, () => {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        return x % 997 === 0 ? NaN : (x % 10_007) - 5000;
      });
      const pts = decimate(n, (k) => ys[k], xs, buckets);
      assert.ok(pts.length <= 2 * buckets, `${pts.length} points`);
      for (let i = 1; i < pts.length; i++) assert.ok(pts[i].x > pts[i - 1].x, 'x increases');
      const finite = Array.from(ys).filter(Number.isFinite);
      if (finite.length) {
        assert.equal(Math.max(...pts.map((p) => p.y)), finite.reduce((a, b) => Math.max(a, b)));
        assert.equal(Math.min(...pts.map((p) => p.y)), finite.reduce((a, b) => Math.min(a, b)));
      }
      // Each bucket's extremes are drawn.
      const w = n <= 2 * buckets ? 1 : bucketWidth(n, buckets);
      const drawn = new Map(pts.map((p) => [p.x - 1, p.y]));
      for (let k0 = 0; k0 < n; k0 += w) {
        const part = Array.from(ys.subarray(k0, k0 + w)).filter(Number.isFinite);
        if (!part.length) continue;
        const hi = part.reduce((a, b) => Math.max(a, b));
        const lo = part.reduce((a, b) => Math.min(a, b));
        let sawHi = false;
        let sawLo = false;
        for (let k = k0; k < Math.min(n, k0 + w); k++) {
          if (drawn.get(k) === hi) sawHi = true;
          if (drawn.get(k) === lo) sawLo = true;
        }
        assert.ok(sawHi && sawLo, `bucket at ${k0}`);
      }
    }),
    { numRuns: 60 },
  );
  assert.ok(decimate(1_000_000, (k) => Math.sin(k), xs).length <= 2 * MAX_BUCKETS);
});

test('every solve method has its own wire code and comes back as itself', () => {
  for (const m of HISTORY_METHODS) assert.equal(HISTORY_METHODS[methodCode(m)], m);
  assert.equal(new Set(HISTORY_METHODS.map(methodCode)).size, HISTORY_METHODS.length);
});
