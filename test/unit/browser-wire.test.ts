// The browser harness's wire (test/browser/wire.ts): what the page decodes is the message the host
// posted, typed arrays with their exact type and values (NaN, ±∞ included), non-finite
// numbers elsewhere, and encodeForJson text (reports, tests) decodes as before.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildFixture } from '../browser/fixtures';
import { decodeFromJson, encodeForJson } from '../../src/protocol';
import { encodeHistory } from '../../src/shared/history';
import { DECODE_IN_PAGE, encodeForPage } from '../browser/wire';

// the in-page decoder is plain JavaScript text: evaluated here as the page does (atob is global in Node ≥ 16)
const decode = new Function(`return ${DECODE_IN_PAGE}`)() as (text: string) => unknown;

describe('browser harness wire', () => {
  test('typed arrays keep their type and every bit; non-finite numbers survive', () => {
    const sub = new Float64Array([9, 8, 7, 6]).subarray(1, 3);
    const m = {
      f: new Float64Array([1.5, NaN, Infinity, -Infinity, -0, 5e-324]),
      i: new Int32Array([-2147483648, 0, 7]),
      u: new Uint8Array([0, 255, 3]),
      sub,
      nested: [{ x: Infinity, y: [NaN, 1, -Infinity], z: null, s: 'a"b' }],
      skipped: undefined,
    };
    const out = decode(encodeForPage(m)) as Record<string, unknown>;
    assert.ok(out.f instanceof Float64Array && out.i instanceof Int32Array && out.u instanceof Uint8Array && out.sub instanceof Float64Array);
    assert.deepEqual(Array.from(out.f as Float64Array), [1.5, NaN, Infinity, -Infinity, 0, 5e-324]);
    assert.deepEqual(Array.from(out.i as Int32Array), [-2147483648, 0, 7]);
    assert.deepEqual(Array.from(out.u as Uint8Array), [0, 255, 3]);
    assert.deepEqual(Array.from(out.sub as Float64Array), [8, 7]);
    assert.deepEqual(out.nested, [{ x: Infinity, y: [NaN, 1, -Infinity], z: null, s: 'a"b' }]);
    assert.equal('skipped' in out, false);
  });

  test('a real model and a history chunk decode to what encodeForJson → decodeFromJson gives (the Uint8Array type kept)', () => {
    const fx = buildFixture('chain', 20);
    const msgs = [
      { type: 'model', model: { ...fx.model, history: [] } },
      { type: 'historyAppend', chunk: encodeHistory(fx.model.history, 0, 20), total: 20 },
    ];
    // encodeForJson's text makes a Uint8Array an Int32Array; the page gets it as it was
    const u8ToI32 = (x: unknown): unknown => {
      if (x instanceof Uint8Array) return Int32Array.from(x);
      if (Array.isArray(x)) return x.map(u8ToI32);
      if (x && typeof x === 'object' && !ArrayBuffer.isView(x)) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, u8ToI32(v)]));
      return x;
    };
    for (const m of msgs) {
      const viaPage = decode(encodeForPage(m));
      assert.deepEqual(u8ToI32(viaPage), decodeFromJson(encodeForJson(m)));
      // and encodeForJson text (what tests send as 'json' or a report embeds) still decodes in the page
      assert.deepEqual(decode(encodeForJson(m)), decodeFromJson(encodeForJson(m)));
    }
  });
});
