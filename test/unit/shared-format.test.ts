// src/shared: the one number formatter, κ bands, words and safe text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  COND_BAND_LABEL,
  DEFAULT_CONDITION_WARNING,
  condBand,
  condBandDescription,
  condBandLegend,
  condThresholds,
  conditionWarning,
  exactNumber,
  formatCond,
  formatNumber,
  formatQuantity,
  formatTime,
  formatVec,
  isIllConditioned,
  safeText,
  UNITS,
} from '../../src/shared';

test('formatNumber: −0, signs and the three non-finite values', () => {
  assert.equal(formatNumber(0), '0');
  assert.equal(formatNumber(-0), '0');
  assert.equal(formatNumber(NaN), 'NaN');
  assert.equal(formatNumber(Infinity), '∞');
  assert.equal(formatNumber(-Infinity), '-∞');
  // The value that printed three ways before (-1.235e-4, -1.2e-4, −1.23e-4).
  assert.equal(formatNumber(-0.000123456), '-1.235e-4');
  assert.equal(formatNumber(-0.000123456, 3), '-1.23e-4');
  assert.equal(formatNumber(-0.5), '-0.5');
});

test('formatNumber: fixed in [1e-3, 1e5), scientific outside, no "+" and no trailing zeros', () => {
  assert.equal(formatNumber(0.5), '0.5');
  assert.equal(formatNumber(1), '1');
  assert.equal(formatNumber(12.3456), '12.35');
  assert.equal(formatNumber(0.001), '0.001');
  assert.equal(formatNumber(0.000999), '9.99e-4');
  assert.equal(formatNumber(12345), '12350');
  assert.equal(formatNumber(99999), '1e5', 'rounds to 1.000e5, so scientific');
  assert.equal(formatNumber(100000), '1e5');
  assert.equal(formatNumber(2.5e7), '2.5e7');
  assert.equal(formatNumber(1e300), '1e300');
  assert.equal(formatNumber(-1e300), '-1e300');
  assert.equal(formatNumber(1e-320), '1e-320', 'subnormal');
  assert.equal(formatNumber(5e-324), '4.941e-324', 'smallest subnormal');
  assert.equal(formatNumber(Number.MAX_VALUE), '1.798e308', 'rounding up the largest double stays finite');
  assert.equal(formatNumber(-24.5248773756, 12), '-24.5248773756');
  assert.equal(formatNumber(1 / 3, 17), '0.3333333333333333', 'fixed notation is the shortest decimal of the rounded value');
});

test('formatNumber: rounding boundaries decide the notation after rounding', () => {
  assert.equal(formatNumber(99999.5), '1e5');
  assert.equal(formatNumber(99994), '99990');
  assert.equal(formatNumber(0.00099996), '0.001', 'rounds up into the fixed range');
  assert.equal(formatNumber(0.00099994), '9.999e-4');
  assert.equal(formatNumber(9.99951), '10');
  assert.equal(formatNumber(1.23456e-7, 2), '1.2e-7');
  assert.equal(formatNumber(5, 0), '5', 'digits clamp to 1');
  assert.equal(formatNumber(123, 1), '100');
  assert.equal(formatNumber(1234, 3, { sciAbove: 1e3 }), '1.23e3');
  assert.equal(formatNumber(1e-5, 3, { sciBelow: 1e-9 }), '0.00001', 'sciBelow clamps to 1e-6');
  assert.equal(formatNumber(1e-7, 3, { sciBelow: 1e-9 }), '1e-7');
});

test('exactNumber: shortest round trip; NaN, Infinity, -Infinity; −0 as 0', () => {
  for (const x of [0.1, -0.000123456, 1e-320, 1e300, Math.PI, -2.5e-7]) assert.equal(Number(exactNumber(x)), x);
  assert.equal(exactNumber(-0), '0');
  assert.equal(exactNumber(NaN), 'NaN');
  assert.equal(exactNumber(Infinity), 'Infinity');
  assert.equal(exactNumber(-Infinity), '-Infinity');
  for (const s of ['NaN', 'Infinity', '-Infinity']) assert.equal(exactNumber(Number(s)), s, 'JavaScript reads it back');
});

test('formatTime, formatVec, formatQuantity and units', () => {
  assert.equal(formatTime(0.125), '0.125 s');
  assert.equal(formatTime(1.2345678), '1.234568 s');
  assert.equal(formatTime(-0.0000001), '0 s');
  assert.equal(formatTime(12), '12 s');
  assert.equal(formatTime(2e15), '2e15 s');
  assert.equal(formatTime(NaN), 'NaN s');
  assert.equal(formatVec([1, -0.5, 2.5e-7]), '[1, -0.5, 2.5e-7]');
  assert.equal(formatVec(undefined), '—');
  assert.equal(formatQuantity(-9.81, UNITS.force), '-9.81 N');
  assert.equal(formatQuantity(Infinity, UNITS.energy), '∞ J');
  assert.equal(UNITS.torque, 'N·m');
});

