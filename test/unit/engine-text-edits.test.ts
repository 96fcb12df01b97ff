// The "remove redundant constraint" quick fix removes only that constraint's text (the array
// element and exactly one adjacent comma): its neighbours keep their formatting and comments, on
// every layout (first, middle, last and only element; one-line arrays; comments between elements;
// trailing commas; CRLF).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTree, findNodeAtLocation, type ParseError } from 'jsonc-parser';
import { applyOffsetEdits, removeArrayElementEdits } from '../../src/engine/core/textEdits';
import { inspectScene, Codes, type TextEdit } from '../../src/engine';

/** Remove element `i` of the array at `path` the way the fix does (spans from a parse of the text). */
function removeAt(text: string, i: number, path: (string | number)[] = ['constraints']): string {
  const arr = findNodeAtLocation(parseTree(text)!, path)!;
  const el = arr.children![i];
  const prev = i > 0 ? arr.children![i - 1] : undefined;
  const edits = removeArrayElementEdits(text, { offset: el.offset, length: el.length }, prev && { offset: prev.offset, length: prev.length });
  return applyOffsetEdits(text, edits);
}

const lines = (...ls: string[]): string => ls.join('\n');

const MULTI = lines(
  '{',
  '  "constraints": [',
  '    { "name": "a", "type": "ball" },',
  '    { "name": "b", "type": "ball" },',
  '    { "name": "c", "type": "ball" }',
  '  ]',
  '}',
);

test('multi-line array: the first, middle and last element go with their own line and one comma', () => {
  assert.equal(removeAt(MULTI, 0), lines('{', '  "constraints": [', '    { "name": "b", "type": "ball" },', '    { "name": "c", "type": "ball" }', '  ]', '}'));
  assert.equal(removeAt(MULTI, 1), lines('{', '  "constraints": [', '    { "name": "a", "type": "ball" },', '    { "name": "c", "type": "ball" }', '  ]', '}'));
  assert.equal(removeAt(MULTI, 2), lines('{', '  "constraints": [', '    { "name": "a", "type": "ball" },', '    { "name": "b", "type": "ball" }', '  ]', '}'));
});

test('the only element: its line goes, the brackets stay', () => {
  const text = lines('{', '  "constraints": [', '    { "name": "a" }', '  ]', '}');
  assert.equal(removeAt(text, 0), lines('{', '  "constraints": [', '  ]', '}'));
  assert.equal(removeAt('{ "constraints": [ { "name": "a" } ] }', 0), '{ "constraints": [  ] }');
});

test('one-line arrays: the element and one comma, the spacing of the others unchanged', () => {
  const text = '{ "constraints": [{ "n": 1 }, { "n": 2 }, { "n": 3 }] }';
  assert.equal(removeAt(text, 0), '{ "constraints": [{ "n": 2 }, { "n": 3 }] }');
  assert.equal(removeAt(text, 1), '{ "constraints": [{ "n": 1 }, { "n": 3 }] }');
  assert.equal(removeAt(text, 2), '{ "constraints": [{ "n": 1 }, { "n": 2 }] }');
  const tight = '{"constraints":[1,2,3]}';
  assert.equal(removeAt(tight, 0), '{"constraints":[2,3]}');
  assert.equal(removeAt(tight, 1), '{"constraints":[1,3]}');
  assert.equal(removeAt(tight, 2), '{"constraints":[1,2]}');
  const spaced = '{ "constraints": [ 1 , 2 , 3 ] }';
  assert.equal(removeAt(spaced, 1), '{ "constraints": [ 1 , 3 ] }');
  assert.equal(removeAt(spaced, 2), '{ "constraints": [ 1 , 2 ] }');
});

test('comments between elements stay; a comment trailing the removed element on its own line goes with it', () => {
  const text = lines(
    '{',
    '  "constraints": [',
    '    // the rod',
    '    { "name": "a" }, // a keeps this',
    '    /* about b */',
    '    { "name": "b" }, // about b',
    '    { "name": "c" } // about c',
    '  ]',
    '}',
  );
  assert.equal(
    removeAt(text, 1),
    lines('{', '  "constraints": [', '    // the rod', '    { "name": "a" }, // a keeps this', '    /* about b */', '    { "name": "c" } // about c', '  ]', '}'),
  );
  // the last element: the comma before it goes, the comment after that comma stays with its line
  assert.equal(
    removeAt(text, 2),
    lines('{', '  "constraints": [', '    // the rod', '    { "name": "a" }, // a keeps this', '    /* about b */', '    { "name": "b" } // about b', '  ]', '}'),
  );
  assert.equal(
    removeAt(text, 0),
    lines('{', '  "constraints": [', '    // the rod', '    /* about b */', '    { "name": "b" }, // about b', '    { "name": "c" } // about c', '  ]', '}'),
  );
});

