// Axion's HDF5 log (aleskucera/axion, EngineLogger with log_linear_system_data): one group per step,
// /timestep_NNNN/{time, newton_iteration_II/...}, and in each Newton iteration's
// 'Linear system data' the dense arrays of every world: J_dense (N_w × N_c × N_u), M_inv_dense
// (N_w × N_u × N_u), C_dense (N_w × N_c × N_c, the compliance on its diagonal), A = J·M⁻¹·Jᵀ + C_dense,
// cond_number = numpy's cond(A), b. The forces are the per-kind body_lambda of the 'Joint',
// 'Contact' and 'Friction constraint data' groups (N_w × rows of that kind), in J's row order.
// Conventions kept as written: M_inv_dense orders each body's angular DOFs before its linear ones
// (the columns are analysed as the file has them); C_values are compliances, not violations, so the
// trace has no C; C_dense's diagonal is the system's R, and κ is of A + R as Axion computes it.
import type { ConstrainedSystem, SystemRow } from '../system/contract';
import { readNumbers, type Hdf5File } from './hdf5';
import { denseToCsr, missingKey, shapeMismatch, type TraceIteration, type TraceKeys, type TraceLimits, type TraceReadResult, type TraceSource } from './source';

const LINEAR = 'Linear system data';
const KINDS = [
  ['Joint constraint data', 'joint', 'joint'],
  ['Contact constraint data', 'contact', 'contact'],
  ['Friction constraint data', 'friction', 'friction'],
] as const;

interface Step {
  t: number;
  iterations: TraceIteration[];
  keys: TraceKeys;
}

class AxionTrace implements TraceSource {
  readonly format = 'axion' as const;
  constructor(private readonly data: Step[]) {}
  get steps(): number {
    return this.data.length;
  }
  systemAt(k: number): ConstrainedSystem {
    const its = this.data[k].iterations;
    return its[its.length - 1].system as ConstrainedSystem;
  }
  keysAt(k: number): TraceKeys {
    return this.data[k].keys;
  }
  iterationsAt(k: number): TraceIteration[] {
    return this.data[k].iterations;
  }
}

const groupKeys = (file: Hdf5File, path: string, prefix: string): string[] => {
  const node = file.get(path);
  return node?.kind === 'group' ? node.keys.filter((k) => k.startsWith(prefix)).sort() : [];
};

