// The item under the editor's cursor (src/extension/logic/itemAt.ts): the body or constraint whose
// JSON object holds the offset, on a scene with comments, nested arrays and a dropped constraint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspectScene } from '../../src/engine';
import { itemAtOffset, sameItem } from '../../src/extension/logic/itemAt';

const TEXT = `// two links
{
  "name": "p",
  "solver": { "dt": 0.01 },
  "bodies": [
    { "name": "upper", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [0.5, 0, 2] },
    /* the second link */
    { "name": "lower", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [1.5, 0, 2] }
  ],
  "constraints": [
    { "name": "shoulder", "type": "ball", "bodyA": "world", "bodyB": "upper",
      "anchorA": [0, 0, 2], "anchorB": [-0.5, 0, 0] },
    { "name": "ghost", "type": "ball", "bodyA": "nobody", "bodyB": "upper" },
    { "name": "elbow", "type": "ball", "bodyA": "upper", "bodyB": "lower", "anchorA": [0.5, 0, 0], "anchorB": [-0.5, 0, 0] }
  ]
}
`;

test('itemAtOffset: the body or constraint whose object holds the cursor, none between items', () => {
  const r = inspectScene(TEXT);
  const scene = r.parse.scene!;
  const at = (needle: string, delta = 0) => itemAtOffset(scene, r.parse.sourceMap, TEXT.indexOf(needle) + delta);
  assert.deepEqual(at('"upper", "mass"'), { kind: 'body', name: 'upper', fileIndex: 0 });
  assert.deepEqual(at('[1.5, 0, 2]', 2), { kind: 'body', name: 'lower', fileIndex: 1 }, 'inside a nested array');
  assert.deepEqual(at('"anchorA": [0, 0, 2]'), { kind: 'constraint', name: 'shoulder', fileIndex: 0 }, 'on the second line of the object');
  assert.deepEqual(at('{ "name": "elbow"'), { kind: 'constraint', name: 'elbow', fileIndex: 2 }, 'on its opening brace');
  assert.equal(at('"ghost"'), undefined, 'a constraint the parser dropped (unknown body) is not selectable');
  assert.equal(at('the second link'), undefined, 'a comment between two bodies');
  assert.equal(at('"solver"'), undefined);
  assert.equal(at('"constraints"'), undefined, 'the key of the array');
  assert.equal(itemAtOffset(scene, r.parse.sourceMap, TEXT.length + 10), undefined, 'past the end');
  assert.ok(sameItem(at('"upper", "mass"'), at('"position": [0.5')));
  assert.ok(!sameItem(at('"upper", "mass"'), at('"elbow"')));
  assert.ok(sameItem(undefined, undefined));
});
