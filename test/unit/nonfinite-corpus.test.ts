// The regression corpus of non-finite and overflowing runs: every reproducer that was reported
// and every failure the mutation fuzzer found, each with the code, step, quantity and owner it must be
// reported as, checked through the engine and through the CLI (exit status, the code in the output).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes, simulateScene } from '../../src/engine';

const root = join(__dirname, '../..');
const dir = join(root, 'test/fixtures/nonfinite');
const cli = join(root, 'dist/cli.js');

interface Expected {
  code: string;
  step?: number;
  quantity?: string;
  owner?: string;
  path?: (string | number)[];
  inspect: number;
  simulate: number;
  cause?: string;
  warning?: string;
}
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Record<string, Expected>;
const files = readdirSync(dir).filter((f) => f.endsWith('.scene.json'));

before(() => {
  if (!existsSync(cli)) {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
});

test('every corpus scene has an expectation, and every expectation a scene', () => {
  assert.deepEqual(files.sort(), Object.keys(expected).filter((k) => !k.startsWith('$')).sort());
});

for (const file of files) {
  const e = expected[file];
  test(`engine: ${file} → ${e.code}${e.step !== undefined ? ` at step ${e.step} in ${e.quantity}${e.owner ? ` of ${e.owner}` : ''}` : ''}`, () => {
    const out = simulateScene(readFileSync(join(dir, file), 'utf8'));
    const d = out.inspect.diagnostics.find((x) => x.code === e.code);
    assert.ok(d, JSON.stringify(out.inspect.diagnostics.map((x) => x.code)));
    assert.equal(d.severity, 'error');
    assert.equal(out.inspect.hasErrors, true);
    if (e.path) assert.deepEqual(d.data?.path, e.path);
    if (e.step === undefined) return;
    assert.equal(d.data?.step, e.step);
    assert.equal(d.data?.quantity, e.quantity);
    assert.equal((d.data?.owner as { name?: string } | undefined)?.name, e.owner);
    // the first bad step: nothing before it was bad, and the run kept exactly the steps before it
    if (e.step === 0) assert.equal(out.result, undefined, 'no run from a bad initial state');
    else {
      assert.equal(out.result?.stoppedAt, e.step);
      assert.equal(out.result?.steps.length, e.step - 1);
      for (const r of out.result!.steps)
        for (const x of [...r.C, ...r.lambda, ...r.poses, r.energy.kinetic, r.energy.potential, r.energy.total]) assert.ok(Math.abs(x) <= 1e150, `step ${r.step}: ${x}`);
    }
    if (e.cause) {
      const why = out.inspect.diagnostics.filter((x) => x.code === Codes.divergence);
      assert.equal(why.length, 1, 'one divergence diagnostic');
      assert.equal(why[0].data?.cause, e.cause);
      assert.equal(why[0].data?.step, e.step);
    }
    if (e.warning) assert.ok(out.inspect.diagnostics.some((x) => x.code === e.warning));
  });

  test(`CLI: ${file} → inspect exits ${e.inspect}, simulate exits ${e.simulate}`, () => {
    const f = join(dir, file);
    const ins = spawnSync(process.execPath, [cli, 'inspect', f], { encoding: 'utf8' });
    assert.equal(ins.status, e.inspect, ins.stdout.slice(-400) + ins.stderr);
    if (e.step === 0 || e.path) assert.match(ins.stdout, new RegExp(e.code));
    const sim = spawnSync(process.execPath, [cli, 'simulate', f], { encoding: 'utf8' });
    assert.equal(sim.status, e.simulate, sim.stdout.slice(-400) + sim.stderr);
    assert.match(sim.stdout, new RegExp(e.code));
    if (e.cause) assert.match(sim.stdout, new RegExp(Codes.divergence));
    const json = spawnSync(process.execPath, [cli, 'simulate', f, '--json'], { encoding: 'utf8' });
    assert.equal(json.status, e.simulate);
    const codes = (JSON.parse(json.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((x) => x.code);
    assert.ok(codes.includes(e.code), codes.join(', '));
  });
}
