// The engine's one door: outside src/engine/, only `…/engine` (its index.ts) may be imported. The
// ESLint rule that enforces it must actually fail on a deep import (linted here on probe texts).
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: ROOT });

async function restricted(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('a deep engine import from outside the engine is a lint error', async () => {
  const cases: [string, string][] = [
    ['src/probe.ts', "import type { SystemSnapshot } from './engine/result';\nexport type S = SystemSnapshot;\n"],
    ['src/extension/probe.ts', "import { csrToDense } from '../engine/linalg/sparse';\nexport const f = csrToDense;\n"],
    ['src/import/probe.ts', "export { Codes } from '../engine/codes';\n"],
    ['webview/probe.ts', "import type { Range } from '../src/engine/types';\nexport type R = Range;\n"],
    ['bench/probe.ts', "import { Simulation } from '../src/engine/simulation';\nexport const S = Simulation;\n"],
    ['test/unit/probe.test.ts', "import { parseScene } from '../../src/engine/scene/parse';\nexport const p = parseScene;\n"],
  ];
  for (const [file, code] of cases) {
    const messages = await restricted(file, code);
    assert.equal(messages.length, 1, `${file}: ${code}`);
    assert.match(messages[0], /through its index/);
  }
});

test('the index itself, the engine inside and the named white-box tests are allowed', async () => {
  const ok: [string, string][] = [
    ['src/probe.ts', "import { inspectScene } from './engine';\nexport const f = inspectScene;\n"],
    ['src/probe.ts', "import { inspectScene } from './engine/index';\nexport const f = inspectScene;\n"],
    ['test/unit/probe.test.ts', "import { parseScene } from '../../src/engine';\nexport const p = parseScene;\n"],
    ['src/engine/probe.ts', "import { csrGet } from './linalg/sparse';\nexport const g = csrGet;\n"],
    ['test/unit/linalg-sparse.test.ts', "import { csrGet } from '../../src/engine/linalg/sparse';\nexport const g = csrGet;\n"],
  ];
  for (const [file, code] of ok) assert.deepEqual(await restricted(file, code), [], `${file}: ${code}`);
});

test('the engine imports nothing built on it, from any depth of its folders', async () => {
  const bad: [string, string][] = [
    ['src/engine/probe.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"],
    ['src/engine/probe.ts', "import { x } from '../extension/panel';\nexport const y = x;\n"],
    ['src/engine/probe.ts', "import { x } from '../shared/number';\nexport const y = x;\n"],
    ['src/engine/probe.ts', "import type { X } from '../protocol';\nexport type Y = X;\n"],
    ['src/engine/probe.ts', "import { x } from '../../webview/matrix';\nexport const y = x;\n"],
    // one folder down: the old rule saw only `../extension/*` and `../../webview/*`
    ['src/engine/core/probe.ts', "import { x } from '../../extension/panel';\nexport const y = x;\n"],
    ['src/engine/analysis/probe.ts', "export { formatNumber } from '../../shared/number';\n"],
    ['src/engine/kkt/probe.ts', "import type { X } from '../../protocol';\nexport type Y = X;\n"],
    ['src/engine/contact/probe.ts', "import { x } from '../../import/mjcf';\nexport const y = x;\n"],
    ['src/engine/stepping/probe.ts', "import { x } from '../../cli/run';\nexport const y = x;\n"],
    ['src/engine/scene/probe.ts', "import { x } from '../../../webview/matrix';\nexport const y = x;\n"],
    ['src/engine/collision/probe.ts', "import { x } from '../../shared';\nexport const y = x;\n"],
  ];
  for (const [file, code] of bad) assert.equal((await restricted(file, code)).length, 1, `${file}: ${code}`);
  const ok: [string, string][] = [
    ['src/engine/analysis/probe.ts', "import { formatNumber } from '../core/format';\nexport const f = formatNumber;\n"],
    ['src/engine/probe.ts', "import { parseScene } from './scene/parse';\nexport const p = parseScene;\n"],
    ['src/engine/scene/probe.ts', "import { parse } from 'jsonc-parser';\nexport const p = parse;\n"],
  ];
  for (const [file, code] of ok) assert.deepEqual(await restricted(file, code), [], `${file}: ${code}`);
});

test('every exempted white-box test exists (the list names files, not patterns)', async () => {
  const config = pathToFileURL(join(ROOT, 'eslint.config.mjs')).href;
  const { ENGINE_WHITE_BOX_TESTS } = (await import(config)) as { ENGINE_WHITE_BOX_TESTS: string[] };
  assert.ok(ENGINE_WHITE_BOX_TESTS.length > 0);
  for (const f of ENGINE_WHITE_BOX_TESTS) assert.ok(existsSync(join(ROOT, f)), f);
});
