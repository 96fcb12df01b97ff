// The engine's documented limits on any input (docs/scene-format.md "Limits", docs/cli.md "Limits"): scene text length,
// bodies, constraints, steps of a run and the numbers a run's history keeps. Above a limit the
// engine reports a diagnostic (CL007–CL010, CL405) instead of running out of time or memory.
// Every limit can be raised: the CLI's `--limits name=N,...`, the `limits` option of the API.

export interface Limits {
  /** Characters of scene text read at all (CL007). */
  text: number;
  /** Bodies in `bodies` (CL008). */
  bodies: number;
  /** Constraints in `constraints` (CL009). */
  constraints: number;
  /** Steps of one run, `solver.steps` or asked for (CL010: clamped). */
  steps: number;
  /** Numbers a run's history keeps over all its records (CL405: the run stops there). */
  history: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  text: 8_000_000,
  bodies: 20_000,
  constraints: 50_000,
  steps: 1_000_000,
  history: 30_000_000,
});

export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof Limits)[];

/** What a record of the history costs besides its arrays (its fixed fields), in numbers. */
export const RECORD_OVERHEAD = 32;

/** The defaults with `l`'s valid entries (positive whole numbers) in their place. */
export function resolveLimits(l?: Partial<Limits>): Limits {
  const out: Limits = { ...DEFAULT_LIMITS };
  if (!l) return out;
  for (const k of LIMIT_NAMES) {
    const v = l[k];
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 1) out[k] = v;
  }
  return out;
}

/**
 * `steps=2e6,bodies=50000` → the limits named. Whole numbers ≥ 1 (1e6 notation allowed).
 * Throws a RangeError whose message says what is wrong.
 */
export function parseLimits(spec: string): Partial<Limits> {
  const out: Partial<Limits> = {};
  for (const part of spec.split(',')) {
    const [name, value, ...rest] = part.split('=').map((s) => s.trim());
    if (!LIMIT_NAMES.includes(name as keyof Limits)) throw new RangeError(`unknown limit '${name}' (limits: ${LIMIT_NAMES.join(', ')})`);
    const n = Number(value);
    if (rest.length > 0 || !value || !Number.isSafeInteger(n) || n < 1) throw new RangeError(`limit ${name} must be a whole number ≥ 1, got '${value ?? ''}'`);
    out[name as keyof Limits] = n;
  }
  return out;
}

/** 12,345,678: how the messages print counts. */
export function formatCount(n: number): string {
  return Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(n);
}

/** How a user raises limit `name` (said in each limit diagnostic). */
export function raiseHint(name: keyof Limits): string {
  return `raise the limit with the CLI's \`--limits ${name}=N\` or the \`limits\` option of the engine API`;
}
