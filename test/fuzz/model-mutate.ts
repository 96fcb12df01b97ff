// Mutation fuzzing of the MJCF/URDF fixtures through the importer, in one long-lived process (so that
// a crash of MuJoCo's WebAssembly that outlived its model would show up on the next one). Mutants
// change structure (duplicated, deleted and self-nested elements), numbers (0, negatives, nan, inf,
// 1e16, 1e309, subnormals, lists of the wrong length), names (newlines, bidi controls, duplicates,
// empty) and includes (itself, a FIFO, a missing file, a path out of the workspace, a URL), and text
// (truncation, a licence comment or DOCTYPE before the root). Each mutant must:
//   - import without an exception and without CL900;
//   - give only diagnostics whose ranges lie inside the document;
//   - when it converts without errors: export to a scene its own parser reads back without errors,
//     and that scene passes the scene fuzzer's checks (mutate.ts checkScene: a few steps, finite
//     bounded numbers or a CL401/CL403);
// and a good model (the four-bar fixture) must still load after it (checked every `goodEvery`
// mutants and after every CL612). test/fuzz/model-run.ts runs it for N mutants with a hang
// watchdog; test/unit/fuzz-model.test.ts runs a short deterministic slice.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codes, type Diagnostic, type TimeBudget } from '../../src/engine';
import { EDITOR_BUDGET } from '../../src/extension/logic/budget';
import { exportErrors, exportScene, inspectModel, nodeFileAccess } from '../../src/import/index';
import { parseXml, type XmlElement } from '../../src/import/xml';
import { checkScene } from './mutate';

export const MODEL_FIXTURES = join(__dirname, '../fixtures/import');

export interface ModelSeed {
  name: string;
  text: string;
}

export function loadModelSeeds(dir = MODEL_FIXTURES): ModelSeed[] {
  return readdirSync(dir)
    .filter((f) => /\.(xml|urdf)$/.test(f))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));
}

/** A workspace holding a copy of the fixtures (includes and meshes resolve), plus a FIFO when mkfifo exists. */
export function fuzzWorkspace(): string {
  const ws = mkdtempSync(join(tmpdir(), 'cl-model-fuzz-'));
  cpSync(MODEL_FIXTURES, ws, { recursive: true });
  try {
    execFileSync('mkfifo', [join(ws, 'fifo.xml')]);
  } catch {
    // No FIFO on this platform: the include names a missing file instead.
  }
  return ws;
}

const NUMBERS = ['0', '-1', '-0', '1e-320', '1e16', '-1e16', '1e300', 'nan', 'NaN', 'inf', '-inf', '1e309', '', '1 2', '0 0 0 0 0 0 0', '9007199254740993', '1e-300', '3.5e12', '100000', '-1e-9'];
const NAMES = ['a\nFAKE line', 'x\u202ey', '', 'world', 'dup', 'a'.repeat(3000), '&#10;', 'crank', 'rocker'];
const INCLUDES = ['mutant.xml', 'fifo.xml', 'missing.xml', '../outside.xml', 'parts/pendulum.xml', '/etc/passwd', 'https://example.com/m.xml', 'four-bar.xml', '.'];

function elements(root: XmlElement | undefined): XmlElement[] {
  const out: XmlElement[] = [];
  const stack = root ? [root] : [];
  while (stack.length) {
    const e = stack.pop()!;
    out.push(e);
    for (const c of e.children) stack.push(c);
  }
  return out;
}

