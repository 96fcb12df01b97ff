// The long model fuzzer (model-mutate.ts): N mutants of the MJCF/URDF fixtures through the importer
// in one long-lived child process, watched by this one: a mutant that takes longer than --hang
// seconds is a hang (the child is killed, the mutant kept, the run goes on in a new child). Every
// failure is written to --out as the mutant file with the reason next to it (a regression case for
// test/unit/fuzz-model.test.ts when copied to test/fixtures/import-fuzz/).
//   node --import tsx test/fuzz/model-run.ts [--count 50000] [--from 0] [--seed 1] [--steps 20]
//        [--hang 60] [--slow 5] [--good-every 50] [--out DIR]
// Mutants --from … --count−1 of the seed: a long run can be split into chunks (--from 0 --count
// 10000, --from 10000 --count 20000, …), each its own long-lived process, and the tallies summed.
// The recorded long run (52 000 mutants, seed 5, two chunks of 26 000) is in docs/import.md.
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from './mutate';
import { checkModel, fuzzWorkspace, goodModelLoads, loadModelSeeds, mutateModel, type ModelVerdict } from './model-mutate';

function option(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : def;
}

/** Mutant `i` of run `seed`: the same text every time (a hang can be regenerated and kept). */
export function mutantAt(seed: number, i: number): { seed: string; ext: string; text: string; edits: string[] } {
  const seeds = loadModelSeeds();
  const r = rng((seed * 1_000_003 + i * 7919) >>> 0);
  const s = seeds[Math.floor(r() * seeds.length)];
  const m = mutateModel(s.text, r);
  return { seed: s.name, ext: s.name.endsWith('.urdf') ? 'urdf' : 'xml', ...m };
}

interface Message {
  i: number;
  phase: 'start' | 'done';
  verdict?: ModelVerdict;
  poisoned?: string;
}

async function child(seed: number, from: number, count: number, steps: number, goodEvery: number): Promise<void> {
  const ws = fuzzWorkspace();
  for (let i = from; i < count; i++) {
    process.send!({ i, phase: 'start' } satisfies Message);
    const m = mutantAt(seed, i);
    const verdict = await checkModel(ws, join(ws, `mutant.${m.ext}`), m.text, steps);
    let poisoned: string | undefined;
    if (verdict.outcome === 'crash-isolated' || i % goodEvery === 0) poisoned = await goodModelLoads(ws);
    process.send!({ i, phase: 'done', verdict, poisoned } satisfies Message);
  }
  process.exit(0);
}

async function parent(): Promise<void> {
  const count = Number(option('count', '50000'));
  const seed = Number(option('seed', '1'));
  const steps = Number(option('steps', '20'));
  const hangS = Number(option('hang', '60'));
  const slowS = Number(option('slow', '5'));
  const goodEvery = Number(option('good-every', '50'));
  const out = option('out', join(process.cwd(), 'model-fuzz-failures'));
  const tally: Record<string, number> = { mutants: 0, exceptions: 0, cl900: 0, hangs: 0, slow: 0, poisoned: 0, otherFailures: 0, crashIsolated: 0, rejected: 0, converted: 0, ran: 0 };
  let maxMs = 0;
  const t0 = Date.now();
  const keep = (i: number, reason: string) => {
    mkdirSync(out, { recursive: true });
    const m = mutantAt(seed, i);
    const base = join(out, `${seed}-${i}.${m.ext}`);
    writeFileSync(base, m.text);
    writeFileSync(base + '.txt', `${reason}\nseed fixture: ${m.seed}\nedits: ${m.edits.join('; ')}\n`);
  };
  let next = Number(option('from', '0'));
  while (next < count) {
    await new Promise<void>((resolve) => {
      const c = fork(__filename, ['--child', String(seed), String(next), String(count), String(steps), String(goodEvery)], { execArgv: ['--import', 'tsx', '--stack-size=4000'] });
      let current = next;
      let timer: NodeJS.Timeout | undefined;
      let started = false;
      // A new child first compiles the sources and loads MuJoCo (slow on a busy machine): the hang
      // budget starts with its first mutant; the start-up has a budget of its own.
      const startup = setTimeout(() => {
        if (!started) {
          console.log('a child did not start within 300 s; stopping');
          process.exit(3);
        }
      }, 300_000);
      const arm = () => {
        clearTimeout(timer);
        if (!started) return;
        timer = setTimeout(() => {
          tally.hangs++;
          tally.mutants++;
          keep(current, `hang: no answer after ${hangS} s`);
          next = current + 1;
          c.kill('SIGKILL');
        }, hangS * 1000);
      };
      arm();
      c.on('message', (msg: Message) => {
        started = true;
        clearTimeout(startup);
        current = msg.i;
        arm();
        if (msg.phase !== 'done' || !msg.verdict) return;
        const v = msg.verdict;
        tally.mutants++;
        next = msg.i + 1;
        maxMs = Math.max(maxMs, v.ms);
        if (v.outcome === 'exception') tally.exceptions++;
        else if (v.outcome === 'cl900') tally.cl900++;
        else if (v.outcome === 'crash-isolated') tally.crashIsolated++;
        else if (v.outcome === 'rejected') tally.rejected++;
        else if (v.outcome === 'converted') tally.converted++;
        else tally.ran++;
        if (v.failure && v.outcome !== 'exception' && v.outcome !== 'cl900') tally.otherFailures++;
        if (v.failure) keep(msg.i, v.failure);
        if (v.ms > slowS * 1000) {
          tally.slow++;
          keep(msg.i, `slow: ${v.ms.toFixed(0)} ms`);
        }
        if (msg.poisoned) {
          tally.poisoned++;
          keep(msg.i, `poisoned: ${msg.poisoned}`);
        }
        if (tally.mutants % 1000 === 0) console.log(`${tally.mutants} mutants, ${((Date.now() - t0) / 1000).toFixed(0)} s: ${JSON.stringify(tally)}`);
      });
      c.on('exit', (code) => {
        clearTimeout(timer);
        clearTimeout(startup);
        if (code !== 0 && code !== null && next < count) {
          // The child died (not killed by the watchdog): the mutant it was on is a failure.
          tally.exceptions++;
          tally.mutants++;
          keep(current, `the process died with status ${code}`);
          next = current + 1;
        }
        resolve();
      });
    });
  }
  console.log(`done: ${JSON.stringify(tally)}, slowest ${maxMs.toFixed(0)} ms, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

if (process.argv[2] === '--child') {
  const [seed, from, count, steps, goodEvery] = process.argv.slice(3).map(Number);
  void child(seed, from, count, steps, goodEvery);
} else if (require.main === module) {
  void parent();
}
