// The engine's layers and the import graph of the whole source: src/engine is grouped in folders by
// responsibility, each importing only the layers below it (ENGINE_LAYERS), with few files at its
// root; no file anywhere in src/ or webview/ is part of an import cycle (type-only imports count:
// they still tie the files' meanings together). Reads the files' text: import / export-from /
// dynamic-import specifiers, relative ones resolved to files.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..');
const ENGINE = 'src/engine';

/**
 * The engine's layers, bottom first: a folder of src/engine (or a file at its root, named with `.ts`)
 * may import its own layer and those before it, never one after it. The public contracts at the root
 * sit where their imports put them: types.ts below everything, result.ts above what it names
 * (linalg's matrices, the scene's settings, the contacts), api.ts above the guards; the pipeline
 * and the door on top.
 */
export const ENGINE_LAYERS: readonly string[] = [
  'types.ts', // Vec3, Quat, Range, Diagnostic: imports nothing
  'core', // math, offsets, codes, input limits, text edits, the number formatter, κ bands, words, CSR lookups
  'linalg', // sparse and dense factorizations, condition estimates, the sparse LU, triplet assembly
  'scene', // the scene format: its types (shapes and contact settings included) and the parser
  'model', // bodies and the constraint types (rows of J, C, Ċ, J̇v)
  'collision', // shapes' poses, broad and narrow phase, contacts at rest
  'result.ts', // what a run reports
  'system', // the seam: any producer's constrained system of one step, and the analysis it gets
  'trace', // trace files of other solvers (.npz, Axion's and FCLib's HDF5) read as systems of the seam
  'assembly', // the world, J, M⁻¹, A = J·M⁻¹·Jᵀ
  'kkt', // the KKT solve per island (small, tall and general paths)
  'contact', // the contact solvers and the contact step of a run with its reports
  'analysis', // energy, islands, findings (redundancy, κ, contacts), linear stability
  'guards', // non-finite values and divergence: when a run goes bad, and why
  'api.ts', // the pipeline's and the simulation's contracts
  'stepping', // the stepping simulation and its history
  'msd', // msd-sim's Lagrange framework in quaternion coordinates q = [X, Q]: its system, step and run
  'pipeline.ts', // inspect step 0, run N steps
  'index.ts', // the door
];

/** At most this many .ts files directly in src/engine/. */
export const ENGINE_ROOT_MAX = 12;


const SPECIFIER = /(?:^|[^\w$.])(?:import|export)\s+(?:type\s+)?(?:[\w$*{}\s,]*?\s+from\s+)?['"]([^'"\n]+)['"]|import\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** Every import / export-from / dynamic-import specifier of a TypeScript text (type-only ones too). */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) out.push(m[1] ?? m[2]);
  return out;
}

const posix = (p: string) => p.split(sep).join('/');

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...tsFiles(rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The file a relative specifier names (repo-relative, posix), or undefined for a package or a non-TS file. */
function resolve(from: string, spec: string, known: Set<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = posix(normalize(join(dirname(from), spec)));
  for (const c of [base, `${base}.ts`, `${base.replace(/\.m?js$/, '')}.ts`, `${base}/index.ts`]) if (known.has(c)) return c;
  return undefined;
}

/** The import graph of the given files: file → the files it imports. */
export function importGraph(files: string[], read: (file: string) => string): Map<string, Set<string>> {
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const f of files) {
    const outs = new Set<string>();
    for (const s of specifiers(read(f))) {
      const t = resolve(f, s, known);
      if (t) outs.add(t);
    }
    graph.set(f, outs);
  }
  return graph;
}

/** The graph's cycles: strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let n = 0;
  const visit = (v: string): void => {
    index.set(v, n);
    low.set(v, n++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || graph.get(v)?.has(v)) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/** The layer of an engine file: its folder under src/engine, or its own name at the root. */
export function layerOf(file: string): string {
  const rest = file.slice(ENGINE.length + 1);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash);
}