/** Reads an Axion log from an opened HDF5 file (undefined when the file has no timestep_ groups). */
export function readAxion(file: Hdf5File, name: string, limits: TraceLimits, world = 0): TraceReadResult | undefined {
  const stepNames = groupKeys(file, '/', 'timestep_');
  if (stepNames.length === 0) return undefined;
  const max = limits.bytes / 8;
  const steps: Step[] = [];
  const stop = (d: ReturnType<typeof missingKey>): TraceReadResult => ({ ...(steps.length > 0 ? { source: new AxionTrace(steps) } : {}), diagnostics: [d] });
  for (const [k, stepName] of stepNames.slice(0, limits.steps).entries()) {
    const time = readNumbers(file, `/${stepName}/time`, 1);
    const t = 'data' in time && time.data.length === 1 ? time.data[0] : k;
    const iterNames = groupKeys(file, `/${stepName}`, 'newton_iteration_');
    if (iterNames.length === 0) return stop(missingKey(`/${stepName}/newton_iteration_00`, k, `step ${k}: '/${stepName}' has no newton_iteration_ group`));
    const iterations: TraceIteration[] = [];
    let keys: TraceKeys | undefined;
    for (const iterName of iterNames) {
      const base = `/${stepName}/${iterName}`;
      const lin = `${base}/${LINEAR}`;
      const arr = (key: string, required: boolean) => {
        const r = readNumbers(file, `${lin}/${key}`, max);
        if ('missing' in r) return required ? missingKey(`${lin}/${key}`, k, `step ${k}: '${lin}/${key}' is missing (log with log_linear_system_data)`) : undefined;
        if ('error' in r) return shapeMismatch(`${lin}/${key}`, k, `step ${k}: ${r.error}`);
        return r;
      };
      const J = arr('J_dense', true), Minv = arr('M_inv_dense', true), C = arr('C_dense', false), cond = arr('cond_number', false), b = arr('b', false);
      for (const x of [J, Minv, C]) if (x && 'code' in x) return stop(x);
      if (!J || 'code' in J || !Minv || 'code' in Minv) return stop(missingKey(`${lin}/J_dense`, k, `step ${k}: '${lin}' lacks J_dense or M_inv_dense`));
      if (J.shape.length !== 3 || Minv.shape.length !== 3) return stop(shapeMismatch(`${lin}/J_dense`, k, `step ${k}: J_dense and M_inv_dense must be stacked over worlds (3 axes)`));
      const [nw, m, n] = J.shape;
      if (world >= nw) return stop(shapeMismatch(`${lin}/J_dense`, k, `step ${k}: world ${world} is past the ${nw} worlds of J_dense`));
      if (Minv.shape[1] !== n || Minv.shape[2] !== n)
        return stop(shapeMismatch(`${lin}/M_inv_dense`, k, `step ${k}: J_dense has ${n} columns but M_inv_dense is ${Minv.shape[1]}×${Minv.shape[2]}`));
      let R: Float64Array | undefined;
      if (C && !('code' in C)) {
        if (C.shape[1] !== m || C.shape[2] !== m) return stop(shapeMismatch(`${lin}/C_dense`, k, `step ${k}: J_dense has ${m} rows but C_dense is ${C.shape[1]}×${C.shape[2]}`));
        R = new Float64Array(m);
        for (let i = 0; i < m; i++) R[i] = C.data[world * m * m + i * m + i];
      }
      // the forces of each kind, in J's row order, when the kinds add up to J's rows
      const parts: { kind: (typeof KINDS)[number]; data: Float64Array }[] = [];
      for (const kind of KINDS) {
        const r = readNumbers(file, `${base}/${kind[0]}/body_lambda`, max);
        if ('data' in r && r.shape.length === 2 && r.shape[0] > world) parts.push({ kind, data: r.data.slice(world * r.shape[1], (world + 1) * r.shape[1]) });
      }
      const total = parts.reduce((s, p) => s + p.data.length, 0);
      const lambda = total === m && m > 0 ? Float64Array.from(parts.flatMap((p) => Array.from(p.data))) : undefined;
      const rows: SystemRow[] = [];
      if (total === m) for (const p of parts) for (let i = 0; i < p.data.length; i++) rows.push({ constraint: `${p.kind[1]}${i}`, type: p.kind[2], row: 0, label: `${p.kind[1]}${i}` });
      else for (let i = 0; i < m; i++) rows.push({ constraint: `row${i}`, type: 'row', row: 0, label: `row${i}` });
      const system: ConstrainedSystem = {
        producer: { kind: 'trace', name, method: 'axion' },
        step: k,
        t,
        dofLabels: Array.from({ length: n }, (_, i) => `body${Math.floor(i / 6)}.${['ωx', 'ωy', 'ωz', 'vx', 'vy', 'vz'][i % 6]}`),
        rows,
        J: denseToCsr(m, n, J.data, world * m * n),
        mass: { kind: 'Minv', matrix: denseToCsr(n, n, Minv.data, world * n * n) },
        ...(lambda ? { lambda } : {}),
        ...(R ? { R } : {}),
      };
      const storedCond = cond && !('code' in cond) ? cond.data[cond.data.length > world ? world : 0] : undefined;
      let residual = 0;
      if (b && !('code' in b)) {
        const per = b.data.length / Math.max(1, b.shape[0]);
        for (let i = 0; i < per; i++) residual += b.data[world * per + i] ** 2;
        residual = Math.sqrt(residual);
      }
      iterations.push({ residual, ...(storedCond !== undefined ? { cond: storedCond } : {}), system });
      keys = { J: `${lin}/J_dense`, mass: `${lin}/M_inv_dense`, ...(lambda ? { lambda: `${base}/{${parts.map((p) => p.kind[0]).join(',')}}/body_lambda` } : {}), ...(R ? { R: `${lin}/C_dense` } : {}) };
    }
    steps.push({ t, iterations, keys: keys as TraceKeys });
  }
  return { source: new AxionTrace(steps), diagnostics: [] };
}
