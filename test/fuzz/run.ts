// The long mutation fuzzer: mutants of the example scenes through the engine, and every
// `--cli-every`-th one through the CLI (`inspect`, `simulate --steps`) in-process. Failures are
// written to `--out` as scene files with the reason next to them.
//   node --import tsx test/fuzz/run.ts [--count 20000] [--seed 1] [--steps 150] [--cli-every 25] [--out DIR]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/run';
import { checkScene, loadExamples, mutate, rng } from './mutate';

function option(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
}

/** Runs the CLI in-process; returns its exit status and what it printed. */
export async function runCli(args: string[]): Promise<{ status: number; out: string }> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  const capture = (c: string | Uint8Array) => {
    chunks.push(typeof c === 'string' ? c : Buffer.from(c).toString('utf8'));
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
  try {
    const status = await run(args);
    return { status, out: chunks.join('') };
  } catch (e) {
    return { status: -1, out: chunks.join('') + `\nexception: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

/** The CLI's invariants on one scene file: exit 1 exactly when errors are reported, no NaN without a diagnostic. */
export async function checkCli(file: string, steps: number): Promise<string | undefined> {
  for (const args of [['inspect', file], ['simulate', file, '--steps', String(steps)]]) {
    const r = await runCli(args);
    if (r.status === -1 || r.status === 2) return `${args[0]}: exit ${r.status}: ${r.out.slice(-300)}`;
    const errors = /Diagnostics \((\d+) errors/.exec(r.out);
    const nErrors = errors ? Number(errors[1]) : 0;
    if ((r.status === 1) !== nErrors > 0) return `${args[0]}: exit ${r.status} with ${nErrors} errors`;
    const nan = /\bNaN\b/.test(r.out.split(/^Diagnostics/m)[0]);
    if (nan && !/CL40[13]/.test(r.out)) return `${args[0]}: prints NaN without CL401/CL403`;
    if (nan && r.status !== 1) return `${args[0]}: prints NaN and exits ${r.status}`;
  }
  return undefined;
}

async function main(): Promise<void> {
  const count = Number(option('count', '20000'));
  const seed = Number(option('seed', '1'));
  const steps = Number(option('steps', '150'));
  const cliEvery = Number(option('cli-every', '25'));
  const out = option('out', join(tmpdir(), 'constraint-lens-fuzz'));
  mkdirSync(out, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'cl-fuzz-'));
  const examples = loadExamples();
  const rand = rng(seed);
  const outcomes = new Map<string, number>();
  let failures = 0;
  const t0 = Date.now();
  for (let i = 0; i < count; i++) {
    const ex = examples[Math.floor(rand() * examples.length)];
    const m = mutate(ex.text, rand);
    const v = checkScene(m.text, steps);
    outcomes.set(v.outcome, (outcomes.get(v.outcome) ?? 0) + 1);
    let failure = v.failure;
    if (!failure && cliEvery > 0 && i % cliEvery === 0) {
      const file = join(work, 'mutant.scene.json');
      writeFileSync(file, m.text);
      failure = await checkCli(file, Math.min(steps, 50));
    }
    if (failure) {
      failures++;
      const base = join(out, `${seed}-${i}-${ex.name}`);
      writeFileSync(base, m.text);
      writeFileSync(`${base}.txt`, `${failure}\nedits: ${m.edits.join('; ')}\n`);
      console.log(`FAIL #${i} ${ex.name}: ${failure.slice(0, 200)} (${m.edits.join('; ')})`);
    }
    if ((i + 1) % 500 === 0) console.log(`${i + 1} mutants, ${failures} failures, ${Math.round((Date.now() - t0) / 1000)} s, ${JSON.stringify(Object.fromEntries(outcomes))}`);
  }
  rmSync(work, { recursive: true, force: true });
  console.log(`done: ${count} mutants (seed ${seed}), ${failures} failures, ${Math.round((Date.now() - t0) / 1000)} s; outcomes ${JSON.stringify(Object.fromEntries(outcomes))}; failures in ${out}`);
}

if (require.main === module) void main();