const escapeAttr = (s: string) => s.replace(/&(?!#)/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, '&#10;');

/** One random edit of `text` (an XML model); the description says what it did. */
function mutateOnce(text: string, r: () => number): { text: string; edit: string } {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)];
  const doc = parseXml(text);
  const els = elements(doc.root).filter((e) => e.source === 0);
  const inner = els.filter((e) => e !== doc.root);
  const kind = r();
  if (kind < 0.4) {
    // a number
    const attrs = els.flatMap((e) => [...e.attrs.values()].filter((a) => /^[-+0-9.eE\s]+$/.test(a.value) && a.value.trim() !== ''));
    if (attrs.length) {
      const a = pick(attrs);
      const tokens = a.value.trim().split(/\s+/);
      const k = Math.floor(r() * tokens.length);
      const v = pick(NUMBERS);
      tokens[k] = v;
      return { text: text.slice(0, a.valueStart) + tokens.join(' ') + text.slice(a.valueEnd), edit: `number ${a.name}[${k}] = ${JSON.stringify(v)}` };
    }
  }
  if (kind < 0.6 && inner.length) {
    const e = pick(inner);
    const piece = text.slice(e.start, e.end);
    const op = r();
    if (op < 0.4) return { text: text.slice(0, e.end) + piece + text.slice(e.end), edit: `duplicate <${e.name}>` };
    if (op < 0.7) return { text: text.slice(0, e.start) + text.slice(e.end), edit: `delete <${e.name}>` };
    // nest the element inside itself k times (deep bodies, frames, defaults)
    const k = 1 + Math.floor(r() * (r() < 0.2 ? 200 : 8));
    const open = text.slice(e.start, e.openEnd);
    if (open.endsWith('/>')) return { text: text.slice(0, e.end) + piece + text.slice(e.end), edit: `duplicate <${e.name}/>` };
    return { text: text.slice(0, e.start) + open.repeat(k) + piece + `</${e.name}>`.repeat(k) + text.slice(e.end), edit: `nest <${e.name}> ${k} times` };
  }
  if (kind < 0.72 && els.length) {
    const e = pick(els);
    const a = e.attrs.get('name');
    const v = escapeAttr(pick(NAMES));
    if (a) return { text: text.slice(0, a.valueStart) + v + text.slice(a.valueEnd), edit: `name = ${JSON.stringify(v.slice(0, 20))}` };
    return { text: text.slice(0, e.nameEnd) + ` name="${v}"` + text.slice(e.nameEnd), edit: `add name ${JSON.stringify(v.slice(0, 20))}` };
  }
  const hosts = els.filter((e) => e.openEnd < e.end || e === doc.root);
  if (kind < 0.82 && doc.root && hosts.length) {
    const f = pick(INCLUDES);
    const host = pick(hosts);
    const at = host.openEnd;
    return { text: text.slice(0, at) + `<include file="${f}"/>` + text.slice(at), edit: `include ${f}` };
  }
  if (kind < 0.88 && inner.length) {
    // a replicate around an element, or a huge count
    const e = pick(inner);
    const n = pick(['2', '10', '1000', '100000', '-1', 'nan']);
    return { text: text.slice(0, e.start) + `<replicate count="${n}" offset="0 0 0.1">` + text.slice(e.start, e.end) + '</replicate>' + text.slice(e.end), edit: `replicate ${n}` };
  }
  if (kind < 0.94) {
    const op = r();
    if (op < 0.5) {
      const at = Math.floor(r() * text.length);
      return { text: text.slice(0, at), edit: `truncate at ${at}` };
    }
    const prolog = pick([`<!--${' licence '.repeat(800)}-->\n`, '<!DOCTYPE mujoco [ <!ENTITY x "y"> ]>\n', '\ufeff<?xml version="1.0"?>\n', '<?pi x?>\n']);
    return { text: prolog + text, edit: 'prolog' };
  }
  const at = Math.floor(r() * text.length);
  const junk = pick(['<', '>', '&', '"', '\u0000', '\n', '<body>', '</body>', '&amp;', ']]>']);
  return { text: text.slice(0, at) + junk + text.slice(at), edit: `insert ${JSON.stringify(junk)} at ${at}` };
}

/** 1–3 edits of a seed. */
export function mutateModel(text: string, r: () => number): { text: string; edits: string[] } {
  const n = 1 + Math.floor(r() * 3);
  const edits: string[] = [];
  for (let k = 0; k < n; k++) {
    const m = mutateOnce(text, r);
    text = m.text;
    edits.push(m.edit);
  }
  return { text, edits };
}

/** The editor's budgets, and a run budget: a run over it ends with CL406, as a CLI run given one would. */
const FUZZ_BUDGET: TimeBudget = { ...EDITOR_BUDGET, runMs: 10_000 };

export interface ModelVerdict {
  failure?: string;
  outcome: 'exception' | 'cl900' | 'rejected' | 'crash-isolated' | 'converted' | 'ran';
  ms: number;
}

export function rangeProblem(text: string, ds: readonly Diagnostic[]): string | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  for (const d of ds) {
    for (const p of [d.range.start, d.range.end]) {
      if (!(p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length)) return `${d.code}: range ${JSON.stringify(d.range)} outside the document`;
    }
    for (const rel of d.related ?? []) {
      const p = rel.range.start;
      if (!(p.line >= 0 && p.line < lines.length)) return `${d.code}: related range outside the document`;
    }
  }
  return undefined;
}

/** Import, check and (when it converts) run one model text written as `path` in `ws`. */
export async function checkModel(ws: string, path: string, text: string, steps = 20): Promise<ModelVerdict> {
  const t0 = performance.now();
  const done = (outcome: ModelVerdict['outcome'], failure?: string): ModelVerdict => ({ outcome, failure, ms: performance.now() - t0 });
  let r;
  try {
    writeFileSync(path, text);
    r = await inspectModel(path, text, { files: nodeFileAccess(ws) });
  } catch (e) {
    return done('exception', `exception: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' | ') : String(e)}`);
  }
  const internal = r.diagnostics.find((d) => d.code === Codes.internalError);
  if (internal) return done('cl900', `CL900: ${internal.message}`);
  const ranges = rangeProblem(text, r.diagnostics);
  if (ranges) return done('rejected', ranges);
  if (r.diagnostics.some((d) => d.code === Codes.mujocoCrashed)) return done('crash-isolated');
  const scene = r.parse.scene;
  if (!scene || r.parse.hasErrors) return done('rejected');
  const exported = exportScene({ scene, path });
  const errors = exportErrors(exported);
  if (errors.length) return done('converted', `the exported scene does not read back: ${errors[0].code} ${errors[0].message}`);
  const v = checkScene(exported, steps, FUZZ_BUDGET);
  if (v.failure) return done('converted', `exported scene: ${v.failure}`);
  return done('ran');
}

/** The good model after a bad one: converts, no error. */
export async function goodModelLoads(ws: string): Promise<string | undefined> {
  const path = join(ws, 'four-bar.xml');
  if (!existsSync(path)) return 'four-bar.xml is gone from the workspace';
  const text = readFileSync(path, 'utf8');
  const r = await inspectModel(path, text, { files: nodeFileAccess(ws) });
  if (!r.parse.scene || r.parse.hasErrors) return `the four-bar no longer loads: ${r.diagnostics.map((d) => `${d.code} ${d.message}`).join('; ')}`;
  return undefined;
}
