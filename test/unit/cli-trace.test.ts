// `constraint-lens inspect TRACE [--step K] [--json]` on the trace fixtures, through the CLI's source.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(__dirname, '..', '..');
const trace = (f: string) => join('test', 'fixtures', 'trace', f);
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli.ts'), ...args], { encoding: 'utf8', cwd: root });

test('inspect TRACE --json: the inspect contract at step 0, plus steps and run diagnostics naming their step', () => {
  const r = cli('inspect', trace('nonfinite-run.npz'), '--json');
  assert.equal(r.status, 1, r.stderr);
  const out = JSON.parse(r.stdout);
  for (const key of ['rows', 'J', 'A', 'lambda', 'C', 'cond', 'rank', 'redundant', 'diagnostics', 'steps']) assert.ok(key in out, key);
  assert.equal(out.step, 0);
  assert.deepEqual(out.lambda, [1]);
  assert.equal(out.lambdaSource, 'producer');
  assert.equal(out.steps.length, 6);
  const norms = out.steps.map((s: { normLambda: number | null }) => s.normLambda);
  [1, 1, 10, 100].forEach((x, k) => assert.ok(Math.abs(norms[k] - x) < 1e-12 * x, `step ${k}: ‖λ‖ ${norms[k]}`));
  assert.deepEqual(norms.slice(4), [null, null]);
  const d = out.diagnostics.find((x: { code: string }) => x.code === 'CL401-non-finite');
  assert.equal(d.data.step, 4);
  assert.match(d.message, /^step 4:/);
});

test('inspect TRACE --step K --json: the system at step K; an Axion log lists κ per Newton iteration with the stored one', () => {
  const r = cli('inspect', trace('axion-newton.h5'), '--step', '1', '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.step, 1);
  assert.equal(out.format, 'axion');
  assert.equal(out.steps[1].iterations.length, 3);
  for (const it of out.steps[1].iterations) assert.ok(Math.abs(it.cond - it.storedCond) < 1e-5 * it.storedCond, 'float32 storage: κ agrees to single precision');
  assert.equal(out.cond.AR, out.steps[1].cond, 'κ of A + C_dense, as Axion computes it');
});

test('inspect of an FCLib local problem shows W; a missing file or a --step past the trace is exit status 2', () => {
  const local = JSON.parse(cli('inspect', trace('box-on-plane.local.hdf5'), '--json').stdout);
  assert.ok('W' in local && !('A' in local));
  assert.deepEqual(local.contacts.map((c: { mu: number }) => c.mu), [0.6, 0.6, 0.6, 0.6]);
  assert.equal(cli('inspect', trace('braced-square.npz'), '--step', '3').status, 2);
  assert.equal(cli('inspect', trace('no-such-file.npz')).status, 2);
  const text = cli('inspect', trace('braced-square.npz'));
  assert.equal(text.status, 0);
  assert.match(text.stdout, /redundant: diag13 = 0\.7071·side01/);
});
