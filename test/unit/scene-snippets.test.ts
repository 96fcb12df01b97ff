// The editor snippets (snippets/scene.json): each one, with its placeholders at their defaults and
// its choices at the first option, put where it belongs in a scene, parses without a diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScene } from '../../src/engine';

const snippets = JSON.parse(readFileSync(join(__dirname, '..', '..', 'snippets', 'scene.json'), 'utf8')) as Record<string, { prefix: string; description: string; body: string[] }>;

/** Placeholders → their default text, choices → the first option, tab stops removed. */
const instantiate = (body: string[]): string =>
  body
    .join('\n')
    .replace(/\$\{\d+\|([^,|]*)[^|]*\|\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '');

const BODY = '{ "name": "Body", "mass": 1, "position": [0, 0, -1] }';

/** The snippet in a scene: by what it is. */
function inScene(prefix: string, text: string): string {
  switch (prefix) {
    case 'scene':
      return text;
    case 'scene-solver':
      return `{ ${text}, "bodies": [] }`;
    case 'scene-contacts':
      return `{ "solver": { ${text} }, "bodies": [ { "name": "A", "mass": 1, "shapes": [ { "type": "sphere", "radius": 1 } ] } ] }`;
    case 'scene-body':
      return `{ "bodies": [ ${text} ] }`;
    case 'scene-sphere':
    case 'scene-box':
    case 'scene-capsule':
      return `{ "solver": { "formulation": "velocity" }, "bodies": [ { "name": "A", "mass": 1, "shapes": [ ${text} ] } ], "world": { "shapes": [ ${text} ] } }`;
    case 'scene-ground':
      return `{ "solver": { "formulation": "nonlinear" }, ${text}, "bodies": [] }`;
    default:
      // A constraint between the world and Body.
      return `{ "bodies": [ ${BODY} ], "constraints": [ ${text} ] }`;
  }
}

test('every snippet, instantiated in a scene, parses without a diagnostic', () => {
  const prefixes = Object.values(snippets).map((s) => s.prefix);
  assert.equal(new Set(prefixes).size, prefixes.length, 'prefixes are unique');
  for (const p of ['scene-sphere', 'scene-box', 'scene-capsule', 'scene-ground', 'scene-contacts']) assert.ok(prefixes.includes(p), p);
  for (const [name, s] of Object.entries(snippets)) {
    assert.ok(s.description.length > 10, name);
    const text = inScene(s.prefix, instantiate(s.body));
    const r = parseScene(text);
    assert.deepEqual(r.diagnostics.map((d) => `${d.code}: ${d.message}`), [], `${name}:\n${text}`);
  }
});

test('the solver snippet offers every formulation', () => {
  const solver = Object.values(snippets).find((s) => s.prefix === 'scene-solver')!;
  assert.ok(solver.body.join('\n').includes('${6|acceleration,velocity,nonlinear|}'));
});