test('κ bands: one classification with the scene threshold, at and around the edges', () => {
  assert.equal(DEFAULT_CONDITION_WARNING, 1e6);
  assert.deepEqual(condThresholds(), { caution: 1000, bad: 1e6 });
  // κ = 176 (the example chain, well posed) read "caution" everywhere: below 1e3 λ loses fewer than
  // 3 digits, so it is well-conditioned everywhere now
  assert.equal(condBand(176), 'good');
  assert.equal(condBand(999.999), 'good');
  assert.equal(condBand(1000), 'caution');
  assert.equal(condBand(1.41e4), 'caution');
  assert.equal(condBand(1e6 * (1 - 1e-12)), 'caution');
  assert.equal(condBand(1e6), 'bad');
  assert.equal(condBand(5e7), 'bad');
  assert.equal(condBand(2000, { warning: 1e4 }), 'caution');
  assert.equal(condBand(1e4, { warning: 1e4 }), 'bad', 'the scene threshold is the ill-conditioned edge');
  assert.equal(condBand(9999, { warning: 1e4 }), 'caution');
  assert.equal(condBand(600, { warning: 500 }), 'bad', 'a threshold below 1000 leaves no caution band');
  assert.equal(condBand(499, { warning: 500 }), 'good');
  assert.equal(condBand(2e5, { warning: NaN }), 'caution', 'an invalid threshold falls back to 1e6');
  assert.equal(condBand(2e6, { warning: -1 }), 'bad', 'so does a negative one');
  assert.equal(condBand(1, { warning: 0.5 }), 'bad', 'κ ≥ 1 ≥ a threshold below 1: always flagged');
  assert.equal(conditionWarning(0), 1e6);
  assert.equal(conditionWarning(0.5), 0.5);
  assert.equal(conditionWarning(1e8), 1e8);
  assert.equal(condBand(null), 'singular');
  assert.equal(condBand(undefined), 'singular');
  assert.equal(condBand(Infinity), 'singular');
  assert.equal(condBand(NaN), 'singular');
  assert.equal(condBand(10, { rankDeficient: true }), 'singular');
  assert.ok(isIllConditioned('bad') && isIllConditioned('singular') && !isIllConditioned('caution') && !isIllConditioned('none'));
});

test('no constraints is its own neutral state, never "∞ singular"', () => {
  assert.equal(condBand(null, { rows: 0 }), 'none');
  assert.equal(condBand(Infinity, { rows: 0, rankDeficient: true }), 'none');
  assert.equal(COND_BAND_LABEL.none, 'no constraints');
  assert.equal(formatCond(null, { rows: 0 }), '–');
  assert.match(condBandDescription('none'), /no constraints/);
  assert.doesNotMatch(condBandDescription('none'), /singular|∞/);
});

test('formatCond: 3 digits, scientific from 1e4, ≈ when estimated, ∞ when singular', () => {
  assert.equal(formatCond(1), '1');
  assert.equal(formatCond(176.49), '176');
  assert.equal(formatCond(1234), '1230');
  assert.equal(formatCond(12345), '1.23e4');
  assert.equal(formatCond(1e6), '1e6');
  assert.equal(formatCond(2.46e12, { estimated: true }), '≈2.46e12');
  assert.equal(formatCond(null, { estimated: true }), '∞');
  assert.equal(formatCond(Infinity), '∞');
  assert.equal(formatCond(NaN), 'NaN');
  assert.equal(condBandLegend(), '< 1000 well-conditioned, < 1e6 caution, ≥ 1e6 ill-conditioned, ∞ singular, – no constraints');
  assert.match(condBandDescription('bad', 1e8), /κ ≥ 1e8/);
});

test('safeText: control characters and bidi overrides become visible escapes', () => {
  assert.equal(safeText('rod\u001b[2J'), 'rod\\x1B[2J');
  assert.equal(safeText('\u001b]0;pwned\u0007'), '\\x1B]0;pwned\\x07');
  assert.equal(safeText('a\u009bb\u007fc'), 'a\\x9Bb\\x7Fc');
  assert.equal(safeText('evil\u202Etxt.exe'), 'evil\\u202Etxt.exe');
  assert.equal(safeText('x\u2066y\u2069\u200f'), 'x\\u2066y\\u2069\\u200F');
  assert.equal(safeText('tab\there\nline'), 'tab\\x09here\\x0Aline');
  assert.equal(safeText('tab\there\nline', { keepNewlines: true }), 'tab\\x09here\nline');
  assert.equal(safeText('Körper_β κ λ 物体 🙂'), 'Körper_β κ λ 物体 🙂', 'printable text is unchanged');
});
