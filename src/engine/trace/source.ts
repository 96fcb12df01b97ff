// What every trace reader hands back: a SystemSource over the file's steps, the file's own keys for
// each quantity (so that a diagnostic names the key the user wrote), and the diagnostics of reading.
// Binary files have no text positions: every diagnostic sits at the start of the file.
import type { CsrMatrix } from '../linalg/contracts';
import type { Diagnostic } from '../types';
import { Codes } from '../core/codes';
import type { ConstrainedSystem, SystemIteration, SystemSource } from '../system/contract';

export type TraceFormat = 'npz' | 'axion' | 'fclib-global' | 'fclib-local';

/** The file's key (or HDF5 path) each quantity of a step was read from. */
export interface TraceKeys {
  J: string;
  mass: string;
  lambda?: string;
  b?: string;
  C?: string;
  R?: string;
}

/** One Newton (or other) iteration a trace logged, with the condition number its producer stored. */
export interface TraceIteration extends SystemIteration {
  /** The iteration's own system, analysed like a step (Axion logs J, M⁻¹ and C per iteration). */
  system?: ConstrainedSystem;
}

/** A contact of a trace (FCLib): its rows, normal first, and its friction coefficient. */
export interface TraceContact {
  name: string;
  mu: number;
  rows: number[];
}

export interface TraceSource extends SystemSource {
  readonly format: TraceFormat;
  /** The contacts with their μ, when the format names them (FCLib). */
  readonly contacts?: readonly TraceContact[];
  /** Keys of step k's quantities in the file. */
  keysAt(k: number): TraceKeys;
  /** Iterations logged within step k (Axion's Newton iterations), the last one being the step's system. */
  iterationsAt?(k: number): TraceIteration[];
}

export interface TraceReadResult {
  /** Absent when nothing could be read (the diagnostics say why). */
  source?: TraceSource;
  diagnostics: Diagnostic[];
}

/** Bounds every reader respects: refuse instead of exhausting memory or time. */
export interface TraceLimits {
  /** Bytes of the file (and of the unzipped members of an .npz, together). */
  bytes: number;
  /** Steps read. */
  steps: number;
}

export const DEFAULT_TRACE_LIMITS: TraceLimits = { bytes: 512 * 1024 * 1024, steps: 100_000 };

const START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export function traceDiagnostic(code: string, message: string, data?: Record<string, unknown>, severity: Diagnostic['severity'] = 'error'): Diagnostic {
  return { severity, code, message, range: START, ...(data ? { data } : {}) };
}

export const unreadable = (message: string, data?: Record<string, unknown>): Diagnostic => traceDiagnostic(Codes.traceUnreadable, message, data);
export const missingKey = (key: string, step: number | undefined, message: string): Diagnostic =>
  traceDiagnostic(Codes.traceMissingKey, message, { key, ...(step !== undefined ? { step } : {}) });
export const shapeMismatch = (key: string, step: number | undefined, message: string): Diagnostic =>
  traceDiagnostic(Codes.traceShapeMismatch, message, { key, ...(step !== undefined ? { step } : {}) });

/** A dense row-major matrix as CSR without structural zeros (every entry kept when `keepAll`: NaN included). */
export function denseToCsr(rows: number, cols: number, data: ArrayLike<number>, offset = 0): CsrMatrix {
  const rowPtr = new Int32Array(rows + 1);
  const colIdx: number[] = [], values: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const v = data[offset + i * cols + j];
      // NaN !== 0 keeps a non-finite entry, so that the analysis sees it and says so
      if (v !== 0) {
        colIdx.push(j);
        values.push(v);
      }
    }
    rowPtr[i + 1] = colIdx.length;
  }
  return { rows, cols, rowPtr, colIdx: Int32Array.from(colIdx), values: Float64Array.from(values) };
}

/** Rows named by the file's names: equal names become rows 0, 1, … of one element. */
export function rowsOfNames(names: readonly string[], type: string): ConstrainedSystem['rows'] {
  const seen = new Map<string, number>();
  return names.map((label) => {
    const row = seen.get(label) ?? 0;
    seen.set(label, row + 1);
    return { constraint: label, type, row, label: row === 0 ? label : `${label}#${row}` };
  });
}