/** Every engine import that goes up the layers, leaves the engine, or lands in an undeclared layer. */
export function layerViolations(graph: Map<string, Set<string>>, layers: readonly string[]): string[] {
  const rank = new Map(layers.map((l, i) => [l, i]));
  const out: string[] = [];
  for (const [from, tos] of graph) {
    if (!from.startsWith(`${ENGINE}/`)) continue;
    const rf = rank.get(layerOf(from));
    if (rf === undefined) {
      out.push(`${from}: its layer ${layerOf(from)} is not declared in ENGINE_LAYERS`);
      continue;
    }
    for (const to of tos) {
      if (!to.startsWith(`${ENGINE}/`)) {
        out.push(`${from} imports ${to}, outside the engine`);
        continue;
      }
      const rt = rank.get(layerOf(to));
      if (rt === undefined) out.push(`${from} imports ${to}: its layer ${layerOf(to)} is not declared in ENGINE_LAYERS`);
      else if (rt > rf) out.push(`${from} (${layerOf(from)}) imports ${to} (${layerOf(to)}), a layer above it`);
    }
  }
  return out.sort();
}

const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const sourceFiles = () => [...tsFiles('src'), ...tsFiles('webview')];

test('the checks see what they must: specifiers of every form, an upward import, a cycle', () => {
  const text = [
    "import { a } from './a';",
    "import type { B } from '../b';",
    "import {\n  c,\n  type C,\n} from './c/index';",
    "export { d } from './d';",
    "export type * from './e';",
    "import './f';",
    "const g = await import('./g');",
    "import { h } from 'jsonc-parser';",
    '// a comment saying import x from y does not count',
  ].join('\n');
  assert.deepEqual(specifiers(text), ['./a', '../b', './c/index', './d', './e', './f', './g', 'jsonc-parser']);

  const files = ['src/engine/core/x.ts', 'src/engine/kkt/y.ts', 'src/engine/kkt/z.ts', 'src/engine/nowhere/w.ts', 'src/shared/s.ts'];
  const texts: Record<string, string> = {
    'src/engine/core/x.ts': "import type { Y } from '../kkt/y';", // core may not import kkt
    'src/engine/kkt/y.ts': "import { z } from './z';\nimport { x } from '../core/x';",
    'src/engine/kkt/z.ts': "export { y } from './y';\nimport { s } from '../../shared/s';", // a cycle, and outside the engine
    'src/engine/nowhere/w.ts': '',
    'src/shared/s.ts': '',
  };
  const g = importGraph(files, (f) => texts[f]);
  assert.deepEqual(layerViolations(g, ENGINE_LAYERS), [
    'src/engine/core/x.ts (core) imports src/engine/kkt/y.ts (kkt), a layer above it',
    'src/engine/kkt/z.ts imports src/shared/s.ts, outside the engine',
    'src/engine/nowhere/w.ts: its layer nowhere is not declared in ENGINE_LAYERS',
  ]);
  assert.deepEqual(cycles(g), [['src/engine/core/x.ts', 'src/engine/kkt/y.ts', 'src/engine/kkt/z.ts']]);
});

test('every engine folder imports only the layers below it, and nothing outside the engine', () => {
  const files = tsFiles(ENGINE);
  assert.ok(files.length > 50, 'the engine files are found');
  assert.deepEqual(layerViolations(importGraph(files, read), ENGINE_LAYERS), []);
});

test('no import cycle in src/ or webview/ (type-only imports included)', () => {
  const key = (c: readonly string[]) => [...c].sort().join(' <-> ');
  assert.deepEqual(cycles(importGraph(sourceFiles(), read)).map(key), []);
});

test(`at most ${ENGINE_ROOT_MAX} .ts files directly in src/engine/, and every folder is a declared layer`, () => {
  const entries = readdirSync(join(ROOT, ENGINE));
  const root = entries.filter((n) => n.endsWith('.ts'));
  assert.ok(root.length <= ENGINE_ROOT_MAX, `${root.length} files at the root: ${root.join(', ')}`);
  for (const n of entries) {
    const isDir = statSync(join(ROOT, ENGINE, n)).isDirectory();
    if (isDir || n.endsWith('.ts')) assert.ok(ENGINE_LAYERS.includes(n), `${ENGINE}/${n} is in ENGINE_LAYERS`);
  }
  assert.equal(posix(relative(ROOT, join(ROOT, ENGINE))), ENGINE);
});
