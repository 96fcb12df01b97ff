// One way to read a command line, for the CLI (args.ts), the importer's commands (src/import/cli.ts)
// and the bench (bench/options.ts): node:util's parseArgs splits argv into options and positionals in
// order, and the callers refuse what they do not take in their own words. The option table the CLI
// and the importer share, and the number validators every caller uses, are here so that the same
// option accepts the same values everywhere (docs/cli.md).
import { parseArgs } from 'node:util';

/** A usage error: the message, then the usage, on stderr; exit status 2. */
export class UsageError extends Error {}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

/** The options of the scene commands and the model commands (which command takes which: args.ts, src/import/cli.ts). */
export const SHARED_OPTIONS = {
  json: { type: 'boolean' },
  steps: { type: 'string' },
  csv: { type: 'string' },
  output: { type: 'string', short: 'o' },
  keyframe: { type: 'string' },
  solver: { type: 'string' },
  limits: { type: 'string' },
  budget: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

/** One argument: an option of the table (by name, with its value when it takes one), an option it lacks, or a positional. */
type ArgvItem =
  | { kind: 'option'; name: string; raw: string; value?: string }
  | { kind: 'unknown'; raw: string }
  | { kind: 'positional'; value: string };

/**
 * argv in order. A string option without a value is `${raw} needs a value`, a boolean one given
 * `=value` is `${raw} takes no value`; `--` ends the options (what follows is positional).
 */
export function scanArgv(argv: readonly string[], table: Readonly<Record<string, OptionSpec>>): ArgvItem[] {
  const { tokens } = parseArgs({ args: [...argv], options: table, strict: false, allowPositionals: true, tokens: true });
  const items: ArgvItem[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') items.push({ kind: 'positional', value: t.value });
    else if (t.kind === 'option') {
      const spec = Object.hasOwn(table, t.name) ? table[t.name] : undefined;
      if (!spec) items.push({ kind: 'unknown', raw: t.rawName });
      else if (spec.type === 'string' && t.value === undefined) throw new UsageError(`${t.rawName} needs a value`);
      else if (spec.type === 'boolean' && t.inlineValue) throw new UsageError(`${t.rawName} takes no value`);
      else items.push({ kind: 'option', name: t.name, raw: t.rawName, value: t.value });
    }
  }
  return items;
}

/** A whole number ≥ 0 (`--steps`: the engine's `steps` limit bounds the run, not the option). */
export function wholeNumber(option: string, v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new UsageError(`${option} must be a whole number ≥ 0, got '${v}'`);
  return n;
}

/** A whole number ≥ 1 (counts of rounds, runs). */
export function positiveWholeNumber(option: string, v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${option} must be a whole number ≥ 1, got '${v}'`);
  return n;
}

/** A finite number ≥ 0 (budgets in seconds or milliseconds). */
export function nonNegativeNumber(option: string, v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${option} must be a number ≥ 0, got '${v}'`);
  return n;
}

/** Whole numbers ≥ 1, comma-separated (`10,100,1000`). */
export function positiveWholeNumbers(option: string, v: string): number[] {
  const parts = v.split(',');
  const out = parts.map((x) => Number(x.trim()));
  if (parts.some((x) => x.trim() === '') || out.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new UsageError(`${option} must be whole numbers ≥ 1, comma-separated, got '${v}'`);
  }
  return out;
}