test('a comment between the comma and the last element stays (two edits)', () => {
  const text = lines('[', '  1,', '  // two:', '  2', ']');
  assert.equal(removeAt(text, 1, []), lines('[', '  1', '  // two:', ']'));
});

test('a trailing comma: the element and its own comma go', () => {
  const text = lines('{ "constraints": [', '  { "n": 1 },', '  { "n": 2 },', '] }');
  assert.equal(removeAt(text, 1), lines('{ "constraints": [', '  { "n": 1 },', '] }'));
});

test('multi-line elements, elements sharing a line, and the closing bracket on the last element’s line', () => {
  const text = lines('[', '  {', '    "n": 1', '  },', '  {', '    "n": 2', '  }, { "n": 3 }]');
  assert.equal(removeAt(text, 0, []), lines('[', '  {', '    "n": 2', '  }, { "n": 3 }]'));
  assert.equal(removeAt(text, 1, []), lines('[', '  {', '    "n": 1', '  },', '  { "n": 3 }]'));
  assert.equal(removeAt(text, 2, []), lines('[', '  {', '    "n": 1', '  },', '  {', '    "n": 2', '  }]'));
  // an element after another on the same line, at the end of that line
  assert.equal(removeAt(lines('[ 1, 2,', '  3 ]'), 1, []), lines('[ 1,', '  3 ]'));
});

test('CRLF: line endings of the other lines are kept, no lone CR or LF left', () => {
  const crlf = MULTI.replace(/\n/g, '\r\n');
  for (let i = 0; i < 3; i++) {
    const out = removeAt(crlf, i);
    assert.equal(out, removeAt(MULTI, i).replace(/\n/g, '\r\n'), `element ${i}`);
    assert.doesNotMatch(out, /\r(?!\n)|(?<!\r)\n/);
  }
});

test('every removal leaves valid JSON whose array is the others, in order', () => {
  const layouts = [MULTI, MULTI.replace(/\n/g, '\r\n'), '{"constraints":[{"n":0},{"n":1},{"n":2},{"n":3}]}', lines('{ "constraints": [ // list', '  {"n":0}, /* x */ {"n":1},', '  {"n":2}, // two', '  {"n":3}', '] }')];
  for (const text of layouts) {
    const n = findNodeAtLocation(parseTree(text)!, ['constraints'])!.children!.length;
    for (let i = 0; i < n; i++) {
      const errors: ParseError[] = [];
      const out = removeAt(text, i);
      const tree = parseTree(out, errors, { allowTrailingComma: false });
      assert.deepEqual(errors, [], `removing ${i} from ${JSON.stringify(text)} gave ${JSON.stringify(out)}`);
      const before = findNodeAtLocation(parseTree(text)!, ['constraints'])!.children!.map((c) => text.slice(c.offset, c.offset + c.length));
      const after = findNodeAtLocation(tree!, ['constraints'])!.children!.map((c) => out.slice(c.offset, c.offset + c.length));
      assert.deepEqual(after, before.filter((_, k) => k !== i));
    }
  }
});

// ---- the quick fix of CL301, end to end through the engine ----------------------------------------

function apply(text: string, edits: readonly TextEdit[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const off = (p: { line: number; character: number }): number => starts[p.line] + p.character;
  return applyOffsetEdits(text, edits.map((e) => ({ offset: off(e.range.start), length: off(e.range.end) - off(e.range.start), content: e.newText })));
}

const body = (name: string, x: number): string => `{ "name": "${name}", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [${x}, 0, 0] }`;
const rod = (name: string): string => `{ "name": "${name}", "type": "distance", "bodyA": "A", "bodyB": "B", "length": 1 }`;

test('CL301 fix: the redundant rod goes, the neighbours keep their layout and comments', () => {
  for (const eol of ['\n', '\r\n']) {
    const text = [
      '{',
      `  "bodies": [${body('A', 0)}, ${body('B', 1)}],`,
      '  "constraints": [',
      `    ${rod('rod')},   // the real one`,
      `    ${rod('copy')}, // redundant`,
      '    { "name": "pin",  "type": "ball", "bodyA": "A", "bodyB": "world", "anchorA": [0,0,0] }',
      '  ]',
      '}',
    ].join(eol);
    const r = inspectScene(text);
    const d = r.diagnostics.find((x) => x.code === Codes.redundantConstraint);
    assert.ok(d?.fixes?.length, `a CL301 fix: ${r.diagnostics.map((x) => x.code).join(', ')}`);
    const out = apply(text, d.fixes[0].edits);
    assert.equal(out, text.replace(`    ${rod('copy')}, // redundant${eol}`, ''));
    assert.equal(inspectScene(out).diagnostics.filter((x) => x.code === Codes.redundantConstraint).length, 0);
  }
});
