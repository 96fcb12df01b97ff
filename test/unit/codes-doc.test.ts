// docs/diagnostics.md lists every diagnostic code with the engine's own description of it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CodeDescriptions, Codes } from '../../src/engine';

test('docs/diagnostics.md: one row per code, ending with its CodeDescriptions text', () => {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'diagnostics.md'), 'utf8').split('\n');
  const codes = Object.values(Codes);
  assert.equal(new Set(codes).size, codes.length, 'codes are unique');
  for (const code of codes) {
    const rows = doc.filter((l) => l.startsWith(`| \`${code}\` |`));
    assert.equal(rows.length, 1, `one row for ${code}`);
    assert.ok(rows[0].trimEnd().endsWith(`| ${CodeDescriptions[code]} |`), `${code}: the row ends with the description in codes.ts`);
  }
  const documented = doc.filter((l) => /^\| `CL\d/.test(l)).map((l) => l.slice(3, l.indexOf('`', 3)));
  assert.deepEqual(documented.sort(), [...codes].sort(), 'no row for a code the engine does not have');
});
