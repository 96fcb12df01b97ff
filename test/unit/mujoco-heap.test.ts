// The records' efc arrays, counts and time read from the WebAssembly heap at mjData's addresses
// (mujocoHeap.ts): the fast path is taken on models with equalities, limits and contacts that come and
// go, and every step's element λ and violation, time, nefc and ncon equal those read through the
// bindings' views, and MuJoCo's own system of the step read again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { loadMujoco } from '../../src/import/mujoco';
import { MujocoRun } from '../../src/import/mujocoRun';
import { FIXTURES } from './import-helpers';

async function open(file: string): Promise<MujocoRun> {
  const path = join(FIXTURES, file);
  const parse = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(join(path, '..')) });
  assert.ok(parse.model);
  const run = MujocoRun.open(await loadMujoco(), parse.model);
  if ('error' in run) assert.fail(run.error);
  return run;
}

/** Per step: MuJoCo's time, nefc and ncon as recorded. */
function scalars(run: MujocoRun): number[][] {
  const out: number[][] = [];
  for (let k = 0; k <= run.currentStep; k++) out.push([run.columns.t(k), run.columns.nefc(k), run.columns.ncon(k)]);
  return out;
}

/** Per step: [element id, ‖λ‖, violation] of each element with rows. */
function elements(run: MujocoRun): number[][][] {
  const out: number[][][] = [];
  for (let k = 0; k <= run.currentStep; k++) {
    const e = run.columns.elementsOf(k);
    const row: number[][] = [];
    for (let i = e.start; i < e.end; i++) row.push([e.ids[i], e.lambda[i], e.violation[i]]);
    out.push(row);
  }
  return out;
}

for (const [file, steps] of [
  ['mujoco/box-stack.xml', 400],
  ['four-bar.xml', 300],
  ['public/humanoid/humanoid.xml', 300],
] as const) {
  test(`${file}: the heap's efc arrays give every step's elements exactly as the bindings' views do`, async () => {
    const fast = await open(file);
    const slow = await open(file);
    try {
      (slow as unknown as { heap: { off: boolean } }).heap.off = true;
      fast.step(steps);
      slow.step(steps);
      assert.equal(fast.efcFromHeap, true, 'the heap path was taken');
      assert.equal(slow.efcFromHeap, false);
      assert.equal((fast as unknown as { heap: { scalars(): boolean } }).heap.scalars(), true, "mjData's counts and time were read from the heap");
      assert.equal(fast.currentStep, slow.currentStep);
      assert.deepEqual(scalars(fast), scalars(slow));
      const a = elements(fast), b = elements(slow);
      assert.ok(a.some((r) => r.length > 0), 'the run has constraint rows');
      assert.deepEqual(a, b);
      // and against the step's system read again from MuJoCo (element by name, contacts as one)
      const names = fast.elements.map((e) => e.name);
      fast.forEachSystem(1, Math.min(steps, 120), (sys) => {
        const lam = new Map<string, number>(), vio = new Map<string, number>();
        sys.rows.forEach((r, i) => {
          const name = r.type === 'contact' || r.type === 'friction' ? 'contacts' : r.constraint;
          lam.set(name, (lam.get(name) ?? 0) + (sys.lambda?.[i] ?? NaN) ** 2);
          vio.set(name, Math.max(vio.get(name) ?? 0, Math.abs(sys.C?.[i] ?? NaN)));
        });
        const rec = a[sys.step];
        assert.equal(rec.length, lam.size, `step ${sys.step}: elements`);
        for (const [id, l, v] of rec) {
          assert.equal(l, Math.sqrt(lam.get(names[id]) ?? NaN), `step ${sys.step} ${names[id]} ‖λ‖`);
          assert.equal(v, vio.get(names[id]), `step ${sys.step} ${names[id]} violation`);
        }
      });
    } finally {
      fast.dispose();
      slow.dispose();
    }
  });
}
